/**
 * A task run every `intervalMs`, the way every background loop of the gateway runs (the scheduler,
 * payer-action expiry, the reconciler, audit checkpoints):
 *
 * - passes never overlap: the next one is timed from the end of the previous one, and `runOnce()`
 *   during a pass joins it instead of starting another;
 * - a failed pass is logged (`<name> failed`) and never ends the loop; the wait before the next one
 *   doubles with each failure in a row, from `intervalMs` up to `maxBackoffMs`, so a database outage
 *   is not hammered or logged every tick, and drops back to `intervalMs` after a pass succeeds;
 * - `stop()` cancels the next pass and resolves once the running one has finished, so whatever it
 *   uses (a store, a connection) can be closed right after.
 *
 * Whether the timer keeps the process alive is the caller's choice (`keepsProcessAlive`): a task
 * that is the process's only work (the scheduler in the `scheduler` role) must keep it, or the
 * process exits as soon as nothing else holds the event loop; a helper beside a server must not
 * keep a process alive that is otherwise done.
 */
import type { Logger } from './ports/logger';

export interface PeriodicOptions {
  /** Names the task in logs: a failure is logged as `<name> failed`. */
  name: string;
  /** Pause between passes. */
  intervalMs: number;
  /** One pass. */
  run(): Promise<void>;
  logger: Logger;
  /** True: the pending timer keeps the process alive. */
  keepsProcessAlive: boolean;
  /** Longest pause after failures in a row. Default 30 s (never shorter than `intervalMs`). */
  maxBackoffMs?: number;
}

export interface Periodic {
  /** Runs a pass now, or joins the one in progress. Never rejects: a failure is logged. */
  runOnce(): Promise<void>;
  /** No pass starts after this; resolves when the one in progress (if any) has finished. */
  stop(): Promise<void>;
}

export const DEFAULT_MAX_BACKOFF_MS = 30_000;

export function startPeriodic(options: PeriodicOptions): Periodic {
  const maxBackoffMs = Math.max(options.intervalMs, options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS);
  let current: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let failuresInARow = 0;

  const pauseAfterThisPass = (): number =>
    failuresInARow === 0 ? options.intervalMs : Math.min(maxBackoffMs, options.intervalMs * 2 ** failuresInARow);

  const runOnce = (): Promise<void> => {
    if (current) return current;
    const pass: Promise<void> = Promise.resolve()
      .then(() => options.run())
      .then(
        () => {
          failuresInARow = 0;
        },
        (error: unknown) => {
          failuresInARow++;
          options.logger.error(`${options.name} failed`, { error: String(error), failuresInARow, retryInMs: pauseAfterThisPass() });
        },
      )
      .finally(() => {
        if (current === pass) current = null;
      });
    current = pass;
    return pass;
  };

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void runOnce().then(schedule);
    }, pauseAfterThisPass());
    if (!options.keepsProcessAlive) timer.unref();
  };

  schedule();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await current;
    },
  };
}
