/**
 * The projector on its own thread, for the `all` role. Projection work is CPU-bound and would
 * otherwise share one event loop with every HTTP request; on its own thread it uses another core
 * while the deployment stays one process. It reads the same event store and writes the same read
 * models as the standalone `projector` role.
 */
import path from 'node:path';
import { allProjections } from '../../projections';
import { createReadModelDb } from '../../projections/database';
import { Projector } from '../../projections/projector';
import { createEventStore } from '../adapters/event-store/create-event-store';
import type { Logger } from '../application/ports/logger';
import { withUpcasting } from '../application/upcasting';
import { readModelTarget } from '../composition';
import type { GatewayConfig } from '../config';
import { lowerThisThreadPriority } from './thread-priority';
import { runAsWorkerThread, startWorkerThread, type WorkerThread } from './worker-thread';

/** How often the thread looks for appends made by the API thread (a cheap indexed read). */
const POLL_INTERVAL_MS = 5;

/**
 * Below the HTTP and writer threads (thread-priority.ts). At 1,000 SALE/s on two cores, five
 * alternating pairs gave SALE p99 60/103/107/82/38 ms without and 43/91/93/19/25 ms with; the
 * projections still caught up within a second of a saturating load.
 */
const PROJECTOR_NICENESS = 10;

export const startProjectorThread = (config: GatewayConfig, logger: Logger): Promise<WorkerThread> =>
  startWorkerThread('projector', __filename, config, logger);

runAsWorkerThread('projector', async (config, report) => {
  lowerThisThreadPriority(PROJECTOR_NICENESS);
  // Projections see events in their current shape, as they do in every other process.
  const store = withUpcasting(
    await createEventStore({
      kind: config.eventStore,
      sqliteFile: path.join(config.dataDir, 'events.db'),
      databaseUrl: config.databaseUrl ?? undefined,
      esdbUrl: config.esdbUrl ?? undefined,
      pollIntervalMs: POLL_INTERVAL_MS,
    }),
  );
  const db = createReadModelDb(readModelTarget(config));
  const projector = new Projector({
    store,
    db,
    projections: allProjections(),
    // Under load, a short pause gathers hundreds of events per transaction; status lookups do not
    // wait for it (they poll checkpoints), and callbacks and analysts never notice 20 ms.
    gatherMs: 20,
    onError: report,
  });
  await projector.start();
  await projector.catchUp();
  return async () => {
    await projector.stop();
    await store.close();
    await db.destroy();
  };
});
