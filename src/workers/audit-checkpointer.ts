/**
 * Records a global audit checkpoint every interval (default 60 s) when the log has moved. Runs
 * where projections run: `npm start` and the `projector` role. Give it the store as written, not
 * the upcasting one.
 */
import { CheckpointRecorder } from '../application/audit/checkpoint-recorder';
import { startPeriodic } from '../application/periodic';
import type { Clock } from '../application/ports/clock';
import type { EventStore } from '../application/ports/event-store';
import type { Logger } from '../application/ports/logger';

export interface AuditCheckpointerOptions {
  store: EventStore;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
}

export interface AuditCheckpointer {
  /** Records a checkpoint now if the log moved (what each tick does). */
  runOnce(): Promise<void>;
  /** Stops the timer and waits for a checkpoint being recorded, so the store can close after. */
  stop(): Promise<void>;
}

export function startAuditCheckpointer(options: AuditCheckpointerOptions): AuditCheckpointer {
  const recorder = new CheckpointRecorder({ store: options.store, clock: options.clock });
  return startPeriodic({
    name: 'audit checkpoint',
    intervalMs: options.intervalMs,
    logger: options.logger,
    // It runs beside the projector, never as a process's only work.
    keepsProcessAlive: false,
    run: async () => {
      const recorded = await recorder.recordIfMoved();
      if (recorded) {
        options.logger.info('audit checkpoint recorded', { upToPosition: recorded.upToPosition, eventCount: recorded.eventCount });
      }
    },
  });
}
