/**
 * The event store as the application sees it: every event read comes back in its type's current
 * shape, so deciders and projections only ever know one version of each event. Appends pass
 * through untouched, and nothing stored is rewritten: chain hashes cover the stored shape, which
 * is why the audit verifier reads the store underneath, not this one.
 */
import { eventUpcasters } from '../domain/upcasting/event-upcasters';
import type { UpcasterRegistry } from '../domain/upcasting/registry';
import type {
  AppendResult,
  EventStore,
  ExpectedVersion,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
  StreamWrite,
  SubscribeOptions,
  Subscription,
} from './ports/event-store';
import type { BulkReader } from './ports/bulk-reader';
import { type ChainHashEntry, type ChainHashReader, chainHashReaderOf } from './ports/chain-hash-reader';
import { type TypeFilteredPage, type TypeFilteredReader, typeFilteredReaderOf } from './ports/type-filtered-reader';

export class UpcastingEventStore implements EventStore, BulkReader, ChainHashReader, TypeFilteredReader {
  constructor(
    /** The store as written; what the audit verifier and the checkpoint recorder read. */
    readonly raw: EventStore,
    private readonly registry: UpcasterRegistry = eventUpcasters,
  ) {}

  append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    return this.raw.append(streamId, events, expected);
  }

  appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    return this.raw.appendMultiple(writes);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return (await this.raw.readStream(streamId, options)).map(this.upcast);
  }

  async readAll(options?: ReadAllOptions): Promise<StoredEvent[]> {
    return (await this.raw.readAll(options)).map(this.upcast);
  }

  /**
   * Bulk read path for replays: the adapter's `readAllPage` when it has one (same events as
   * `readAll`, read faster), otherwise `readAll`; upcast like every other read.
   */
  async readAllPage(options?: ReadAllOptions): Promise<StoredEvent[]> {
    const raw = this.raw as EventStore & Partial<BulkReader>;
    return (raw.readAllPage ? await raw.readAllPage(options) : await raw.readAll(options)).map(this.upcast);
  }

  /**
   * The events of some types only: the adapter's type-filtered read when it has one, otherwise
   * `readAll` filtered; upcast like every other read. Upcasting never changes an event's type, so
   * filtering the stored events is filtering the upcast ones.
   */
  async readAllOfTypes(types: readonly string[], options?: ReadAllOptions): Promise<TypeFilteredPage> {
    const page = await typeFilteredReaderOf(this.raw).readAllOfTypes(types, options);
    return { ...page, events: page.events.map(this.upcast) };
  }

  /** Positions and chain hashes are the stored events' whatever their shape: passed through. */
  readChainHashes(options?: ReadAllOptions): Promise<ChainHashEntry[]> {
    return chainHashReaderOf(this.raw).readChainHashes(options);
  }

  streamVersion(streamId: string): Promise<bigint | null> {
    return this.raw.streamVersion(streamId);
  }

  headPosition(): Promise<bigint | null> {
    return this.raw.headPosition();
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.raw.subscribeToAll({ ...options, onEvent: (event) => options.onEvent(this.upcast(event)) });
  }

  close(): Promise<void> {
    return this.raw.close();
  }

  private readonly upcast = (event: StoredEvent): StoredEvent => this.registry.upcast(event);
}

/** The store a gateway process works with: the adapter, read through the upcasters. */
export const withUpcasting = (store: EventStore): UpcastingEventStore => new UpcastingEventStore(store);
