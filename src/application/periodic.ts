/**
 * A task run every `intervalMs`, the way every background loop of the gateway runs (the scheduler,
 * payer-action expiry, the reconciler, audit checkpoints):
 *
 * - passes never overlap: the next one is timed from the end of the previous one, and `runOnce()`
 *   during a pass joins it instead of starting another;
 * - a failed pass is logged (`<name> failed`) and never ends the loop; the wait before the next one
 *   doubles with each failure in a row, from `intervalMs` up to `maxBackoffMs`, so a database outage
 *   is not hammered or logged every tick, and drops back to `intervalMs` after a pass succeeds;
 * - `stop()` cancels the next pass, asks the running one to end early (its `signal` is aborted: a
 *   pass that works through a backlog, such as a catch-up of the whole log, stops at its next safe
 *   point instead of finishing the backlog) and resolves once it has ended, so whatever it uses (a
 *   store, a connection) can be closed right after.
 *
 * Whether the timer keeps the process alive is the caller's choice (`keepsProcessAlive`): a task
 * that is the process's only work (the scheduler in the `scheduler` role) must keep it, or the
 * process exits as soon as nothing else holds the event loop; a helper beside a server must not
 * keep a process alive that is otherwise done.
 *
 * A task that follows the event log can also be woken (`wakeOn`): when the log's writer in this
 * process committed since the last pass began, the next pass starts `settleMs` later instead of
 * at the end of the interval, which stays the pace for writes the signal does not see (another
 * process's) and after failures.
 */
import type { Logger } from './ports/logger';

/** A counter that changes whenever new work may have arrived (the event store writer's commits). */
export interface WakeSignal {
  count(): number;
  /** Resolves once the count differs from `seen`, or after `timeoutMs`. */
  changedSince(seen: number, timeoutMs: number): Promise<void>;
}

export interface PeriodicOptions {
  /** Names the task in logs: a failure is logged as `<name> failed`. */
  name: string;
  /** Pause between passes. */
  intervalMs: number;
  /** One pass; `signal` is aborted when the task is stopped. */
  run(signal: AbortSignal): Promise<void>;
  logger: Logger;
  /** True: the pending timer keeps the process alive. */
  keepsProcessAlive: boolean;
  /** Longest pause after failures in a row. Default 30 s (never shorter than `intervalMs`). */
  maxBackoffMs?: number;
  /** Start the next pass `settleMs` after `signal` changed, when that comes before the interval ends. */
  wakeOn?: { signal: WakeSignal; settleMs: number };
}

export interface Periodic {
  /** Runs a pass now, or joins the one in progress. Never rejects: a failure is logged. */
  runOnce(): Promise<void>;
  /** No pass starts after this; the one in progress (if any) is asked to end, and this resolves when it has. */
  stop(): Promise<void>;
}

export const DEFAULT_MAX_BACKOFF_MS = 30_000;

export function startPeriodic(options: PeriodicOptions): Periodic {
  const maxBackoffMs = Math.max(options.intervalMs, options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS);
  let current: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  // Aborted by stop(): no pass starts after it, and the running one is told to end.
  const stopping = new AbortController();
  let failuresInARow = 0;
  // Taken as each pass begins: a change after it may be work that pass did not see.
  let seenAtPassStart = options.wakeOn?.signal.count() ?? 0;

  const pauseAfterThisPass = (): number =>
    failuresInARow === 0 ? options.intervalMs : Math.min(maxBackoffMs, options.intervalMs * 2 ** failuresInARow);

  const runOnce = (): Promise<void> => {
    if (current) return current;
    if (options.wakeOn) seenAtPassStart = options.wakeOn.signal.count();
    const pass: Promise<void> = Promise.resolve()
      .then(() => options.run(stopping.signal))
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

  const startAfter = (ms: number): NodeJS.Timeout => {
    const started = setTimeout(() => {
      timer = null;
      void runOnce().then(schedule);
    }, ms);
    if (!options.keepsProcessAlive) started.unref();
    return started;
  };

  const schedule = (): void => {
    if (stopping.signal.aborted) return;
    const pause = pauseAfterThisPass();
    const waiting = (timer = startAfter(pause));
    const wakeOn = options.wakeOn;
    // After a failure the backoff decides, or a busy log would hammer a store that is down.
    if (!wakeOn || failuresInARow > 0) return;
    const seen = seenAtPassStart;
    void wakeOn.signal.changedSince(seen, pause).then(() => {
      if (timer !== waiting || stopping.signal.aborted || failuresInARow > 0 || wakeOn.signal.count() === seen) return;
      clearTimeout(waiting);
      timer = startAfter(wakeOn.settleMs);
    });
  };

  schedule();
  return {
    runOnce,
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      timer = null;
      await current;
    },
  };
}
