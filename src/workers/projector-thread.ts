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
import { READ_YOUR_WRITES, type ProjectorElsewhere } from '../../projections/read-models';
import { CommitSignal } from '../adapters/event-store/commit-signal';
import { createEventStore } from '../adapters/event-store/create-event-store';
import type { Logger } from '../application/ports/logger';
import { withUpcasting } from '../application/upcasting';
import { readModelTarget } from '../storage-targets';
import { type GatewayConfig, projectorGatherMsOf } from '../config';
import { lowerThisThreadPriority } from './thread-priority';
import { runAsWorkerThread, startWorkerThread, type WorkerThread } from './worker-thread';

/**
 * The writer's commit signal wakes the thread; it reads 5 ms after a commit, and at most every 5 ms,
 * so that it reads a request's commits together, off the cores while that request is at work, and
 * under load what 5 ms of commits appended at once.
 */
const POLL_INTERVAL_MS = 5;

/**
 * Below the HTTP and writer threads (thread-priority.ts): under a saturating load requests get the
 * cores first, which lowers the SALE p99, and the projections still catch up within a second.
 */
const PROJECTOR_NICENESS = 10;

/** Longest a reader's request to hurry keeps the projector from gathering (catchUpToHead's own wait). */
const HURRY_TIMEOUT_MS = 2000;

/** The projector's thread, and how the HTTP thread's readers reach it (ReadModels.followProjectorElsewhere). */
export interface ProjectorThread extends WorkerThread, ProjectorElsewhere {
  /** Always there: the thread bumps it after every batch it applies. */
  applied: CommitSignal;
}

/** `commitSignal`: the event store writer's (Gateway.commitSignal), when it is a thread of this process. */
export async function startProjectorThread(config: GatewayConfig, logger: Logger, commitSignal: SharedArrayBuffer | null): Promise<ProjectorThread> {
  const applied = CommitSignal.create();
  const thread = await startWorkerThread('projector', __filename, config, logger, { commitSignal, appliedSignal: applied.buffer });
  const hurry = (position: bigint): void => {
    const message: HurryMessage = { type: 'hurry', position: position.toString() };
    thread.send(message);
  };
  return { ...thread, hurry, applied };
}

interface HurryMessage {
  type: 'hurry';
  position: string;
}

runAsWorkerThread('projector', async (config, report, context) => {
  lowerThisThreadPriority(PROJECTOR_NICENESS);
  // Projections see events in their current shape, as they do in every other process.
  const store = withUpcasting(
    await createEventStore({
      kind: config.eventStore,
      sqliteFile: path.join(config.dataDir, 'events.db'),
      databaseUrl: config.databaseUrl ?? undefined,
      esdbUrl: config.esdbUrl ?? undefined,
      pollIntervalMs: POLL_INTERVAL_MS,
      commitSignal: context.commitSignal ?? undefined,
      commitSettleMs: POLL_INTERVAL_MS,
    }),
  );
  const db = createReadModelDb(readModelTarget(config));
  const applied = context.appliedSignal ? CommitSignal.of(context.appliedSignal) : null;
  const projector = new Projector({
    store,
    db,
    projections: allProjections(),
    // Under load, a short pause gathers hundreds of events per transaction; a status lookup waiting
    // for its own write hurries it (below).
    gatherMs: projectorGatherMsOf(config, 'thread'),
    onError: report,
    // The HTTP thread's status lookups wait on it rather than polling the checkpoints, and are told
    // as soon as the projections they read have a batch.
    onApplied: applied ? () => applied.committed() : undefined,
    readersWaitFor: READ_YOUR_WRITES,
  });
  // Waiting on the projector, as an in-process reader does, stops the gathering until it is reached.
  context.onMessage((message) => {
    if (message.type === 'hurry') void projector.waitFor(BigInt((message as HurryMessage).position), HURRY_TIMEOUT_MS);
  });
  await projector.start();
  await projector.catchUp();
  return async () => {
    await projector.stop();
    await store.close();
    await db.destroy();
  };
});
