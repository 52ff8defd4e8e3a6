/**
 * The `all` role's background thread: callbacks (the notifier), the scheduler and the periodic
 * workers of the projecting process (expiry, reconciliation, payout balances, sandbox payouts,
 * audit checkpoints), off the thread that answers requests. On that thread the notifier alone took
 * a fifth of the CPU per SALE under a steady load, and a worker's pass (a page of the log, a
 * minute's audit chain) held every request behind it; each millisecond of it was a millisecond
 * some merchant waited.
 *
 * Their appends (callback attempts, expiries, scheduled payments) go through the API's writer
 * thread over a port, so the process keeps one SQLite writer and one group commit: an earlier
 * notifier thread with a writer connection of its own fell behind, waiting for the write lock.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Logger } from '../application/ports/logger';
import type { CountsSnapshot } from '../adapters/metrics/gateway-metrics';
import { buildGateway } from '../composition';
import type { GatewayConfig } from '../config';
import { startProjectingWorkers, startSchedulerWorker, type Stop } from './role-workers';
import { runAsWorkerThread, startWorkerThread, type WorkerThread } from './worker-thread';

/**
 * The thread learns of the API's appends by looking for them, not by being told: often, because a
 * callback's delay counts from the append (the look is one indexed read).
 */
const POLL_INTERVAL_MS = 10;
/** How often the thread reports its blocked URLs and its counts to the process's metrics. */
const READING_INTERVAL_MS = 1_000;

export interface BackgroundThreadOptions {
  /** A channel to the process's event store writer (Gateway.openWriterPort). */
  writerPort: () => MessagePort | null;
  /** Told the number of callback URLs the thread is holding back. */
  onBlockedUrls: (count: number) => void;
  /** Told what the thread's work counted (callbacks, scheduled payments, appends), to show in the process's metrics. */
  onCounts: (counts: CountsSnapshot) => void;
}

export const startBackgroundThread = (config: GatewayConfig, logger: Logger, options: BackgroundThreadOptions): Promise<WorkerThread> =>
  startWorkerThread('background', __filename, config, logger, {
    port: options.writerPort,
    onReading: (reading) => {
      const { blockedUrls, counts } = reading as { blockedUrls?: unknown; counts?: unknown };
      if (typeof blockedUrls === 'number') options.onBlockedUrls(blockedUrls);
      if (Array.isArray(counts)) options.onCounts(counts as CountsSnapshot);
    },
  });

runAsWorkerThread('background', async (config, reportError, context) => {
  const gateway = await buildGateway(config, {
    withProjector: false,
    writerPort: context.port ?? undefined,
    eventPollIntervalMs: POLL_INTERVAL_MS,
  });
  // The sandbox's test clock is moved through the API; follow it here too.
  gateway.testClock.follow();
  await gateway.notifier.start();
  const stops: Stop[] = [...startProjectingWorkers(gateway, config), startSchedulerWorker(gateway, config)];
  const report = async () => context.post({ blockedUrls: gateway.notifier.blockedUrls().length, counts: await gateway.metrics.countsSnapshot() });
  const readings = setInterval(() => void report().catch(reportError), READING_INTERVAL_MS);
  readings.unref();
  return async () => {
    clearInterval(readings);
    for (const stop of stops) await stop();
    await report().catch(reportError);
    await gateway.close();
  };
});
