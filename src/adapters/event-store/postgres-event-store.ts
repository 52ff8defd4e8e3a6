import { Client, Pool, type PoolClient } from 'pg';
import {
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type ReadAllOptions,
  type StoredEvent,
  type StreamWrite,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from '../../application/ports/event-store';
import { canonicalJson } from '../../domain/audit/canonical-json';
import { eventChainHash, eventChainHashOfText } from '../../domain/audit/chain-hash';
import {
  checkExpectedVersion,
  EventIdConflictError,
  type ExistingEventRow,
  PollingSubscription,
  resolveRetry,
  validateAppend,
} from './shared';
import { surviveConnectionLoss } from '../postgres/survive-connection-loss';

export interface PostgresEventStoreOptions {
  connectionString: string;
  /** Fallback polling interval of subscriptions, for when a notification is lost. Default 100 ms. */
  pollIntervalMs?: number;
  /** Maximum connections of the pool. Default 10. */
  poolSize?: number;
}

/** Channel on which every append transaction notifies, so subscribers wake without polling. */
const CHANNEL = 'gateway_events';
/** Advisory lock keys; arbitrary constants, only required to be the same in every process. */
const APPEND_LOCK_KEY = 7_340_912_001;
const SCHEMA_LOCK_KEY = 7_340_912_002;
const LISTENER_RETRY_MS = 1000;

const SCHEMA = `
  create table if not exists events (
    position bigint generated always as identity primary key,
    stream_id text not null,
    version bigint not null,
    event_id text not null,
    type text not null,
    schema_version integer not null,
    data jsonb not null,
    metadata jsonb not null,
    recorded_at timestamptz not null default now(),
    chain_hash text not null,
    constraint events_stream_version_unique unique (stream_id, version),
    constraint events_event_id_unique unique (event_id)
  )`;

const COLUMNS =
  'position::text, stream_id, version::text, event_id, type, schema_version, data, metadata, recorded_at, chain_hash';

/** Rows chained per round trip when an existing table is migrated. */
const BACKFILL_PAGE = 1000;

interface EventRow {
  position: string;
  stream_id: string;
  version: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: StoredEvent['metadata'];
  recorded_at: Date;
  chain_hash: string;
}

/** An event with its data and metadata already in the canonical JSON text that is hashed. */
interface PreparedEvent {
  event: NewEvent;
  data: string;
  metadata: string;
}

export class PostgresEventStore implements EventStore {
  private readonly pool: Pool;
  private readonly connectionString: string;
  private readonly pollIntervalMs: number;
  private readonly wakeListeners = new Set<() => void>();
  private readonly subscriptions = new Set<PollingSubscription>();
  private listener: Client | undefined;
  private listenerStarting = false;
  private listenerRetry: NodeJS.Timeout | undefined;
  private closed = false;

  /** Prefer `PostgresEventStore.create`, which also makes sure the table exists. */
  constructor(options: PostgresEventStoreOptions) {
    this.connectionString = options.connectionString;
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    // A lost connection must not crash the process; the pool replaces it. Reads and appends that
    // were running on it fail, and their callers retry (subscriptions poll again).
    this.pool = surviveConnectionLoss(new Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 }));
  }

  static async create(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const store = new PostgresEventStore(options);
    try {
      await store.init();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /**
   * Creates the table if missing, or migrates one created before events carried chain hashes.
   * Safe when several processes start at the same time.
   */
  async init(): Promise<void> {
    await this.transaction(async (client) => {
      // `create table if not exists` is not atomic against a concurrent one (both can pass the
      // existence check, one then fails on the catalog's unique index), hence the lock.
      await client.query('select pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
      await client.query(SCHEMA);
      await addChainHashes(client);
    });
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    return (await this.appendMultiple([{ streamId, events, expected }]))[0]!;
  }

  /** Every write in one transaction under the append lock: all of them commit, or none. */
  async appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    for (const write of writes) validateAppend(write.streamId, write.events);
    // Serialised before the append lock is taken: only hashing has to happen while it is held.
    const prepared = writes.map((write) => write.events.map(prepareEvent));
    let current: StreamWrite | undefined;
    const outcome = await this.transaction(async (client) => {
      // Positions come from a sequence, which hands out numbers at insert time, not at commit
      // time: without care, transaction A could take 10, B take 11 and commit first, and a reader
      // that just saw 11 would move its checkpoint past 10 and never see A's event. Holding one
      // fixed advisory lock from before the insert until commit (xact locks are released only
      // after the commit is visible) makes allocation and commit happen in the same serial
      // order, so what a reader sees is always a gap-free prefix of the committed positions
      // (rolled-back numbers leave holes nobody waits for). Appends to different streams are
      // serialized only for the short insert-and-commit.
      await client.query('select pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY]);
      const results: AppendResult[] = [];
      let wrote = false;
      for (const [i, write] of writes.entries()) {
        current = write;
        const one = await this.appendWithin(client, write.streamId, prepared[i]!, write.expected);
        results.push(one.result);
        wrote ||= one.wrote;
      }
      return { results, wrote };
    }).catch(async (error: unknown) => {
      throw current ? await this.translateError(error, current.streamId, current.expected) : error;
    });
    if (outcome.wrote) this.wakeAll();
    return outcome.results;
  }

  /**
   * One stream's append inside the transaction. The previous hash is read under the append lock in
   * the same statement as the current version, so concurrent appends to one stream can never chain
   * to the same predecessor.
   */
  private async appendWithin(
    client: PoolClient,
    streamId: string,
    events: PreparedEvent[],
    expected: ExpectedVersion,
  ): Promise<{ result: AppendResult; wrote: boolean }> {
    const check = await client.query<{ current: string | null; last_hash: string | null; existing: RawExisting[] }>(
      `select
         head.version::text as current,
         head.chain_hash as last_hash,
         coalesce(
           (select json_agg(json_build_object(
              'eventId', event_id, 'streamId', stream_id,
              'version', version::text, 'position', position::text))
            from events where event_id = any($2::text[])),
           '[]'::json) as existing
       from (select 1) as one
       left join lateral (
         select version, chain_hash from events where stream_id = $1 order by version desc limit 1
       ) as head on true`,
      [streamId, events.map(({ event }) => event.id)],
    );
    const row = check.rows[0]!;
    const retry = resolveRetry(
      streamId,
      events.map(({ event }) => event),
      row.existing.map(toExisting),
    );
    if (retry) return { result: retry, wrote: false };
    const current = row.current === null ? null : BigInt(row.current);
    checkExpectedVersion(streamId, expected, current);
    let version = current ?? -1n;
    let prevHash = row.last_hash;
    const payload = events.map(({ event, data, metadata }) => {
      version += 1n;
      prevHash = eventChainHashOfText(
        { prevHash, streamId, version, type: event.type, schemaVersion: event.schemaVersion },
        data,
        metadata,
      );
      // Written by hand around the canonical texts, so the values are not serialised twice.
      return (
        `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},` +
        `"schemaVersion":${event.schemaVersion},"data":${data},"metadata":${metadata},"chainHash":"${prevHash}"}`
      );
    });
    // The notification is part of the same statement to save a round trip while holding the lock;
    // it is delivered only if the transaction commits.
    const inserted = await client.query<{ position: string; version: string }>(
      `with inserted as (
         insert into events (stream_id, version, event_id, type, schema_version, data, metadata, chain_hash)
         select $1, $2::bigint + e.ord, e.value->>'id', e.value->>'type',
                (e.value->>'schemaVersion')::integer, e.value->'data', e.value->'metadata', e.value->>'chainHash'
         from jsonb_array_elements($3::jsonb) with ordinality as e(value, ord)
         order by e.ord
         returning position, version
       ), notified as (select pg_notify($4, '') as ignored)
       select inserted.position::text, inserted.version::text from inserted cross join notified`,
      [streamId, (current ?? -1n).toString(), `[${payload.join(',')}]`, CHANNEL],
    );
    const last = inserted.rows
      .map((r) => ({ position: BigInt(r.position), version: BigInt(r.version) }))
      .reduce((a, b) => (b.version > a.version ? b : a));
    return { result: { nextExpectedVersion: last.version, position: last.position }, wrote: true };
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    this.assertOpen();
    const { rows } = await this.pool.query<EventRow>(
      `select ${COLUMNS} from events where stream_id = $1 order by events.version`,
      [streamId],
    );
    return rows.map(toStoredEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.readAfter(options.after ?? null, options.maxCount);
  }

  async streamVersion(streamId: string): Promise<bigint | null> {
    this.assertOpen();
    const { rows } = await this.pool.query<{ version: string | null }>(
      'select max(version)::text as version from events where stream_id = $1',
      [streamId],
    );
    return rows[0]!.version === null ? null : BigInt(rows[0]!.version);
  }

  async headPosition(): Promise<bigint | null> {
    this.assertOpen();
    const { rows } = await this.pool.query<{ head: string | null }>(
      'select max(position)::text as head from events',
    );
    return rows[0]!.head === null ? null : BigInt(rows[0]!.head);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = new PollingSubscription(
      {
        readAfter: (after, maxCount) => this.readAfter(after, maxCount),
        onWake: (listener) => {
          this.wakeListeners.add(listener);
          this.startListener();
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
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    clearTimeout(this.listenerRetry);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  private async readAfter(after: bigint | null, maxCount: number | undefined): Promise<StoredEvent[]> {
    // LIMIT NULL is PostgreSQL for "no limit".
    const { rows } = await this.pool.query<EventRow>(
      `select ${COLUMNS} from events where events.position > $1 order by events.position limit $2`,
      [(after ?? -1n).toString(), maxCount ?? null],
    );
    return rows.map(toStoredEvent);
  }

  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => {
        // The connection is unusable; it must not go back into the pool.
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async translateError(error: unknown, streamId: string, expected: ExpectedVersion): Promise<unknown> {
    if (!isUniqueViolation(error)) return error;
    if (error.constraint === 'events_stream_version_unique') {
      // Only reachable if some writer inserts without taking the append lock; still the same
      // conflict as far as the caller is concerned.
      const current = await this.currentVersion(streamId).catch(() => null);
      return new WrongExpectedVersionError(streamId, expected, current);
    }
    if (error.constraint === 'events_event_id_unique') {
      return new EventIdConflictError(`append to ${streamId} reuses an event id stored concurrently`);
    }
    return error;
  }

  private async currentVersion(streamId: string): Promise<bigint | null> {
    const { rows } = await this.pool.query<{ current: string | null }>(
      'select max(version)::text as current from events where stream_id = $1',
      [streamId],
    );
    return rows[0]!.current === null ? null : BigInt(rows[0]!.current);
  }

  private wakeAll(): void {
    for (const listener of this.wakeListeners) listener();
  }

  /**
   * One LISTEN connection per store, shared by its subscriptions. If it cannot be opened or
   * drops, subscriptions keep working on polling alone and the connection is retried.
   */
  private startListener(): void {
    if (this.closed || this.listener || this.listenerStarting) return;
    this.listenerStarting = true;
    const client = new Client({ connectionString: this.connectionString });
    const drop = (): void => {
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      this.scheduleListenerRetry();
    };
    client.on('notification', () => this.wakeAll());
    client.on('error', drop);
    client.on('end', () => {
      if (this.listener === client) drop();
    });
    client
      .connect()
      .then(() => client.query(`listen ${CHANNEL}`))
      .then(() => {
        this.listenerStarting = false;
        if (this.closed) {
          client.end().catch(() => undefined);
          return;
        }
        this.listener = client;
        // Events committed while the connection was being set up raised no notification here.
        this.wakeAll();
      })
      .catch(() => {
        this.listenerStarting = false;
        drop();
      });
  }

  private scheduleListenerRetry(): void {
    if (this.closed || this.listenerRetry || this.wakeListeners.size === 0) return;
    this.listenerRetry = setTimeout(() => {
      this.listenerRetry = undefined;
      this.startListener();
    }, LISTENER_RETRY_MS);
    this.listenerRetry.unref();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

interface RawExisting {
  eventId: string;
  streamId: string;
  version: string;
  position: string;
}

function toExisting(row: RawExisting): ExistingEventRow {
  return {
    eventId: row.eventId,
    streamId: row.streamId,
    version: BigInt(row.version),
    position: BigInt(row.position),
  };
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    version: BigInt(row.version),
    position: BigInt(row.position),
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at.toISOString(),
    chainHash: row.chain_hash,
  };
}

function prepareEvent(event: NewEvent): PreparedEvent {
  return { event, data: canonicalJson(event.data), metadata: canonicalJson(event.metadata ?? {}) };
}

/**
 * Migrates a table created before events carried chain hashes: adds the column, chains the
 * existing events stream by stream in version order, then makes the column mandatory, so a process
 * of the older release still running can no longer write an unchained event. Runs once, under the
 * schema lock and the append lock, in the caller's transaction. The chain vouches for history from
 * the moment of the upgrade on, not for what happened to it before.
 */
async function addChainHashes(client: PoolClient): Promise<void> {
  const present = await client.query(
    `select 1 from information_schema.columns
     where table_schema = current_schema() and table_name = 'events' and column_name = 'chain_hash'`,
  );
  if (present.rowCount) return;
  await client.query('select pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY]);
  await client.query('alter table events add column chain_hash text');
  let after = { stream: '', version: '-1' };
  let prevHash: string | null = null;
  for (;;) {
    const { rows } = await client.query<Omit<EventRow, 'recorded_at' | 'event_id' | 'chain_hash'>>(
      `select position::text, stream_id, version::text, type, schema_version, data, metadata from events
       where (stream_id, version) > ($1, $2::bigint) order by stream_id, version limit ${BACKFILL_PAGE}`,
      [after.stream, after.version],
    );
    if (rows.length === 0) break;
    const hashes: string[] = [];
    for (const row of rows) {
      if (row.stream_id !== after.stream) prevHash = null;
      prevHash = eventChainHash({
        prevHash,
        streamId: row.stream_id,
        version: BigInt(row.version),
        type: row.type,
        schemaVersion: row.schema_version,
        data: row.data,
        metadata: row.metadata,
      });
      hashes.push(prevHash);
      after = { stream: row.stream_id, version: row.version };
    }
    await client.query(
      `update events set chain_hash = chained.hash
       from unnest($1::bigint[], $2::text[]) as chained(position, hash)
       where events.position = chained.position`,
      [rows.map((row) => row.position), hashes],
    );
  }
  await client.query('alter table events alter column chain_hash set not null');
}

function isUniqueViolation(error: unknown): error is { code: string; constraint?: string } {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
