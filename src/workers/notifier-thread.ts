/**
 * The notifier on its own thread, for the `all` role. Following the log, folding payments and
 * scheduling callbacks took a fifth of the HTTP thread's CPU under a steady SALE load, and every
 * millisecond of it was a millisecond some merchant's request waited. Its appends (claims,
 * attempts, outcomes) go through the API's writer thread over a port, so the process keeps one
 * writer and one group commit: an earlier notifier thread with a writer connection of its own fell
 * behind, waiting for the write lock (docs/benchmarks.md).
 */
import type { MessagePort } from 'node:worker_threads';
import type { Logger } from '../application/ports/logger';
import { buildGateway } from '../composition';
import type { GatewayConfig } from '../config';
import { runAsWorkerThread, startWorkerThread, type WorkerThread } from './worker-thread';

/**
 * The thread learns of the API's appends by looking for them, not by being told: often, because a
 * callback's delay counts from the append (the look is one indexed read).
 */
const POLL_INTERVAL_MS = 10;
/** How often the thread reports its blocked URLs to the process's metrics. */
const READING_INTERVAL_MS = 1_000;

export interface NotifierThreadOptions {
  /** A channel to the process's event store writer (Gateway.openWriterPort). */
  writerPort: () => MessagePort | null;
  /** Told the number of callback URLs the thread is holding back. */
  onBlockedUrls: (count: number) => void;
}

export const startNotifierThread = (config: GatewayConfig, logger: Logger, options: NotifierThreadOptions): Promise<WorkerThread> =>
  startWorkerThread('notifier', __filename, config, logger, {
    port: options.writerPort,
    onReading: (reading) => {
      const count = (reading as { blockedUrls?: unknown }).blockedUrls;
      if (typeof count === 'number') options.onBlockedUrls(count);
    },
  });

runAsWorkerThread('notifier', async (config, _report, context) => {
  const gateway = await buildGateway(config, {
    withProjector: false,
    writerPort: context.port ?? undefined,
    eventPollIntervalMs: POLL_INTERVAL_MS,
  });
  // The sandbox's test clock is moved through the main thread's API; follow it here too.
  gateway.testClock.follow();
  await gateway.notifier.start();
  const readings = setInterval(() => context.post({ blockedUrls: gateway.notifier.blockedUrls().length }), READING_INTERVAL_MS);
  readings.unref();
  return async () => {
    clearInterval(readings);
    await gateway.close();
  };
});
