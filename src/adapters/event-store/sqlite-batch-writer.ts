/**
 * The write side of the SQLite event store: a batch of appends in one IMMEDIATE transaction (one
 * fsync), each append in its own savepoint with its own expected-version check. It runs on the
 * calling thread or on a writer thread (sqlite-writer-thread.ts); outcomes are plain data so they
 * can cross a thread boundary.
 *
 * Each event's chain hash is computed here, from the previous hash of its stream read in the same
 * savepoint that assigns the version: two appends to one stream can never chain to the same
 * predecessor, because the second one reads what the first one wrote (or is refused).
 */
import type Database from 'better-sqlite3';
import {
  type AppendResult,
  type ExpectedVersion,
  type NewEvent,
  WrongExpectedVersionError,
} from '../../application/ports/event-store';
import { canonicalJson } from '../../domain/audit/canonical-json';
import { eventChainHash, eventChainHashOfText } from '../../domain/audit/chain-hash';
import { checkExpectedVersion, checkResult, EventIdConflictError, type ExistingEventRow, isVersionCheck, resolveRetry } from './shared';

export const EVENTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    chain_hash TEXT NOT NULL,
    UNIQUE (stream_id, version),
    UNIQUE (event_id)
  )`;

export interface AppendRequest {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedVersion;
}

/** One caller's appends: a single append, or several streams that commit together or not at all. */
export interface BatchItem {
  writes: AppendRequest[];
}

export type SerializedError =
  | { kind: 'wrong_version'; streamId: string; expected: ExpectedVersion; actual: bigint | null }
  | { kind: 'event_id_conflict'; message: string }
  | { kind: 'other'; name: string; message: string };

export type WireOutcome = { ok: true; results: AppendResult[] } | { ok: false; error: SerializedError };

/** A batch either runs (each append with its own outcome) or fails whole (BEGIN/COMMIT failed). */
export type BatchResult = { ok: true; outcomes: WireOutcome[] } | { ok: false; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof WrongExpectedVersionError) {
    return { kind: 'wrong_version', streamId: error.streamId, expected: error.expected, actual: error.actual };
  }
  if (error instanceof EventIdConflictError) return { kind: 'event_id_conflict', message: error.message };
  if (error instanceof Error) return { kind: 'other', name: error.name, message: error.message };
  return { kind: 'other', name: 'Error', message: String(error) };
}

export function deserializeError(error: SerializedError): Error {
  switch (error.kind) {
    case 'wrong_version':
      return new WrongExpectedVersionError(error.streamId, error.expected, error.actual);
    case 'event_id_conflict':
      return new EventIdConflictError(error.message);
    default:
      return Object.assign(new Error(error.message), { name: error.name });
  }
}

/** Applies the pragmas that make an acknowledged append durable, and creates the table. */
export function prepareEventsDatabase(db: Database.Database): void {
  // WAL lets readers (subscriptions, other processes) run while a batch is being written.
  db.pragma('journal_mode = WAL');
  // FULL: once an append is acknowledged it survives a power loss, not only a process crash.
  db.pragma('synchronous = FULL');
  // Other processes (a CLI next to the server) write the same file; wait for them, do not fail.
  db.pragma('busy_timeout = 5000');
  // Positions and versions are bigints in the port; reading them as such avoids silent rounding.
  db.defaultSafeIntegers(true);
  db.exec(EVENTS_SCHEMA);
  addChainHashes(db);
}

/** How long a connection waits for another one that is backfilling chain hashes. */
const BACKFILL_WAIT_MS = 10 * 60_000;
const BACKFILL_PAGE = 1000;

/**
 * Migrates a store created before events carried chain hashes: adds the column and chains the
 * existing events, stream by stream in version order, once. The chain then vouches for history from
 * the moment of the upgrade on, not for what happened to it before. Other connections opening the
 * file meanwhile (the writer thread, a CLI) wait for the migration and then find the column.
 */
function addChainHashes(db: Database.Database): void {
  const hasColumn = db.prepare("SELECT 1 FROM pragma_table_info('events') WHERE name = 'chain_hash'").pluck();
  if (hasColumn.get()) return;
  const busyTimeout = Number(db.pragma('busy_timeout', { simple: true }));
  db.pragma(`busy_timeout = ${BACKFILL_WAIT_MS}`);
  try {
    db.transaction(() => {
      if (hasColumn.get()) return; // another connection migrated while this one waited
      db.exec('ALTER TABLE events ADD COLUMN chain_hash TEXT');
      const update = db.prepare('UPDATE events SET chain_hash = ? WHERE position = ?');
      // Pages in (stream, version) order along the unique index: memory stays flat however large
      // the store, and better-sqlite3 cannot write while a statement is still iterating.
      const page = db.prepare(
        `SELECT position, stream_id, version, type, schema_version, data, metadata FROM events
         WHERE (stream_id, version) > (?, ?) ORDER BY stream_id, version LIMIT ${BACKFILL_PAGE}`,
      );
      let after: { stream: string; version: bigint } = { stream: '', version: -1n };
      let prevHash: string | null = null;
      for (;;) {
        const rows = page.all(after.stream, after.version) as Array<{
          position: bigint;
          stream_id: string;
          version: bigint;
          type: string;
          schema_version: bigint;
          data: string;
          metadata: string;
        }>;
        if (rows.length === 0) break;
        for (const row of rows) {
          if (row.stream_id !== after.stream) prevHash = null;
          prevHash = eventChainHash({
            prevHash,
            streamId: row.stream_id,
            version: row.version,
            type: row.type,
            schemaVersion: Number(row.schema_version),
            data: JSON.parse(row.data),
            metadata: JSON.parse(row.metadata),
          });
          update.run(prevHash, row.position);
          after = { stream: row.stream_id, version: row.version };
        }
      }
    }).immediate();
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

/** An append that may be a retry or a conflict: its item is run again with every check. */
class NotTheUsualAppend extends Error {}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The newest event of a stream: what an append checks its expected version against and chains to. */
interface StreamHead {
  version: bigint;
  hash: string | null;
}

/** The statements and steps of one connection's appends (createBatchWriter). */
class SqliteAppender {
  private readonly insert: Database.Statement;
  // One indexed lookup gives both the version to check and the hash to chain to.
  private readonly streamHead: Database.Statement;
  private readonly findEventId: Database.Statement;

  constructor(db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata, recorded_at, chain_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.streamHead = db.prepare('SELECT version, chain_hash FROM events WHERE stream_id = ? ORDER BY version DESC LIMIT 1');
    this.findEventId = db.prepare('SELECT event_id, stream_id, version, position FROM events WHERE event_id = ?');
  }

  /**
   * The usual append: new event ids at the expected version. It skips the lookups that only a
   * retry or a conflict needs (each event id, and the head of a stream expected not to exist): the
   * table's unique keys refuse such an append anyway, and then the item is run again carefully.
   */
  appendFast(pending: AppendRequest, heads: Map<string, StreamHead | null>): AppendResult {
    // A refused check is refused the same way carefully: no need to run the item again.
    if (isVersionCheck(pending)) return this.checkVersion(pending, heads);
    const { streamId, expected } = pending;
    // A stream expected not to exist starts at version 0, which its existing events would hold.
    const head = expected.kind === 'no_stream' && !heads.has(streamId) ? null : this.headOf(streamId, heads);
    try {
      checkExpectedVersion(streamId, expected, head?.version ?? null);
    } catch {
      throw new NotTheUsualAppend();
    }
    try {
      return this.insertEvents(pending, head, heads);
    } catch (error) {
      if (isUniqueViolation(error)) throw new NotTheUsualAppend();
      throw error;
    }
  }

  /** Every check, in order: a retry of a stored append answers as the first attempt did. */
  appendCareful(pending: AppendRequest, heads: Map<string, StreamHead | null>): AppendResult {
    if (isVersionCheck(pending)) return this.checkVersion(pending, heads);
    const { streamId, events, expected } = pending;
    const retry = resolveRetry(streamId, events, this.findExisting(events));
    if (retry) return retry;
    const head = this.headOf(streamId, heads);
    checkExpectedVersion(streamId, expected, head?.version ?? null);
    return this.insertEvents(pending, head, heads);
  }

  /**
   * A write with no events: the stream's head is always looked up (never assumed absent, as the
   * fast path does for `no_stream`), and nothing is inserted, so the heads map is left as it was.
   */
  private checkVersion(pending: AppendRequest & { expected: { kind: 'exact'; version: bigint } }, heads: Map<string, StreamHead | null>): AppendResult {
    const { streamId, expected } = pending;
    checkExpectedVersion(streamId, expected, this.headOf(streamId, heads)?.version ?? null);
    return checkResult(expected.version);
  }

  private findExisting(events: NewEvent[]): ExistingEventRow[] {
    const rows: ExistingEventRow[] = [];
    for (const event of events) {
      const row = this.findEventId.get(event.id) as { event_id: string; stream_id: string; version: bigint; position: bigint } | undefined;
      if (row) rows.push({ eventId: row.event_id, streamId: row.stream_id, version: row.version, position: row.position });
    }
    return rows;
  }

  private headOf(streamId: string, heads: Map<string, StreamHead | null>): StreamHead | null {
    if (heads.has(streamId)) return heads.get(streamId)!;
    const row = this.streamHead.get(streamId) as { version: bigint; chain_hash: string | null } | undefined;
    return row ? { version: row.version, hash: row.chain_hash } : null;
  }

  private insertEvents(pending: AppendRequest, head: StreamHead | null, heads: Map<string, StreamHead | null>): AppendResult {
    const { streamId, events } = pending;
    const recordedAt = new Date().toISOString();
    let version = head === null ? -1n : head.version;
    let prevHash = head?.hash ?? null;
    let position = 0n;
    for (const event of events) {
      version += 1n;
      // JSON text when the batch crossed from another thread (cheaper to copy than objects).
      // Stored in canonical form either way, so the hash input is exactly the stored text.
      const data = canonicalJson(typeof event.data === 'string' ? JSON.parse(event.data) : event.data);
      const metadata = canonicalJson(typeof event.metadata === 'string' ? JSON.parse(event.metadata) : (event.metadata ?? {}));
      const hash = eventChainHashOfText({ prevHash, streamId, version, type: event.type, schemaVersion: event.schemaVersion }, data, metadata);
      const info = this.insert.run(streamId, version, event.id, event.type, event.schemaVersion, data, metadata, recordedAt, hash);
      position = BigInt(info.lastInsertRowid);
      prevHash = hash;
    }
    heads.set(streamId, { version, hash: prevHash });
    return { nextExpectedVersion: version, position };
  }
}

export function createBatchWriter(db: Database.Database): (batch: BatchItem[]) => BatchResult {
  const appender = new SqliteAppender(db);
  // Nested inside the batch transaction, the driver runs this as a SAVEPOINT: if any of one
  // caller's writes is refused, none of them stays, and the rest of the batch still commits.
  const appendItem = db.transaction((item: BatchItem, heads: Map<string, StreamHead | null>, careful: boolean): AppendResult[] =>
    item.writes.map((write) => (careful ? appender.appendCareful(write, heads) : appender.appendFast(write, heads))),
  );

  const batchTransaction = db.transaction((batch: BatchItem[]): WireOutcome[] => {
    // Stream heads written earlier in this batch; the table would tell the same, this saves a
    // query. An item's heads are kept only if the whole item commits, so a rolled-back savepoint
    // never leaves a hash behind for the next append to chain to.
    const heads = new Map<string, StreamHead | null>();
    return batch.map((item) => {
      let mine = new Map(heads);
      try {
        let results: AppendResult[];
        try {
          results = appendItem(item, mine, false);
        } catch (error) {
          if (!(error instanceof NotTheUsualAppend)) throw error;
          mine = new Map(heads);
          results = appendItem(item, mine, true);
        }
        for (const [stream, head] of mine) heads.set(stream, head);
        return { ok: true, results };
      } catch (error) {
        return { ok: false, error: serializeError(error) };
      }
    });
  });

  // IMMEDIATE takes the write lock up front, so the version checks read what the batch will
  // commit on top of: no other process can slip a write in between.
  return (batch: BatchItem[]) => {
    try {
      return { ok: true, outcomes: batchTransaction.immediate(batch) };
    } catch (error) {
      // BEGIN or COMMIT failed (busy for longer than the timeout, disk full): nothing was written.
      return { ok: false, error: serializeError(error) };
    }
  };
}
