import {
  ANY as DB_ANY,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  NO_STREAM as DB_NO_STREAM,
  type Position,
  type ResolvedEvent,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError as DbWrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  exactly,
  type ExpectedVersion,
  NO_STREAM,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type StoredEvent,
  type StreamWrite,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from '../../application/ports/event-store';
import { eventChainHash } from '../../domain/audit/chain-hash';
import {
  checkExpectedVersion,
  checkResult,
  type ExistingEventRow,
  isInsideHandlerOf,
  isVersionCheck,
  reportError,
  resolveRetry,
  runHandler,
  validateAppend,
  validateWrite,
} from './shared';

export interface EventStoreDbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false`. */
  connectionString: string;
}

/**
 * Metadata keys this adapter uses to carry what the port has and the database has not. They are
 * stripped on read, so application metadata must not use them.
 */
const SCHEMA_VERSION_KEY = 'schemaVersion';
const RECORDED_AT_KEY = 'recordedAt';
/** The database has no columns of ours, so the chain hash travels in the metadata too. */
const CHAIN_HASH_KEY = 'chainHash';

/** How often an append re-checks when another writer moves the stream in between. */
const APPEND_ATTEMPTS = 5;

type RecordedEvent = NonNullable<AllStreamResolvedEvent['event']> | NonNullable<ResolvedEvent['event']>;

/**
 * The database's own global order ($all) gives positions: an event's commit position. For events
 * written by ordinary appends, commit and prepare positions are equal, so a bare bigint is enough
 * to resume from.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();
  private closed = false;

  constructor(options: EventStoreDbEventStoreOptions) {
    this.client = EventStoreDBClient.connectionString(options.connectionString);
  }

  /**
   * The database checks event ids only for a retry carrying the same expected version, and only
   * best-effort under `any`; the port promises more (any retry succeeds, partial or reordered
   * overlaps fail). So the stream is read first, checked here, and written at exactly the
   * revision that was read. That costs a read per append; payment streams are short. If another
   * writer gets in between, the check runs again on fresh data.
   *
   * The same read gives the previous event's chain hash, and writing at exactly the revision read
   * is what makes chaining to it safe: had another writer appended in between, this write is
   * refused and chained again from the fresh read.
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    this.assertOpen();
    validateAppend(streamId, events);
    for (let attempt = 1; ; attempt += 1) {
      const { events: stored, lastRevision: current } = await this.readRecords(streamId);
      const retry = resolveRetry(streamId, events, existingRows(stored, events));
      if (retry) return retry;
      checkExpectedVersion(streamId, expected, current);
      try {
        const prevHash = stored.length > 0 ? stored[stored.length - 1]!.chainHash || null : null;
        return await this.write(streamId, events, current, prevHash);
      } catch (error) {
        if (!(error instanceof DbWrongExpectedVersionError)) throw error;
        if (attempt >= APPEND_ATTEMPTS) {
          throw new WrongExpectedVersionError(streamId, expected, currentRevision(error));
        }
      }
    }
  }

  /**
   * No multi-stream transactions here: one write after another, stopping at the first refusal. A
   * version check reads the stream's last revision at its turn, as an append checks its expected
   * version: it guards the writes after it, not against a writer that gets in once it has passed.
   */
  async appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    // Every write is judged before the first one is made: a malformed one must not leave the
    // writes before it stored.
    for (const write of writes) validateWrite(write);
    const results: AppendResult[] = [];
    for (const write of writes) {
      if (isVersionCheck(write)) {
        checkExpectedVersion(write.streamId, write.expected, await this.streamVersion(write.streamId));
        results.push(checkResult(write.expected.version));
      } else {
        results.push(await this.append(write.streamId, write.events, write.expected));
      }
    }
    return results;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const after = options.after ?? null;
    // Revisions are versions here; reading from past the stream's end gives nothing. Versions start
    // at 0: anything below it asks for the whole stream (the client refuses a negative revision).
    return (await this.readRecords(streamId, after === null || after < 0n ? undefined : after + 1n, options.maxCount)).events;
  }

  /**
   * The stream's events (from revision `from` on, or all of them) plus the revision of its last
   * record, which is what appends must expect: a record this adapter does not hand out (a system
   * event type) still counts. With `maxCount`, reading stops at that many events handed out.
   */
  private async readRecords(
    streamId: string,
    from?: bigint,
    maxCount = Number.POSITIVE_INFINITY,
  ): Promise<{ events: StoredEvent[]; lastRevision: bigint | null }> {
    const events: StoredEvent[] = [];
    let lastRevision: bigint | null = null;
    try {
      for await (const resolved of this.client.readStream(streamId, from === undefined ? {} : { fromRevision: from })) {
        if (resolved.event) lastRevision = resolved.event.revision;
        const event = toStoredEvent(resolved);
        if (event) events.push(event);
        if (events.length >= maxCount) break;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { events: [], lastRevision: null };
      throw error;
    }
    return { events, lastRevision };
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    const after = options.after ?? null;
    const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: StoredEvent[] = [];
    if (maxCount <= 0) return events;
    // Reading $all from a position includes the event at that position; ours is exclusive.
    // Reads cannot filter server-side in this client, so system events are dropped here.
    const read = this.client.readAll({ fromPosition: after === null ? START : toPosition(after) });
    try {
      for await (const resolved of read) {
        const event = toStoredEvent(resolved);
        if (!event || (after !== null && event.position <= after)) continue;
        events.push(event);
        if (events.length >= maxCount) break;
      }
    } finally {
      await read.cancel().catch(() => undefined);
    }
    return events;
  }

  async streamVersion(streamId: string): Promise<bigint | null> {
    this.assertOpen();
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        if (resolved.event) return resolved.event.revision;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    return null;
  }

  async headPosition(): Promise<bigint | null> {
    this.assertOpen();
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END });
    try {
      for await (const resolved of read) {
        const event = toStoredEvent(resolved);
        if (event) return event.position;
      }
    } finally {
      await read.cancel().catch(() => undefined);
    }
    return null;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = new EventStoreDbSubscription(this.client, options, (finished) =>
      this.subscriptions.delete(finished),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }

  /** Writes at exactly `current` (the revision just read), chaining from `prevHash`. */
  private async write(
    streamId: string,
    events: NewEvent[],
    current: bigint | null,
    prevHash: string | null,
  ): Promise<AppendResult> {
    const expected = current === null ? NO_STREAM : exactly(current);
    const recordedAt = new Date().toISOString();
    let version = current ?? -1n;
    let previous = prevHash;
    const records = events.map((event) => {
      version += 1n;
      const metadata = event.metadata ?? {};
      previous = eventChainHash({
        prevHash: previous,
        streamId,
        version,
        type: event.type,
        schemaVersion: event.schemaVersion,
        data: event.data,
        metadata,
      });
      return jsonEvent({
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: {
          ...metadata,
          [SCHEMA_VERSION_KEY]: event.schemaVersion,
          [RECORDED_AT_KEY]: recordedAt,
          [CHAIN_HASH_KEY]: previous,
        },
      });
    });
    const result = await this.client.appendToStream(streamId, records, { expectedRevision: toExpectedRevision(expected) });
    const position = result.position?.commit ?? (await this.positionOf(streamId, result.nextExpectedRevision));
    return { nextExpectedVersion: result.nextExpectedRevision, position };
  }

  /** The database does not report a position for some writes (e.g. one it found idempotent). */
  private async positionOf(streamId: string, revision: bigint): Promise<bigint> {
    for await (const resolved of this.client.readStream(streamId, { fromRevision: revision, maxCount: 1 })) {
      const event = toStoredEvent(resolved);
      if (event) return event.position;
    }
    throw new Error(`event ${revision} of stream ${streamId} not found right after appending it`);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

class EventStoreDbSubscription implements Subscription {
  private stopped = false;
  private readonly stream: ReturnType<EventStoreDBClient['subscribeToAll']>;
  private readonly finished: Promise<void>;

  constructor(
    client: EventStoreDBClient,
    private readonly options: SubscribeOptions,
    onFinished: (subscription: EventStoreDbSubscription) => void,
  ) {
    // Subscribing from a position, unlike reading from one, starts right after it: exactly the
    // port's exclusive `after`.
    this.stream = client.subscribeToAll({
      fromPosition: options.after === null ? START : toPosition(options.after),
      filter: excludeSystemEvents(),
    });
    this.finished = this.run().finally(() => onFinished(this));
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      await this.stream.unsubscribe().catch(() => undefined);
    }
    if (isInsideHandlerOf(this)) return;
    await this.finished;
  }

  private async run(): Promise<void> {
    let last = this.options.after;
    try {
      for await (const resolved of this.stream) {
        if (this.stopped) return;
        const event = toStoredEvent(resolved);
        // The filter is applied by the server; the position check guards against a redelivery.
        if (!event || (last !== null && event.position <= last)) continue;
        try {
          await runHandler(this, () => this.options.onEvent(event));
        } catch (error) {
          await this.fail(error);
          return;
        }
        last = event.position;
      }
      if (!this.stopped) await this.fail(new Error('subscription to $all ended unexpectedly'));
    } catch (error) {
      if (!this.stopped) await this.fail(error);
    }
  }

  private async fail(error: unknown): Promise<void> {
    this.stopped = true;
    await this.stream.unsubscribe().catch(() => undefined);
    reportError(this.options, error);
  }
}

function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  switch (expected.kind) {
    case 'no_stream':
      return DB_NO_STREAM;
    case 'any':
      return DB_ANY;
    case 'exact':
      return expected.version;
  }
}

function currentRevision(error: DbWrongExpectedVersionError): bigint | null {
  return typeof error.actualVersion === 'bigint' ? error.actualVersion : null;
}

function toPosition(position: bigint): Position {
  return { commit: position, prepare: position };
}

function existingRows(stored: StoredEvent[], events: NewEvent[]): ExistingEventRow[] {
  const ids = new Set(events.map((event) => event.id));
  return stored
    .filter((event) => ids.has(event.id))
    .map((event) => ({ eventId: event.id, streamId: event.streamId, version: event.version, position: event.position }));
}

function isSystem(event: RecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/** Maps a database event to ours; `undefined` for system events and unresolved links. */
function toStoredEvent(resolved: AllStreamResolvedEvent | ResolvedEvent): StoredEvent | undefined {
  const event = resolved.event as RecordedEvent | undefined;
  if (!event || isSystem(event)) return undefined;
  const {
    [SCHEMA_VERSION_KEY]: schemaVersion,
    [RECORDED_AT_KEY]: recordedAt,
    [CHAIN_HASH_KEY]: chainHash,
    ...metadata
  } = (decode(event.metadata) ?? {}) as EventMetadata;
  return {
    id: event.id,
    streamId: event.streamId,
    version: event.revision,
    // Stream reads carry the $all position only on servers from 22.6 on; older ones give -1.
    position: event.position?.commit ?? resolved.commitPosition ?? -1n,
    type: event.type,
    schemaVersion: typeof schemaVersion === 'number' ? schemaVersion : 1,
    data: (decode(event.data) ?? {}) as Record<string, unknown>,
    metadata,
    recordedAt: typeof recordedAt === 'string' ? recordedAt : event.created.toISOString(),
    // Events appended before chains existed cannot be given one: this database never rewrites.
    chainHash: typeof chainHash === 'string' ? chainHash : '',
  };
}

/** Events written by other tools may be stored as bytes; ours are JSON either way. */
function decode(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    if (value.length === 0) return undefined;
    return JSON.parse(Buffer.from(value).toString('utf8'));
  }
  return value;
}
