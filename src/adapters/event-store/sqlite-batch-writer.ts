/**
 * The write side of the SQLite event store: a batch of appends in one IMMEDIATE transaction (one
 * fsync), each append in its own savepoint with its own expected-version check. It runs on the
 * calling thread or on a writer thread (sqlite-writer-thread.ts); outcomes are plain data so they
 * can cross a thread boundary.
 */
import type Database from 'better-sqlite3';
import {
  type AppendResult,
  type ExpectedVersion,
  type NewEvent,
  WrongExpectedVersionError,
} from '../../application/ports/event-store';
import { checkExpectedVersion, EventIdConflictError, type ExistingEventRow, resolveRetry } from './shared';

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
}

export function createBatchWriter(db: Database.Database): (batch: BatchItem[]) => BatchResult {
  const insert = db.prepare(
    `INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const currentVersion = db.prepare('SELECT version FROM events WHERE stream_id = ? ORDER BY version DESC LIMIT 1').pluck();
  const findEventId = db.prepare('SELECT event_id, stream_id, version, position FROM events WHERE event_id = ?');

  const findExisting = (events: NewEvent[]): ExistingEventRow[] => {
    const rows: ExistingEventRow[] = [];
    for (const event of events) {
      const row = findEventId.get(event.id) as
        | { event_id: string; stream_id: string; version: bigint; position: bigint }
        | undefined;
      if (row) rows.push({ eventId: row.event_id, streamId: row.stream_id, version: row.version, position: row.position });
    }
    return rows;
  };

  // Nested inside the batch transaction, the driver runs this as a SAVEPOINT: an append that
  // throws rolls back only its own rows and the rest of the batch still commits.
  const appendOne = db.transaction((pending: AppendRequest, versions: Map<string, bigint | null>): AppendResult => {
    const { streamId, events, expected } = pending;
    const retry = resolveRetry(streamId, events, findExisting(events));
    if (retry) return retry;
    const current = versions.has(streamId)
      ? versions.get(streamId)!
      : ((currentVersion.get(streamId) as bigint | undefined) ?? null);
    checkExpectedVersion(streamId, expected, current);
    const recordedAt = new Date().toISOString();
    let version = current === null ? -1n : current;
    let position = 0n;
    for (const event of events) {
      version += 1n;
      const info = insert.run(
        streamId,
        version,
        event.id,
        event.type,
        event.schemaVersion,
        // Already JSON text when the batch crossed from another thread (cheaper to copy than objects).
        typeof event.data === 'string' ? event.data : JSON.stringify(event.data),
        typeof event.metadata === 'string' ? event.metadata : JSON.stringify(event.metadata ?? {}),
        recordedAt,
      );
      position = BigInt(info.lastInsertRowid);
    }
    versions.set(streamId, version);
    return { nextExpectedVersion: version, position };
  });

  // A savepoint around one caller's writes: if any of them is refused, none of them stays.
  const appendItem = db.transaction((item: BatchItem, versions: Map<string, bigint | null>): AppendResult[] =>
    item.writes.map((write) => appendOne(write, versions)),
  );

  const batchTransaction = db.transaction((batch: BatchItem[]): WireOutcome[] => {
    // Versions written earlier in this batch; the table would tell the same, this saves a query.
    const versions = new Map<string, bigint | null>();
    return batch.map((item) => {
      // Versions an item records are kept only if the whole item commits.
      const mine = new Map(versions);
      try {
        const results = appendItem(item, mine);
        for (const [stream, version] of mine) versions.set(stream, version);
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
