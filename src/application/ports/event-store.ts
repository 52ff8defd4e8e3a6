/**
 * The event store port. Three adapters implement it (SQLite, PostgreSQL, EventStoreDB) and one
 * contract suite (test/event-store/contract.ts) holds them to the same semantics.
 */

/** Expected version of a stream at append time. */
export type ExpectedVersion =
  | { kind: 'no_stream' }
  | { kind: 'exact'; version: bigint }
  | { kind: 'any' };

export const NO_STREAM: ExpectedVersion = { kind: 'no_stream' };
export const ANY: ExpectedVersion = { kind: 'any' };
export const exactly = (version: bigint): ExpectedVersion => ({ kind: 'exact', version });

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  [key: string]: unknown;
}

/** An event as the application hands it to the store. */
export interface NewEvent {
  /** UUID; appending the same id again to the same stream is a no-op (idempotent append). */
  id: string;
  /** Past-tense PascalCase, e.g. `PaymentSettled`. */
  type: string;
  /** Schema version of `data`. */
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata?: EventMetadata;
}

/** An event as read back. Versions are 0-based per stream; positions are global and increasing. */
export interface StoredEvent extends NewEvent {
  streamId: string;
  version: bigint;
  position: bigint;
  /** ISO-8601 time the store recorded the event. */
  recordedAt: string;
  metadata: EventMetadata;
  /**
   * Hash chaining the event to the previous event of its stream, computed by the store when it
   * assigned the version (src/domain/audit/chain-hash.ts). It covers the event as stored: an
   * upcast event read through the upcasting store keeps the hash of its stored shape. Empty for an
   * event stored before the store kept chains and never backfilled (EventStoreDB history).
   */
  chainHash: string;
}

export interface AppendResult {
  /** Version of the last event of the stream after the append (after a version check: the checked version). */
  nextExpectedVersion: bigint;
  /** Global position of the last appended event; -1 for a version check, which appends nothing. */
  position: bigint;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: bigint | null,
  ) {
    super(
      `Wrong expected version for stream ${streamId}: expected ${describe(expected)}, actual ${
        actual === null ? 'no stream' : actual.toString()
      }`,
    );
    this.name = 'WrongExpectedVersionError';
  }
}

function describe(e: ExpectedVersion): string {
  return e.kind === 'exact' ? e.version.toString() : e.kind;
}

export interface ReadStreamOptions {
  /**
   * Exclusive: only events whose version is greater than this. `null` or omitted reads the whole
   * stream. A caller holding a stream's state at a known version reads only what came after it.
   */
  after?: bigint | null;
  /** At most this many events, the first ones past `after`; omitted, all of them. */
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. `null` or omitted reads from the start. */
  after?: bigint | null;
  maxCount?: number;
}

export interface Subscription {
  /** Stops the subscription; resolves when no handler call is running any more. */
  stop(): Promise<void>;
  /**
   * Someone waits for what is already in the store (a merchant reading its own write): look for
   * it now rather than after a settling time or at the next poll. Subscriptions that are handed
   * every event as it is stored have nothing to hurry and leave it out.
   */
  hurry?(): void;
}

export interface SubscribeOptions {
  /** Exclusive: the first delivered event is the one right after this position. */
  after: bigint | null;
  /** Called once per event, in global order, one at a time (a returned promise is awaited). */
  onEvent(event: StoredEvent): Promise<void> | void;
  /** Called when the subscription fails for good. */
  onError?(error: unknown): void;
}

export interface StreamWrite {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedVersion;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  /**
   * Appends to several streams, in order, with one result per write. SQLite and PostgreSQL do it
   * atomically: every write or none (a WrongExpectedVersionError names the stream that refused).
   * EventStoreDB has no multi-stream transaction: there the writes happen one after another and
   * stop at the first refusal, so callers order them so that a partial write is harmless.
   *
   * A write with no events and an `exact` expected version is a version check: the call commits
   * only if that stream still stands at that version, and nothing is written to it. Its result is
   * `{ nextExpectedVersion: <that version>, position: -1n }`; a mismatch (or a missing stream)
   * throws a WrongExpectedVersionError naming the checked stream, and nothing of the call is
   * written (on EventStoreDB the check reads the stream's last revision before the writes that
   * follow it, so a check placed first guards all of them). It lets a caller confirm that what it
   * cached from a stream is still current in the same round trip as its writes. A write with no
   * events and any other expected version is refused, as is an `append` with no events.
   */
  appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]>;
  /**
   * The events of one stream in version order (with `after`, only those past that version); empty
   * when the stream does not exist or has nothing past it.
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /** Events of all streams in global order. */
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;
  /**
   * Version of the stream's last event, or null when the stream does not exist: a cheap way to
   * tell whether something cached from a stream is still current.
   */
  streamVersion(streamId: string): Promise<bigint | null>;
  /** Global position of the newest event, or null when the store is empty. */
  headPosition(): Promise<bigint | null>;
  /** Catch-up subscription to all streams: replays history after `after`, then follows live. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}
