/**
 * The event store, timed: every append's latency and size, and what the appended events say
 * happened (GatewayMetrics.appended). A decorator around whichever adapter is configured, so
 * none of them carries metrics code; reads and subscriptions pass straight through.
 */
import type { BulkReader } from '../../application/ports/bulk-reader';
import type { ChainHashEntry, ChainHashReader } from '../../application/ports/chain-hash-reader';
import type { TypeFilteredPage, TypeFilteredReader } from '../../application/ports/type-filtered-reader';
import {
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type StoredEvent,
  type StreamWrite,
  type SubscribeOptions,
  type Subscription,
} from '../../application/ports/event-store';
import type { GatewayMetrics } from './gateway-metrics';

const secondsSince = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;

export class MeasuredEventStore implements EventStore {
  /** The adapter's bulk read path, kept when it has one (rebuilds read through it). */
  readonly readAllPage?: (options?: ReadAllOptions) => Promise<StoredEvent[]>;
  /** The adapter's chain-hash read, kept when it has one (the checkpoint recorder reads through it). */
  readonly readChainHashes?: (options?: ReadAllOptions) => Promise<ChainHashEntry[]>;
  /** The adapter's type-filtered read, kept when it has one (the payout balance feeder reads through it). */
  readonly readAllOfTypes?: (types: readonly string[], options?: ReadAllOptions) => Promise<TypeFilteredPage>;

  constructor(
    readonly inner: EventStore,
    private readonly metrics: Pick<GatewayMetrics, 'appendFinished' | 'appended'>,
  ) {
    const reads = inner as EventStore & Partial<BulkReader & ChainHashReader & TypeFilteredReader>;
    if (typeof reads.readAllPage === 'function') this.readAllPage = (options) => reads.readAllPage!(options);
    if (typeof reads.readChainHashes === 'function') this.readChainHashes = (options) => reads.readChainHashes!(options);
    if (typeof reads.readAllOfTypes === 'function') this.readAllOfTypes = (types, options) => reads.readAllOfTypes!(types, options);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const started = process.hrtime.bigint();
    let result: AppendResult;
    try {
      result = await this.inner.append(streamId, events, expected);
    } catch (error) {
      this.metrics.appendFinished('append', error instanceof WrongExpectedVersionError ? 'conflict' : 'error', secondsSince(started), events.length);
      throw error;
    }
    this.metrics.appendFinished('append', 'ok', secondsSince(started), events.length);
    this.metrics.appended(events);
    return result;
  }

  async appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    const started = process.hrtime.bigint();
    let count = 0;
    for (const write of writes) count += write.events.length;
    let results: AppendResult[];
    try {
      results = await this.inner.appendMultiple(writes);
    } catch (error) {
      this.metrics.appendFinished('appendMultiple', error instanceof WrongExpectedVersionError ? 'conflict' : 'error', secondsSince(started), count);
      throw error;
    }
    this.metrics.appendFinished('appendMultiple', 'ok', secondsSince(started), count);
    for (const write of writes) this.metrics.appended(write.events);
    return results;
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  readAll(options?: ReadAllOptions): Promise<StoredEvent[]> {
    return this.inner.readAll(options);
  }

  streamVersion(streamId: string): Promise<bigint | null> {
    return this.inner.streamVersion(streamId);
  }

  headPosition(): Promise<bigint | null> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.inner.subscribeToAll(options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
