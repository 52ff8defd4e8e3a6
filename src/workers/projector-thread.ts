/**
 * The projector on its own thread, for the `all` role. Projection work is CPU-bound and would
 * otherwise share one event loop with every HTTP request; on its own thread it uses another core
 * while the deployment stays one process. It reads the same event store and writes the same read
 * models as the standalone `projector` role.
 */
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Projector, allProjections, createReadModelDb } from '../../projections';
import { createEventStore } from '../adapters/event-store/create-event-store';
import type { Logger } from '../application/ports/logger';
import { readModelTarget } from '../composition';
import type { GatewayConfig } from '../config';

type Message = { type: 'ready' } | { type: 'error'; error: string };

/** How often the thread looks for appends made by the API thread (a cheap indexed read). */
const POLL_INTERVAL_MS = 5;

export interface ProjectorThread {
  stop(): Promise<void>;
}

export async function startProjectorThread(config: GatewayConfig, logger: Logger): Promise<ProjectorThread> {
  let stopping = false;
  let worker: Worker;
  const spawn = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // The thread loads this TypeScript file through the same loader the main thread uses.
      const bootstrap = `require('tsx/cjs'); require(${JSON.stringify(__filename)});`;
      worker = new Worker(bootstrap, { eval: true, workerData: { config } });
      worker.on('message', (message: Message) => {
        if (message.type === 'ready') resolve();
        else logger.error('projector failed, it will resubscribe', { error: message.error });
      });
      worker.once('error', (error) => {
        logger.error('projector thread crashed', { error: String(error) });
        reject(error);
      });
      worker.once('exit', (code) => {
        if (stopping) return;
        logger.error('projector thread exited, restarting', { code });
        setTimeout(() => void spawn().catch(() => undefined), 1000).unref();
      });
    });
  await spawn();
  return {
    async stop() {
      stopping = true;
      worker.postMessage({ type: 'stop' });
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

async function runInThread(): Promise<void> {
  const config = (workerData as { config: GatewayConfig }).config;
  const store = await createEventStore({
    kind: config.eventStore,
    sqliteFile: path.join(config.dataDir, 'events.db'),
    databaseUrl: config.databaseUrl ?? undefined,
    esdbUrl: config.esdbUrl ?? undefined,
    pollIntervalMs: POLL_INTERVAL_MS,
  });
  const db = createReadModelDb(readModelTarget(config));
  const projector = new Projector({
    store,
    db,
    projections: allProjections(),
    // Under load, a short pause gathers hundreds of events per transaction; status lookups do not
    // wait for it (they poll checkpoints), and callbacks and analysts never notice 20 ms.
    gatherMs: 20,
    onError: (error) => parentPort!.postMessage({ type: 'error', error: String(error) } satisfies Message),
  });
  await projector.start();
  await projector.catchUp();
  parentPort!.on('message', (message: { type: string }) => {
    if (message.type !== 'stop') return;
    void (async () => {
      await projector.stop();
      await store.close();
      await db.destroy();
      process.exit(0);
    })();
  });
  parentPort!.postMessage({ type: 'ready' } satisfies Message);
}

if (!isMainThread && (workerData as { config?: unknown } | null)?.config) {
  runInThread().catch((error) => {
    parentPort!.postMessage({ type: 'error', error: String(error) } satisfies Message);
    process.exit(1);
  });
}
