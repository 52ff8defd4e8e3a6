/**
 * An in-memory EventStore for tests of code that sits on top of the port (projections, services),
 * so they neither need a database nor depend on the adapters' own schedule. It follows the port's
 * semantics: expected versions, idempotent re-append of the same ids, global positions, and a
 * catch-up subscription that replays history in pages and then follows live appends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type StoredEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
  type StreamWrite,
} from '../../src/application/ports/event-store';
import { eventChainHash } from '../../src/domain/audit/chain-hash';

export interface MemoryEventStoreOptions {
  /**
   * Position of the first event. Default 0n, so code treating position 0 as "nothing yet" is
   * caught; a value past 2^53 checks that positions are never squeezed through a number.
   */
  firstPosition?: bigint;
  /** Events a subscription replays before yielding to the event loop, like a page read. Default 256. */
  pageSize?: number;
}

interface AppendRecord {
  ids: string[];
  result: AppendResult;
}

const clone = <T>(value: T): T => structuredClone(value);

/** Which subscription's handler the current code runs in: stop() from there must not wait for itself. */
const insideHandler = new AsyncLocalStorage<object>();

export class MemoryEventStore implements EventStore {
  private readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly appendsByEventId = new Map<string, { streamId: string; record: AppendRecord }>();
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions = new Set<Subscription>();
  private nextPosition: bigint;
  private readonly pageSize: number;
  private closed = false;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.nextPosition = options.firstPosition ?? 0n;
    this.pageSize = options.pageSize ?? 256;
  }

  /** Number of events stored. */
  get size(): number {
    return this.all.length;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    this.assertOpen();
    if (events.length === 0) throw new Error('An append needs at least one event');
    const ids = events.map((e) => e.id);
    if (new Set(ids).size !== ids.length) throw new Error(`Event id repeated inside one append to ${streamId}`);

    const previous = this.appendsByEventId.get(ids[0]);
    if (previous) {
      const same =
        previous.streamId === streamId &&
        previous.record.ids.length === ids.length &&
        previous.record.ids.every((id, i) => id === ids[i]);
      // A retry of an append that already happened: its first answer, whatever is expected now.
      if (same) return { ...previous.record.result };
      throw new Error(`Event id ${ids[0]} is already stored`);
    }
    for (const id of ids) if (this.appendsByEventId.has(id)) throw new Error(`Event id ${id} is already stored`);

    const stream = this.streams.get(streamId) ?? [];
    const actual = stream.length === 0 ? null : BigInt(stream.length - 1);
    const ok =
      expected.kind === 'any' ||
      (expected.kind === 'no_stream' && actual === null) ||
      (expected.kind === 'exact' && actual !== null && actual === expected.version);
    if (!ok) throw new WrongExpectedVersionError(streamId, expected, actual);

    const recordedAt = new Date().toISOString();
    for (const event of events) {
      const version = BigInt(stream.length);
      const data = clone(event.data);
      const metadata = clone(event.metadata ?? {});
      const prevHash = stream.length === 0 ? null : stream[stream.length - 1].chainHash;
      const stored: StoredEvent = {
        id: event.id,
        type: event.type,
        schemaVersion: event.schemaVersion,
        data,
        metadata,
        streamId,
        version,
        position: this.nextPosition++,
        recordedAt,
        chainHash: eventChainHash({ prevHash, streamId, version, type: event.type, schemaVersion: event.schemaVersion, data, metadata }),
      };
      stream.push(stored);
      this.all.push(stored);
    }
    this.streams.set(streamId, stream);
    const last = stream[stream.length - 1];
    const record: AppendRecord = { ids, result: { nextExpectedVersion: last.version, position: last.position } };
    for (const id of ids) this.appendsByEventId.set(id, { streamId, record });
    for (const listener of [...this.listeners]) listener();
    return { ...record.result };
  }

  async appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    // All or nothing: every expected version is checked (earlier writes of this call counted)
    // before anything is stored.
    const lengths = new Map<string, number>();
    for (const write of writes) {
      // No events and an exact version: a version check, which writes nothing. With any other
      // expected version there is nothing to check, and an empty write is refused like an append.
      if (write.events.length === 0 && write.expected.kind !== 'exact') throw new Error('An append needs at least one event');
      const length = lengths.get(write.streamId) ?? (this.streams.get(write.streamId) ?? []).length;
      const actual = length === 0 ? null : BigInt(length - 1);
      const e = write.expected;
      const ok = e.kind === 'any' || (e.kind === 'no_stream' && actual === null) || (e.kind === 'exact' && actual === e.version);
      if (!ok) throw new WrongExpectedVersionError(write.streamId, e, actual);
      lengths.set(write.streamId, length + write.events.length);
    }
    const results: AppendResult[] = [];
    for (const write of writes) {
      const e = write.expected;
      if (write.events.length === 0 && e.kind === 'exact') results.push({ nextExpectedVersion: e.version, position: -1n });
      else results.push(await this.append(write.streamId, write.events, write.expected));
    }
    return results;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    const after = options.after ?? null;
    const past = (this.streams.get(streamId) ?? []).filter((e) => after === null || e.version > after);
    return (options.maxCount === undefined ? past : past.slice(0, options.maxCount)).map(clone);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    const start = this.indexAfter(options.after ?? null);
    const end = options.maxCount === undefined ? this.all.length : start + options.maxCount;
    return this.all.slice(start, end).map(clone);
  }

  async streamVersion(streamId: string): Promise<bigint | null> {
    this.assertOpen();
    const stream = this.streams.get(streamId);
    return stream && stream.length > 0 ? stream[stream.length - 1].version : null;
  }

  async headPosition(): Promise<bigint | null> {
    this.assertOpen();
    return this.all.length === 0 ? null : this.all[this.all.length - 1].position;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    let stopped = false;
    const self = {};
    let wake: (() => void) | null = null;
    const listener = (): void => {
      wake?.();
    };
    this.listeners.add(listener);

    const run = async (): Promise<void> => {
      // Never deliver before subscribeToAll has returned: handlers may use the subscription.
      await new Promise<void>((resolve) => setImmediate(resolve));
      let index = this.indexAfter(options.after);
      while (!stopped) {
        if (index >= this.all.length) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            if (stopped || index < this.all.length) resolve();
          });
          wake = null;
          continue;
        }
        const page = this.all.slice(index, index + this.pageSize);
        for (const event of page) {
          if (stopped) return;
          await insideHandler.run(self, () => options.onEvent(clone(event)));
          index++;
        }
        // A real store reads the next page with I/O: let timers and other callbacks run.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    };
    const done = run().catch((error: unknown) => {
      if (!stopped) options.onError?.(error);
    });

    const subscription: Subscription = {
      stop: async () => {
        stopped = true;
        this.listeners.delete(listener);
        this.subscriptions.delete(subscription);
        wake?.();
        if (insideHandler.getStore() !== self) await done;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }

  /** Index in `all` of the first event strictly after `position`. */
  private indexAfter(position: bigint | null): number {
    if (position === null) return 0;
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.all[mid].position <= position) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store is closed');
  }
}
