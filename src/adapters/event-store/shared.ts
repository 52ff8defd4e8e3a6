/**
 * Pieces the event store adapters share, so the three of them cannot drift apart on the rules the
 * contract suite holds them to: expected-version checks, idempotent re-appends and the catch-up
 * subscription loop.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type AppendResult,
  type ExpectedVersion,
  type NewEvent,
  type StoredEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from '../../application/ports/event-store';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CommitSignal } from './commit-signal';

/**
 * Thrown when an append re-uses event ids in a way that is neither a fresh write nor an exact
 * retry of an earlier append (some ids stored, or stored in another stream). Retrying will not
 * help: the caller built the events wrongly.
 */
export class EventIdConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventIdConflictError';
  }
}

/** Rejects appends that no store could perform sensibly, before any I/O. */
export function validateAppend(streamId: string, events: NewEvent[]): void {
  if (typeof streamId !== 'string' || streamId.length === 0) {
    throw new TypeError('append needs a non-empty stream id');
  }
  if (events.length === 0) {
    // An empty append has no "last appended event" to report a position for.
    throw new TypeError(`append to ${streamId} needs at least one event`);
  }
  const ids = new Set<string>();
  for (const event of events) {
    if (ids.has(event.id)) {
      throw new EventIdConflictError(`append to ${streamId} repeats event id ${event.id}`);
    }
    ids.add(event.id);
  }
}

/**
 * Rejects writes of an `appendMultiple` that no store could perform sensibly, before any I/O. A
 * write with no events is a version check (an `exact` expected version and nothing to write);
 * with any other expected version it checks nothing and is refused like an empty append.
 */
export function validateWrite(write: { streamId: string; events: NewEvent[]; expected: ExpectedVersion }): void {
  if (isVersionCheck(write)) {
    if (typeof write.streamId !== 'string' || write.streamId.length === 0) {
      throw new TypeError('a version check needs a non-empty stream id');
    }
    return;
  }
  validateAppend(write.streamId, write.events);
}

/** A write of `appendMultiple` that writes nothing and only holds the call to a stream's version. */
export function isVersionCheck(write: { events: readonly unknown[]; expected: ExpectedVersion }): write is { events: readonly unknown[]; expected: { kind: 'exact'; version: bigint } } {
  return write.events.length === 0 && write.expected.kind === 'exact';
}

/** What a version check answers: the version it held the stream to, and no position (nothing written). */
export function checkResult(version: bigint): AppendResult {
  return { nextExpectedVersion: version, position: -1n };
}

export function checkExpectedVersion(
  streamId: string,
  expected: ExpectedVersion,
  current: bigint | null,
): void {
  const ok =
    expected.kind === 'any' ||
    (expected.kind === 'no_stream' && current === null) ||
    (expected.kind === 'exact' && current === expected.version);
  if (!ok) throw new WrongExpectedVersionError(streamId, expected, current);
}

export interface ExistingEventRow {
  eventId: string;
  streamId: string;
  version: bigint;
  position: bigint;
}

/**
 * Decides what an append means given the rows that already carry its event ids.
 * Returns the original result when the append is an exact retry (all ids, same stream, same
 * order), `null` when none of the ids exist, and throws otherwise. A retry succeeds whatever its
 * expected version says, because the first attempt already passed that check: a client that lost
 * the response must be able to retry safely.
 */
export function resolveRetry(
  streamId: string,
  events: NewEvent[],
  existing: ExistingEventRow[],
): AppendResult | null {
  if (existing.length === 0) return null;
  const byId = new Map(existing.map((row) => [row.eventId, row]));
  const rows = events.map((event) => byId.get(event.id));
  const exactRetry =
    rows.every((row) => row !== undefined && row.streamId === streamId) &&
    rows.every((row, i) => row!.version === rows[0]!.version + BigInt(i));
  if (!exactRetry) {
    const elsewhere = existing.find((row) => row.streamId !== streamId);
    throw new EventIdConflictError(
      elsewhere
        ? `event id ${elsewhere.eventId} is already stored in stream ${elsewhere.streamId}, not ${streamId}`
        : `append to ${streamId} partly repeats stored events (${existing.length} of ${events.length} ids exist)`,
    );
  }
  const last = rows[rows.length - 1]!;
  return { nextExpectedVersion: last.version, position: last.position };
}

const handlerContext = new AsyncLocalStorage<object>();

/**
 * Runs a subscription handler so that a `stop()` issued from inside it can tell: waiting for the
 * running handler there would wait for itself forever.
 */
export async function runHandler(owner: object, call: () => Promise<void> | void): Promise<void> {
  await handlerContext.run(owner, async () => {
    await call();
  });
}

export function isInsideHandlerOf(owner: object): boolean {
  return handlerContext.getStore() === owner;
}

export function reportError(options: SubscribeOptions, error: unknown): void {
  try {
    options.onError?.(error);
  } catch {
    // A failing error callback must not turn into an unhandled rejection of the loop.
  }
}

/** What a store offers the polling subscription loop. */
export interface PollingSource {
  readAfter(after: bigint | null, maxCount: number): Promise<StoredEvent[]>;
  /** Registers a callback fired when new events may exist; returns a function that unregisters it. */
  onWake(listener: () => void): () => void;
  /**
   * Without a commit signal, how often a caught-up subscription looks for new events. With one, how
   * often it reads at most in the long run (readBudget), so that a busy writer's commits are read a
   * batch at a time.
   */
  pollIntervalMs: number;
  /**
   * The commits of this process's writer thread (commit-signal.ts). A caught-up subscription then
   * sleeps until the next commit, looking every `idlePollMs` only for writes of other processes, and
   * reads `settleMs` after the commit, so that the commits of those milliseconds are read together
   * and a woken reader does not take a core while the request that committed is still at work.
   */
  commits?: { signal: CommitSignal; idlePollMs: number; settleMs: number };
}

const BATCH_SIZE = 500;
const READ_BURST = 4;

/**
 * Reads a subscription woken by commits may make: the time it sleeps earns them, one per `intervalMs`,
 * up to READ_BURST. A payment's few commits, after a quiet spell, are each read as they come (a SALE
 * commits its intent and its outcome milliseconds apart, and its callback waits for the second); a
 * busy writer's are read one interval after the subscription has handled the last read, as polling
 * did, however long handling took.
 */
class ReadBudget {
  private tokens = READ_BURST;

  constructor(private readonly intervalMs: number) {}

  asleep(ms: number): void {
    if (this.intervalMs <= 0) return;
    this.tokens = Math.min(READ_BURST, this.tokens + ms / this.intervalMs);
  }

  /** Takes a read; returns how long to sleep before making it. */
  take(): number {
    if (this.intervalMs <= 0) return 0;
    // Never more than one read in debt: reads a wake-up made without asking (this store's own
    // appends) must not add up to a long silence once they stop.
    this.tokens = Math.max(0, this.tokens) - 1;
    return this.tokens >= 0 ? 0 : -this.tokens * this.intervalMs;
  }
}

/** Consecutive read failures tolerated (with backoff) before the subscription gives up. */
const MAX_READ_FAILURES = 5;

/**
 * Catch-up subscription over a store that can be read by position: reads batches after the last
 * delivered position, hands events over one at a time, and when caught up sleeps until woken or
 * until the poll interval passes. Polling is what makes writes of other processes visible; the
 * wake-ups (this store's own appends, the writer thread's commit signal) make this process's writes
 * visible at once.
 */
export class PollingSubscription implements Subscription {
  private stopped = false;
  private wakePending = false;
  private wakeWaiter: (() => void) | undefined;
  private readonly readBudget: ReadBudget;
  private readonly finished: Promise<void>;

  constructor(
    private readonly source: PollingSource,
    private readonly options: SubscribeOptions,
    onFinished: (subscription: PollingSubscription) => void,
  ) {
    this.readBudget = new ReadBudget(source.pollIntervalMs);
    const unregister = source.onWake(() => this.wake());
    this.finished = this.run()
      .catch((error) => reportError(this.options, error))
      .finally(() => {
        unregister();
        onFinished(this);
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    if (isInsideHandlerOf(this)) return;
    await this.finished;
  }

  hurry(): void {
    this.wake();
  }

  private wake(): void {
    this.wakePending = true;
    const waiter = this.wakeWaiter;
    this.wakeWaiter = undefined;
    waiter?.();
  }

  private async run(): Promise<void> {
    let after = this.options.after;
    let failures = 0;
    while (!this.stopped) {
      // Cleared before reading: a wake-up that arrives during the read must cause another read.
      this.wakePending = false;
      // Taken before reading too: a commit made during the read ends the sleep after it.
      const commitsSeen = this.source.commits?.signal.count();
      let batch: StoredEvent[];
      try {
        batch = await this.source.readAfter(after, BATCH_SIZE);
        failures = 0;
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        if (failures >= MAX_READ_FAILURES) {
          this.stopped = true;
          reportError(this.options, error);
          return;
        }
        await this.sleep(this.source.pollIntervalMs * 2 ** failures);
        continue;
      }
      for (const event of batch) {
        if (this.stopped) return;
        try {
          await runHandler(this, () => this.options.onEvent(event));
        } catch (error) {
          this.stopped = true;
          reportError(this.options, error);
          return;
        }
        after = event.position;
      }
      if (batch.length < BATCH_SIZE && !this.wakePending) {
        if (commitsSeen === undefined) await this.sleep(this.source.pollIntervalMs);
        else await this.sleepUntilCommit(commitsSeen);
      } else {
        // An embedded store reads synchronously and a handler may never wait for I/O, so a catch-up
        // would otherwise run on promise callbacks alone and hold back every timer and message of
        // its thread (a request to stop among them) until it reached the head.
        await nextTurn();
      }
    }
  }

  private async sleepUntilCommit(commitsSeen: number): Promise<void> {
    const { signal, idlePollMs, settleMs } = this.source.commits!;
    // Under load the next commit came while this one was read: no waiting for the signal then.
    if (signal.count() === commitsSeen) await this.asleep(idlePollMs, signal.changedSince(commitsSeen, idlePollMs));
    // The wait comes after the commit, not before it: what else commits meanwhile is read with it.
    // One timer for both reasons to wait, as every wake-up of the thread costs.
    const wait = Math.max(settleMs, this.readBudget.take());
    if (wait > 0) await this.asleep(wait);
  }

  /** `sleep`, earning the read budget the time actually slept. */
  private async asleep(ms: number, until?: Promise<void>): Promise<void> {
    const since = performance.now();
    await this.sleep(ms, until);
    this.readBudget.asleep(performance.now() - since);
  }

  /** Sleeps until woken, stopped, `until` settles or the time has passed. */
  private sleep(ms: number, until?: Promise<void>): Promise<void> {
    if (this.stopped || this.wakePending) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.wakeWaiter === done) this.wakeWaiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeWaiter = done;
      void until?.then(done);
    });
  }
}
