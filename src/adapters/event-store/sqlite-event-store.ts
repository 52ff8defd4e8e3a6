import Database from 'better-sqlite3';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import {
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
import type { ChainHashEntry, ChainHashReader } from '../../application/ports/chain-hash-reader';
import type { TypeFilteredPage, TypeFilteredReader } from '../../application/ports/type-filtered-reader';
import { PollingSubscription, validateAppend, validateWrite } from './shared';
import {
  type BatchItem,
  type BatchResult,
  createBatchWriter,
  deserializeError,
  prepareEventsDatabase,
} from './sqlite-batch-writer';
import { CommitSignal } from './commit-signal';
import { startWriterThread } from './sqlite-writer-thread';
import { answerSenders, WriterPortHost, type WriterMessage, type WriterReply } from './writer-ports';

export interface SqliteEventStoreOptions {
  /** Path of the database file, or ':memory:'. */
  filename: string;
  /**
   * How often subscriptions look for events written by other processes. Default 50 ms. With a
   * commit signal (a writer thread of this process), how often at most they read in the long run.
   */
  pollIntervalMs?: number;
  /**
   * The commit signal of another store's writer thread (`commitSignal()`), for a store on another
   * thread of the process: its subscriptions then read as soon as the writer commits.
   */
  commitSignal?: SharedArrayBuffer;
  /**
   * With a commit signal, how often a caught-up subscription still looks, for writes of other
   * processes (a CLI next to the server). Default 250 ms.
   */
  idlePollIntervalMs?: number;
  /** With a commit signal, how long after a commit subscriptions read it (PollingSource.commits). Default 0. */
  commitSettleMs?: number;
  /**
   * Commit on a writer thread so the fsync of each batch never blocks this thread's event loop.
   * Needs a file (not ':memory:'). Default false: the HTTP server turns it on.
   */
  writerThread?: boolean;
  /**
   * Be the process's one writer while committing on this thread: the appends of one event-loop
   * turn, this thread's and those other threads send through `openWriterPort`, share one
   * transaction, and subscriptions on every thread hear of each commit (`commitSignal`). No append
   * waits for a hop to another thread and back. Needs a file; `writerThread` is then ignored.
   */
  processWriter?: boolean;
  /**
   * Commit through another store's writer thread (see `openWriterPort`): for a thread of the same
   * process, so that the process keeps one writer and one group commit. Takes precedence over
   * `writerThread`.
   */
  writerPort?: MessagePort;
}

interface PendingAppend extends BatchItem {
  resolve(results: AppendResult[]): void;
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
  /** Null only for a row written by a release without chains after this store was migrated. */
  chain_hash: string | null;
}

const COLUMNS = 'position, stream_id, version, event_id, type, schema_version, data, metadata, recorded_at, chain_hash';

export class SqliteEventStore implements EventStore, ChainHashReader, TypeFilteredReader {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly idlePollIntervalMs: number;
  private readonly commitSettleMs: number;
  /** The writer thread's commits, when this process has one (this store's or another's). */
  private readonly commits: CommitSignal | null;
  private readonly statements: {
    readStream: Database.Statement;
    streamVersion: Database.Statement;
    readAll: Database.Statement;
    readAllRows: Database.Statement;
    chainHashes: Database.Statement;
    scanEnd: Database.Statement;
    ofTypesUpTo: Database.Statement;
    head: Database.Statement;
  };
  /** One snapshot for a type-filtered page: the scan's end and the events of the types up to it. */
  private readonly readOfTypes: (types: string, after: bigint | null, maxCount: number) => TypeFilteredPage;
  /** Inline writer (same thread), when there is no writer thread. */
  private readonly writeInline: ((batch: BatchItem[]) => BatchResult) | null = null;
  private readonly writer: Worker | MessagePort | null = null;
  /** Set when the writer on the other end of `writerPort` has gone: appends fail instead of waiting. */
  private writerGone = false;
  /** Other threads' appends, when this store is the process's writer on its own thread. */
  private readonly portHost: WriterPortHost | null = null;
  /** This store's own writer thread, when it started one (a store on a port has none). */
  private readonly writerThread: Worker | null = null;
  /** Batches sent to the writer and not yet answered, by id. */
  private readonly inFlight = new Map<number, PendingAppend[]>();
  private nextBatchId = 1;
  private idle: Array<() => void> = [];
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly wakeListeners = new Set<() => void>();
  private readonly subscriptions = new Set<PollingSubscription>();
  private closed = false;

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    this.idlePollIntervalMs = options.idlePollIntervalMs ?? 250;
    this.commitSettleMs = options.commitSettleMs ?? 0;
    const onFile = options.filename !== ':memory:';
    const writesForProcess = !options.writerPort && options.processWriter === true && onFile;
    const startsWriter = !options.writerPort && !writesForProcess && options.writerThread === true && onFile;
    this.commits = startsWriter || writesForProcess ? CommitSignal.create() : options.commitSignal ? CommitSignal.of(options.commitSignal) : null;
    this.db = new Database(options.filename);
    prepareEventsDatabase(this.db);
    this.statements = {
      // LIMIT -1 is no limit.
      readStream: this.db.prepare(`SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND version > ? ORDER BY version LIMIT ?`),
      streamVersion: this.db.prepare('SELECT version FROM events WHERE stream_id = ? ORDER BY version DESC LIMIT 1').pluck(),
      readAll: this.db.prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`),
      head: this.db.prepare('SELECT max(position) FROM events').pluck(),
      // The same query as readAll, rows as arrays: no object with ten named keys per row.
      readAllRows: this.db.prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true),
      chainHashes: this.db.prepare('SELECT position, chain_hash FROM events WHERE position > ? ORDER BY position LIMIT ?').raw(true),
      // Walks the primary key only: no row of the scanned stretch is decoded.
      scanEnd: this.db.prepare('SELECT count(*), max(position) FROM (SELECT position FROM events WHERE position > ? ORDER BY position LIMIT ?)').raw(true),
      // The types as one JSON array: one statement whatever their number.
      ofTypesUpTo: this.db
        .prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ? AND type IN (SELECT value FROM json_each(?)) ORDER BY position`)
        .raw(true),
    };
    this.readOfTypes = this.db.transaction((types: string, after: bigint | null, maxCount: number): TypeFilteredPage => {
      const [scanned, end] = this.statements.scanEnd.get(after ?? -1n, maxCount) as [bigint, bigint | null];
      if (end === null) return { events: [], scanned: 0, scannedUpTo: after };
      const rows = this.statements.ofTypesUpTo.all(after ?? -1n, end, types) as EventTuple[];
      return { events: rows.map(storedEventOfTuple), scanned: Number(scanned), scannedUpTo: end };
    });
    if (options.writerPort) {
      this.writer = options.writerPort;
      options.writerPort.on('message', (reply: WriterReply) => {
        if (reply.type === 'result') this.onBatchWritten(reply.id, reply.result);
      });
      options.writerPort.on('close', () => {
        this.writerGone = true;
        this.failInFlight(new Error('the event store writer has closed'));
      });
      options.writerPort.unref();
    } else if (startsWriter) {
      const thread = startWriterThread(options.filename, this.commits!);
      this.writer = this.writerThread = thread;
      thread.on('message', (reply: WriterReply) => {
        if (reply.type === 'result') this.onBatchWritten(reply.id, reply.result);
      });
      thread.on('error', (error) => this.failInFlight(error));
      // The thread must not keep a finished process alive; pending appends keep it busy anyway.
      thread.unref();
    } else {
      this.writeInline = createBatchWriter(this.db);
      if (writesForProcess) this.portHost = new WriterPortHost(() => this.scheduleFlush());
    }
  }

  /**
   * A channel to this store's writer thread for a store on another thread of this process (its
   * `writerPort`), or null when this store writes on its own thread.
   */
  openWriterPort(): MessagePort | null {
    this.assertOpen();
    if (this.portHost) {
      const { port1, port2 } = new MessageChannel();
      this.portHost.serve(port1, false);
      return port2;
    }
    if (!this.writerThread) return null;
    const { port1, port2 } = new MessageChannel();
    this.writerThread.postMessage({ type: 'port', port: port1 } satisfies WriterMessage, [port1]);
    return port2;
  }

  /** The writer thread's commit signal, to hand to a store on another thread; null without a writer thread. */
  commitSignal(): SharedArrayBuffer | null {
    return this.commits?.buffer ?? null;
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    // A version check is a write of appendMultiple only: an append always appends.
    try {
      validateAppend(streamId, events);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.appendMultiple([{ streamId, events, expected }]).then((results) => results[0]!);
  }

  /** The writes share a savepoint inside the batch transaction: all of them commit, or none. */
  appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    let item: StreamWrite[];
    try {
      this.assertOpen();
      for (const write of writes) validateWrite(write);
      // Serialised here, not when the batch is sent: a value without a JSON form fails this append
      // alone instead of the whole batch.
      item = this.writer ? writes.map(toWire) : writes;
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AppendResult[]>((resolve, reject) => {
      this.queue.push({ writes: item, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Group commit: every append issued in this tick shares one transaction and one fsync.
    setImmediate(() => this.flush());
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    return (this.statements.readStream.all(streamId, options.after ?? -1n, options.maxCount ?? -1) as EventRow[]).map(toStoredEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.readAfter(options.after ?? null, options.maxCount);
  }

  /**
   * Bulk read path for replays (`projections rebuild` / `verify`): exactly what `readAll` returns,
   * read in large pages with the rows fetched as arrays, which costs noticeably less per event.
   */
  async readAllPage(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    const rows = this.statements.readAllRows.all(options.after ?? -1n, options.maxCount ?? -1) as EventTuple[];
    const events: StoredEvent[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) events[i] = storedEventOfTuple(rows[i]!);
    return events;
  }

  /** `readAll`'s page as positions and chain hashes: data and metadata are neither read nor parsed. */
  async readChainHashes(options: ReadAllOptions = {}): Promise<ChainHashEntry[]> {
    this.assertOpen();
    const rows = this.statements.chainHashes.all(options.after ?? -1n, options.maxCount ?? -1) as Array<[bigint, string | null]>;
    const entries: ChainHashEntry[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) entries[i] = { position: rows[i]![0], chainHash: rows[i]![1] ?? '' };
    return entries;
  }

  /**
   * `readAll`'s page (the next `maxCount` events) with only the events of `types` read and parsed.
   * The scan's end and the events up to it are read in one read transaction, so both see the same
   * commits; positions are assigned in commit order by the one writer, so nothing can later appear
   * below the scan's end either.
   */
  async readAllOfTypes(types: readonly string[], options: ReadAllOptions = {}): Promise<TypeFilteredPage> {
    this.assertOpen();
    return this.readOfTypes(JSON.stringify(types), options.after ?? null, options.maxCount ?? -1);
  }

  async streamVersion(streamId: string): Promise<bigint | null> {
    this.assertOpen();
    return (this.statements.streamVersion.get(streamId) as bigint | undefined) ?? null;
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
        commits: this.commits ? { signal: this.commits, idlePollMs: this.idlePollIntervalMs, settleMs: this.commitSettleMs } : undefined,
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
    await this.drained();
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    if (this.writer && !this.writerThread) (this.writer as MessagePort).close();
    this.portHost?.close();
    if (this.writerThread) {
      const writer = this.writerThread;
      writer.ref();
      await new Promise<void>((resolve) => {
        writer.on('message', (reply: WriterReply) => reply.type === 'closed' && resolve());
        writer.once('exit', () => resolve());
        writer.postMessage({ type: 'close' } satisfies WriterMessage);
      });
      await writer.terminate();
    }
    this.db.close();
  }

  private readAfter(after: bigint | null, maxCount: number | undefined): StoredEvent[] {
    // LIMIT -1 is SQLite for "no limit".
    const rows = this.statements.readAll.all(after ?? -1n, maxCount ?? -1) as EventRow[];
    return rows.map(toStoredEvent);
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (this.writeInline) {
      this.writeHere(batch, this.writeInline);
      return;
    }
    if (batch.length === 0) {
      if (this.inFlight.size === 0) for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    if (this.writerGone) {
      for (const pending of batch) pending.reject(new Error('the event store writer has closed'));
      if (this.inFlight.size === 0) for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    // Sent at once, even while an earlier batch commits: the writer gathers everything that queued
    // up meanwhile into its next transaction, so waiting for its answer first would only add a
    // round trip between threads to this append's latency.
    // Only the writes (already JSON text, see toWire) cross; the promise callbacks stay here.
    const requests: BatchItem[] = batch.map(({ writes }) => ({ writes }));
    const id = this.nextBatchId++;
    if (this.inFlight.size === 0) this.writer!.ref();
    this.inFlight.set(id, batch);
    this.writer!.postMessage({ type: 'batch', id, batch: requests } satisfies WriterMessage);
  }

  /** This thread's batch and whatever other threads sent meanwhile, in one transaction. */
  private writeHere(batch: PendingAppend[], write: (batch: BatchItem[]) => BatchResult): void {
    const others = this.portHost?.take() ?? [];
    if (batch.length === 0 && others.length === 0) {
      for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    const items: BatchItem[] = others.length === 0 ? batch : [...batch, ...others.flatMap((r) => r.batch)];
    const result = write(items);
    this.settle(batch, result);
    answerSenders(others, result, batch.length);
    // After the answers, as on a writer thread: the appenders should not wait for the wake-ups.
    if (this.commits && result.ok && result.outcomes.some((outcome) => outcome.ok)) this.commits.committed();
    if (this.queue.length === 0 && !this.portHost?.pending()) for (const resolve of this.idle.splice(0)) resolve();
  }

  private onBatchWritten(id: number, result: BatchResult): void {
    const batch = this.inFlight.get(id);
    if (!batch) return;
    this.inFlight.delete(id);
    if (this.inFlight.size === 0) this.writer!.unref();
    this.settle(batch, result);
    if (this.inFlight.size === 0 && this.queue.length === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  private failInFlight(error: unknown): void {
    const batches = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const batch of batches) for (const pending of batch) pending.reject(error);
    for (const pending of this.queue.splice(0)) pending.reject(error);
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private settle(batch: PendingAppend[], result: BatchResult): void {
    if (!result.ok) {
      const error = deserializeError(result.error);
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = result.outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.results);
      else pending.reject(deserializeError(outcome.error));
    });
    if (result.outcomes.some((outcome) => outcome.ok)) {
      for (const listener of this.wakeListeners) listener();
    }
  }

  /** Resolves once every accepted append is written. */
  private drained(): Promise<void> {
    const waiting = this.queue.length + (this.portHost?.pending() ?? 0);
    if (this.inFlight.size === 0 && waiting === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle.push(resolve);
      if (waiting > 0) this.flush();
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/**
 * An append as it crosses to the writer thread: strings cross a thread boundary far cheaper than
 * nested objects are cloned. Plain JSON text, the cheapest to write here: the writer thread brings it
 * into canonical form for storing and hashing, off the thread that serves requests.
 */
function toWire({ streamId, events, expected }: StreamWrite): StreamWrite {
  return {
    streamId,
    expected,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      schemaVersion: e.schemaVersion,
      data: JSON.stringify(e.data) as unknown as NewEvent['data'],
      metadata: JSON.stringify(e.metadata ?? {}) as unknown as NewEvent['metadata'],
    })),
  };
}

/** An events row in COLUMNS order. */
type EventTuple = [bigint, string, bigint, string, string, bigint, string, string, string, string | null];

/** toStoredEvent for a row read as an array; the same object, key for key. */
function storedEventOfTuple(row: EventTuple): StoredEvent {
  const metadata = row[7];
  return {
    id: row[3],
    streamId: row[1],
    version: row[2],
    position: row[0],
    type: row[4],
    schemaVersion: Number(row[5]),
    data: JSON.parse(row[6]) as Record<string, unknown>,
    // Almost every event is stored with empty metadata.
    metadata: (metadata === '{}' ? {} : JSON.parse(metadata)) as StoredEvent['metadata'],
    recordedAt: row[8],
    chainHash: row[9] ?? '',
  };
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
    chainHash: row.chain_hash ?? '',
  };
}
