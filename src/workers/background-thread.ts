/**
 * The `all` role's background threads, off the thread that answers requests:
 * - `notifier`: callbacks. Delivering them costs about a fifth of a SALE's CPU, which merchants'
 *   requests would otherwise wait for.
 * - `workers`: the scheduler and the periodic workers of the projecting process (expiry,
 *   reconciliation, payout balances, sandbox payouts, audit checkpoints), at a lower priority. A
 *   pass of theirs (the balance feeder reads and parses every new event each second) holds the
 *   thread it runs on, so they share neither the HTTP thread (requests would wait) nor the
 *   notifier's (callbacks would).
 *
 * Their appends go through the API's writer thread over a port each, so the process keeps one
 * SQLite writer and one group commit: a thread with a writer connection of its own would wait for
 * the write lock and fall behind.
 */
import type { MessagePort } from 'node:worker_threads';
import type { CountsSnapshot } from '../adapters/metrics/gateway-metrics';
import type { Logger } from '../application/ports/logger';
import { buildGateway, type Gateway } from '../composition';
import type { GatewayConfig } from '../config';
import { startProjectingWorkers, startSchedulerWorker, type Stop } from './role-workers';
import { lowerThisThreadPriority } from './thread-priority';
import { runAsWorkerThread, startWorkerThread, type ThreadContext, type WorkerThread } from './worker-thread';

/**
 * The threads learn of the API's appends from the writer's commit signal. A callback's delay counts
 * from the append, so they read 2 ms after a commit (a SALE's intent and outcome often together);
 * under load, at most one read every 10 ms, each taking what those commits appended.
 */
const POLL_INTERVAL_MS = 10;
const COMMIT_SETTLE_MS = 2;
/** How often a thread reports its readings (counts, blocked URLs) to the process's metrics. */
const READING_INTERVAL_MS = 1_000;
/** The workers wait for cores behind requests and callbacks, like the projector (thread-priority.ts). */
const WORKERS_NICENESS = 10;

export interface BackgroundThreadOptions {
  /** A channel to the process's event store writer (Gateway.openWriterPort), one per thread. */
  writerPort: () => MessagePort | null;
  /** That writer's commit signal (Gateway.commitSignal): the notifier reads each commit at once. */
  commitSignal: SharedArrayBuffer | null;
  /** Told the number of callback URLs the notifier is holding back. */
  onBlockedUrls: (count: number) => void;
  /** Told what a thread's work counted (callbacks, scheduled payments, appends), to show in the process's metrics. */
  onCounts: (thread: 'notifier' | 'workers', counts: CountsSnapshot) => void;
}

/** Starts both threads; resolves once both are ready. */
export async function startBackgroundThreads(config: GatewayConfig, logger: Logger, options: BackgroundThreadOptions): Promise<WorkerThread[]> {
  const start = (name: 'notifier' | 'workers') =>
    startWorkerThread(name, __filename, config, logger, {
      port: options.writerPort,
      commitSignal: options.commitSignal,
      onReading: (reading) => {
        const { blockedUrls, counts } = reading as { blockedUrls?: unknown; counts?: unknown };
        if (typeof blockedUrls === 'number') options.onBlockedUrls(blockedUrls);
        if (Array.isArray(counts)) options.onCounts(name, counts as CountsSnapshot);
      },
    });
  return Promise.all([start('notifier'), start('workers')]);
}

/** A gateway for a thread of the `all` process: its appends through the writer port, following the test clock. */
async function threadGateway(config: GatewayConfig, context: ThreadContext): Promise<Gateway> {
  const gateway = await buildGateway(config, { withProjector: false, writerPort: context.port ?? undefined, commitSignal: context.commitSignal ?? undefined, eventCommitSettleMs: COMMIT_SETTLE_MS, eventPollIntervalMs: POLL_INTERVAL_MS });
  // The sandbox's test clock is moved through the API; follow it here too.
  gateway.testClock.follow();
  return gateway;
}

/** Reports the thread's readings every second and once more when it stops. */
function reportReadings(gateway: Gateway, context: ThreadContext, reportError: (error: unknown) => void, withBlockedUrls: boolean) {
  const report = async () =>
    context.post({ ...(withBlockedUrls ? { blockedUrls: gateway.notifier.blockedUrls().length } : {}), counts: await gateway.metrics.countsSnapshot() });
  const timer = setInterval(() => void report().catch(reportError), READING_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await report().catch(reportError);
  };
}

runAsWorkerThread('notifier', async (config, reportError, context) => {
  const gateway = await threadGateway(config, context);
  await gateway.notifier.start();
  const stopReadings = reportReadings(gateway, context, reportError, true);
  return async () => {
    await gateway.notifier.stop();
    await stopReadings();
    await gateway.close();
  };
});

runAsWorkerThread('workers', async (config, reportError, context) => {
  lowerThisThreadPriority(WORKERS_NICENESS);
  const gateway = await threadGateway(config, context);
  const stops: Stop[] = [...startProjectingWorkers(gateway, config), startSchedulerWorker(gateway, config)];
  const stopReadings = reportReadings(gateway, context, reportError, false);
  return async () => {
    for (const stop of stops) await stop();
    await stopReadings();
    await gateway.close();
  };
});
