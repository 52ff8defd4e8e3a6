import Database from 'better-sqlite3';
import {
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type ReadAllOptions,
  type StoredEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../application/ports/event-store';
import {
  checkExpectedVersion,
  type ExistingEventRow,
  PollingSubscription,
  resolveRetry,
  validateAppend,
} from './shared';

export interface SqliteEventStoreOptions {
  /** Path of the database file, or ':memory:'. */
  filename: string;
  /** How often subscriptions look for events written by other processes. Default 50 ms. */
  pollIntervalMs?: number;
}

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedVersion;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface EventRow {
  position: bigint;
  stream_id: string;
  version: bigint;
  event_id: string;
  type: string;
  schema_version: bigint;
  data: string;
  metadata: string;
  recorded_at: string;
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

const SCHEMA = `
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

const COLUMNS = 'position, stream_id, version, event_id, type, schema_version, data, metadata, recorded_at';

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly statements: {
    insert: Database.Statement;
    currentVersion: Database.Statement;
    findEventId: Database.Statement;
    readStream: Database.Statement;
    readAll: Database.Statement;
    head: Database.Statement;
  };
  private readonly runBatch: (batch: PendingAppend[]) => Outcome[];
  private readonly appendOne: (
    pending: PendingAppend,
    versions: Map<string, bigint | null>,
  ) => AppendResult;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly wakeListeners = new Set<() => void>();
  private readonly subscriptions = new Set<PollingSubscription>();
  private closed = false;

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    this.db = new Database(options.filename);
    // WAL lets readers (subscriptions, other processes) run while a batch is being written.
    this.db.pragma('journal_mode = WAL');
    // FULL: once an append is acknowledged it survives a power loss, not only a process crash.
    this.db.pragma('synchronous = FULL');
    // Other processes (a CLI next to the server) write the same file; wait for them, do not fail.
    this.db.pragma('busy_timeout = 5000');
    // Positions and versions are bigints in the port; reading them as such avoids silent rounding.
    this.db.defaultSafeIntegers(true);
    this.db.exec(SCHEMA);

    this.statements = {
      insert: this.db.prepare(
        `INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      currentVersion: this.db
        .prepare('SELECT version FROM events WHERE stream_id = ? ORDER BY version DESC LIMIT 1')
        .pluck(),
      findEventId: this.db.prepare(
        'SELECT event_id, stream_id, version, position FROM events WHERE event_id = ?',
      ),
      readStream: this.db.prepare(`SELECT ${COLUMNS} FROM events WHERE stream_id = ? ORDER BY version`),
      readAll: this.db.prepare(
        `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
      ),
      head: this.db.prepare('SELECT max(position) FROM events').pluck(),
    };

    // Nested inside the batch transaction, the driver runs this as a SAVEPOINT: an append that
    // throws rolls back only its own rows and the rest of the batch still commits.
    this.appendOne = this.db.transaction(
      (pending: PendingAppend, versions: Map<string, bigint | null>): AppendResult => {
        const { streamId, events, expected } = pending;
        const retry = resolveRetry(streamId, events, this.findExisting(events));
        if (retry) return retry;
        const current = versions.has(streamId)
          ? versions.get(streamId)!
          : ((this.statements.currentVersion.get(streamId) as bigint | undefined) ?? null);
        checkExpectedVersion(streamId, expected, current);
        const recordedAt = new Date().toISOString();
        let version = current === null ? -1n : current;
        let position = 0n;
        for (const event of events) {
          version += 1n;
          const info = this.statements.insert.run(
            streamId,
            version,
            event.id,
            event.type,
            event.schemaVersion,
            JSON.stringify(event.data),
            JSON.stringify(event.metadata ?? {}),
            recordedAt,
          );
          position = BigInt(info.lastInsertRowid);
        }
        versions.set(streamId, version);
        return { nextExpectedVersion: version, position };
      },
    );

    const batchTransaction = this.db.transaction((batch: PendingAppend[]): Outcome[] => {
      // Versions written earlier in this batch; the table would tell the same, this saves a query.
      const versions = new Map<string, bigint | null>();
      return batch.map((pending) => {
        try {
          return { ok: true, result: this.appendOne(pending, versions) };
        } catch (error) {
          return { ok: false, error };
        }
      });
    });
    // IMMEDIATE takes the write lock up front, so the version checks read what the batch will
    // commit on top of: no other process can slip a write in between.
    this.runBatch = (batch) => batchTransaction.immediate(batch);
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    try {
      this.assertOpen();
      validateAppend(streamId, events);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ streamId, events, expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // Group commit: every append issued in this tick shares one transaction and one fsync.
        setImmediate(() => this.flush());
      }
    });
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    this.assertOpen();
    return (this.statements.readStream.all(streamId) as EventRow[]).map(toStoredEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.readAfter(options.after ?? null, options.maxCount);
  }

  async headPosition(): Promise<bigint | null> {
    this.assertOpen();
    return (this.statements.head.get() as bigint | null) ?? null;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = new PollingSubscription(
      {
        readAfter: async (after, maxCount) => this.readAfter(after, maxCount),
        onWake: (listener) => {
          this.wakeListeners.add(listener);
          return () => this.wakeListeners.delete(listener);
        },
        pollIntervalMs: this.pollIntervalMs,
      },
      options,
      (finished) => this.subscriptions.delete(finished),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Appends already accepted are written, not dropped.
    this.flush();
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    this.db.close();
  }

  private readAfter(after: bigint | null, maxCount: number | undefined): StoredEvent[] {
    // LIMIT -1 is SQLite for "no limit".
    const rows = this.statements.readAll.all(after ?? -1n, maxCount ?? -1) as EventRow[];
    return rows.map(toStoredEvent);
  }

  private findExisting(events: NewEvent[]): ExistingEventRow[] {
    const rows: ExistingEventRow[] = [];
    for (const event of events) {
      const row = this.statements.findEventId.get(event.id) as
        | { event_id: string; stream_id: string; version: bigint; position: bigint }
        | undefined;
      if (row) {
        rows.push({
          eventId: row.event_id,
          streamId: row.stream_id,
          version: row.version,
          position: row.position,
        });
      }
    }
    return rows;
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.runBatch(batch);
    } catch (error) {
      // BEGIN or COMMIT failed (busy for longer than the timeout, disk full): nothing was written.
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.error);
    });
    if (outcomes.some((outcome) => outcome.ok)) {
      for (const listener of this.wakeListeners) listener();
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    version: row.version,
    position: row.position,
    type: row.type,
    schemaVersion: Number(row.schema_version),
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as StoredEvent['metadata'],
    recordedAt: row.recorded_at,
  };
}
