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

export class UpcastingEventStore implements EventStore, BulkReader {
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
