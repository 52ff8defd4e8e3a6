/**
 * Tells every thread of the process that the SQLite writer thread has committed new events, so a
 * subscription on another thread reads them at once instead of finding them at its next poll, and
 * an idle subscription does not read an empty store every few milliseconds.
 *
 * It is a counter in shared memory: the writer bumps it after each commit that stored events and
 * wakes whoever waits on it (`Atomics.notify`); a reader remembers the count it saw before reading
 * and waits for it to change (`Atomics.waitAsync`), so a commit made while it read is never missed.
 * Nothing is sent to a thread that is not waiting, so a busy reader pays nothing for commits.
 * The projector's thread bumps one of its own after each batch it applies, for the status
 * lookups of the HTTP thread that wait for their own writes (workers/projector-thread.ts).
 */
export class CommitSignal {
  private readonly counter: Int32Array;

  private constructor(readonly buffer: SharedArrayBuffer) {
    this.counter = new Int32Array(buffer);
  }

  static create(): CommitSignal {
    return new CommitSignal(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  }

  /** The same signal on another thread, from the `buffer` it was handed. */
  static of(buffer: SharedArrayBuffer): CommitSignal {
    return new CommitSignal(buffer);
  }

  /** Called by the writer after a commit that stored events. */
  committed(): void {
    Atomics.add(this.counter, 0, 1);
    Atomics.notify(this.counter, 0);
  }

  /** The number of commits so far (it wraps, which only matters as "changed"). */
  count(): number {
    return Atomics.load(this.counter, 0);
  }

  /**
   * Resolves once the count differs from `seen` (at once when it already does), or after
   * `timeoutMs`. The waiter cannot be withdrawn; the timeout bounds how long it stays registered.
   */
  changedSince(seen: number, timeoutMs: number): Promise<void> {
    const waited = waitAsync(this.counter, 0, seen, timeoutMs);
    return waited.async ? waited.value.then(() => undefined) : Promise.resolve();
  }
}

type WaitAsyncResult = { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };

// Node 20 has Atomics.waitAsync; the ES2022 library this project compiles against does not name it.
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number, timeoutMs: number): WaitAsyncResult }).waitAsync;
