/**
 * Runs the scheduler on a timer. Several scheduler processes may run against one PostgreSQL store:
 * each due date is claimed on its chain stream, so only one of them charges it. A failed run (the
 * database unreachable) is logged and the next tick simply tries again: chains stay due in the read
 * model until a step is recorded, so nothing is skipped.
 */
import type { Logger } from '../application/ports/logger';
import type { Scheduler } from '../application/schedules/scheduler';

export function startScheduler(options: { scheduler: Scheduler; logger: Logger; intervalMs?: number }): { stop(): Promise<void> } {
  let current: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (current) return;
    current = options.scheduler
      .runDue()
      .then((run) => {
        if (run.charged || run.skipped || run.ended) options.logger.info('scheduled payments', { ...run });
      })
      .catch((error) => options.logger.error('scheduler failed', { error: String(error) }))
      .finally(() => {
        current = null;
      });
  }, options.intervalMs ?? 1_000);
  // Not unref'd: in the scheduler role this timer is the process's only work. Idle database
  // connections used to keep it alive by accident, and a dropped connection let it exit.
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
