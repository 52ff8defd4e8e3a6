/**
 * Records a signed global audit checkpoint every interval (default 10 s), or as soon as 1,000
 * events arrived since the last one, whichever comes first; nothing while the log has not moved.
 * Runs where projections run: `npm start` and the `projector` role. Give it the store as written,
 * not the upcasting one.
 *
 * With a checkpoint file, each signed checkpoint is appended to it as one JSON line (the format of
 * GET /audit/checkpoints/latest), for an operator to ship where the database's writers cannot reach.
 */
import { appendFileSync } from 'node:fs';
import { CheckpointRecorder } from '../application/audit/checkpoint-recorder';
import { signedCheckpointOf } from '../application/audit/proofs';
import { startPeriodic } from '../application/periodic';
import type { Clock } from '../application/ports/clock';
import type { EventStore } from '../application/ports/event-store';
import type { Logger } from '../application/ports/logger';
import type { CheckpointSigner } from '../domain/audit/signed-checkpoint';

export interface AuditCheckpointerOptions {
  store: EventStore;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  signer?: CheckpointSigner;
  /** Each signed checkpoint is appended here as a JSON line. */
  checkpointFile?: string | null;
  /** Events that call for a checkpoint before the interval is up. Default 1000. */
  maxUncheckedEvents?: number;
}

export interface AuditCheckpointer {
  /** Records a checkpoint now if the log moved (what a tick does once the interval is up). */
  runOnce(): Promise<void>;
  /** Stops the timer and waits for a checkpoint being recorded, so the store can close after. */
  stop(): Promise<void>;
}

/** How often the count of unchecked events is looked at, when the interval is longer. */
const LOOK_MS = 1000;

export function startAuditCheckpointer(options: AuditCheckpointerOptions): AuditCheckpointer {
  const recorder = new CheckpointRecorder({ store: options.store, clock: options.clock, signer: options.signer });
  const maxUnchecked = options.maxUncheckedEvents ?? 1000;
  let lastRecordedAt = options.clock.now().getTime();
  let forced = false;
  const periodic = startPeriodic({
    name: 'audit checkpoint',
    intervalMs: Math.min(options.intervalMs, LOOK_MS),
    logger: options.logger,
    // It runs beside the projector, never as a process's only work.
    keepsProcessAlive: false,
    run: async () => {
      const due = forced || options.clock.now().getTime() - lastRecordedAt >= options.intervalMs;
      forced = false;
      const recorded = await recorder.recordIfMoved(due ? {} : { minEvents: maxUnchecked });
      if (due) lastRecordedAt = options.clock.now().getTime();
      if (!recorded) return;
      lastRecordedAt = options.clock.now().getTime();
      options.logger.info('audit checkpoint recorded', { upToPosition: recorded.upToPosition, eventCount: recorded.eventCount, treeSize: recorded.treeSize });
      const signed = options.signer ? signedCheckpointOf(recorded, options.signer.publicKey) : null;
      if (signed && options.checkpointFile) {
        try {
          appendFileSync(options.checkpointFile, `${JSON.stringify(signed)}\n`);
        } catch (error) {
          options.logger.warn('audit checkpoint could not be appended to AUDIT_CHECKPOINT_FILE', { error: String(error) });
        }
      }
    },
  });
  return {
    runOnce: () => {
      forced = true;
      return periodic.runOnce();
    },
    stop: () => periodic.stop(),
  };
}
