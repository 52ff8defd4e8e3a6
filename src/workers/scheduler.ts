/**
 * Runs the scheduler on a timer. Several scheduler processes may run against one PostgreSQL store:
 * each due date is claimed on its chain stream, so only one of them charges it. A failed run (the
 * database unreachable) is logged and tried again after a pause that grows while it keeps failing:
 * chains stay due in the read model until a step is recorded, so nothing is skipped.
 */
import { startPeriodic, type Periodic } from '../application/periodic';
import type { Logger } from '../application/ports/logger';
import type { Scheduler } from '../application/schedules/scheduler';

export function startScheduler(options: { scheduler: Scheduler; logger: Logger; intervalMs?: number }): Periodic {
  return startPeriodic({
    name: 'scheduler',
    intervalMs: options.intervalMs ?? 1_000,
    logger: options.logger,
    // In the scheduler role this timer is the process's only work. Idle database connections used
    // to keep it alive by accident, and a dropped connection let it exit.
    keepsProcessAlive: true,
    run: async () => {
      const run = await options.scheduler.runDue();
      if (run.charged || run.skipped || run.ended) options.logger.info('scheduled payments', { ...run });
    },
  });
}
