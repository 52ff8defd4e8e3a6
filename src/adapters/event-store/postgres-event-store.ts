import { Pool, type PoolClient } from 'pg';
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
  WrongExpectedVersionError,
} from '../../application/ports/event-store';
import type { ChainHashEntry, ChainHashReader } from '../../application/ports/chain-hash-reader';
import type { TypeFilteredPage, TypeFilteredReader } from '../../application/ports/type-filtered-reader';
import { eventChainHashOfText } from '../../domain/audit/chain-hash';
import { checkExpectedVersion, checkResult, EventIdConflictError, isVersionCheck, PollingSubscription, resolveRetry, validateAppend, validateWrite } from './shared';
import { surviveConnectionLoss } from '../postgres/survive-connection-loss';
import {
  decideGroup,
  type GroupCall,
  type GroupRead,
  headsOf,
  INSERT_GROUP_SQL,
  READ_GROUP_SQL,
  resultsOfGroup,
  stagedPayload,
} from './postgres-group-append';
import {
  COLUMNS,
  type EventRow,
  isUniqueViolation,
  prepareEvent,
  type PreparedEvent,
  type RawExisting,
  toExisting,
  toStoredEvent,
  TYPE_FILTERED_PAGE_SQL,
  type TypeFilteredRow,
  typeFilteredPageOf,
} from './postgres-rows';
import { NotificationListener } from './postgres-notification-listener';
import { addChainHashes, APPEND_LOCK_KEY, SCHEMA, SCHEMA_LOCK_KEY } from './postgres-schema';

export interface PostgresEventStoreOptions {
  connectionString: string;
  /** Fallback polling interval of subscriptions, for when a notification is lost. Default 100 ms. */
  pollIntervalMs?: number;
  /** Maximum connections of the pool. Default 10. */
  poolSize?: number;
}

/** Channel on which every append transaction notifies, so subscribers wake without polling. */
const CHANNEL = 'gateway_events';

/** The most calls committed in one transaction (bounds how long the append lock is held). */
const MAX_GROUP = 256;

interface PendingAppend extends GroupCall {
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

/** The one call of a group failed: it alone is answered with its error. */
class CallFailed extends Error {
  constructor(readonly cause: unknown) {
    super('append failed');
  }
}

export class PostgresEventStore implements EventStore, ChainHashReader, TypeFilteredReader {
  private readonly pool: Pool;
  private readonly pollIntervalMs: number;
  private readonly wakeListeners = new Set<() => void>();
  private readonly subscriptions = new Set<PollingSubscription>();
  private readonly listener: NotificationListener;
  private closed = false;

  /** Prefer `PostgresEventStore.create`, which also makes sure the table exists. */
  constructor(options: PostgresEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    // A lost connection must not crash the process; the pool replaces it. Reads and appends that
    // were running on it fail, and their callers retry (subscriptions poll again).
    this.pool = surviveConnectionLoss(new Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 }));
    this.listener = new NotificationListener(options.connectionString, CHANNEL, () => this.wakeAll(), () => this.wakeListeners.size > 0);
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
    // A version check is a write of appendMultiple only: an append always appends.
    validateAppend(streamId, events);
    return (await this.appendMultiple([{ streamId, events, expected }]))[0]!;
  }

  /**
   * Every write of one call in one transaction under the append lock: all of them commit, or none.
   * Concurrent calls are committed together (group commit): the appends waiting while a commit is
   * in flight share the next transaction, each inside a savepoint of its own, so one call's
   * conflict rolls back only that call. The lock and the commit's flush to disk are paid once per
   * group instead of once per call, which is what bounds appends per second on one server.
   */
  async appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    for (const write of writes) validateWrite(write);
    // Serialised before the append lock is taken: only hashing has to happen while it is held.
    const prepared = writes.map((write) => write.events.map(prepareEvent));
    return new Promise<AppendResult[]>((resolve, reject) => {
      this.pendingAppends.push({ writes, prepared, resolve, reject });
      if (!this.committing) void this.commitPending();
    });
  }

  private readonly pendingAppends: PendingAppend[] = [];
  private committing = false;

  /** Commits the waiting calls in groups until none is left; one group at a time per process. */
  private async commitPending(): Promise<void> {
    this.committing = true;
    try {
      while (this.pendingAppends.length > 0) {
        const group = this.pendingAppends.splice(0, MAX_GROUP);
        const settled = await this.commitBatched(group).catch(() => false);
        // Anything the batched path could not settle (a constraint only the database saw, a
        // group-internal repeat of event ids) is committed call by call, each in its savepoint.
        if (!settled) await this.commitOneByOne(group);
      }
    } finally {
      this.committing = false;
    }
  }

  /**
   * The group in four round trips whatever its size: lock, read every stream head and every
   * already-stored event id the group names, one insert of every accepted event, commit. Expected
   * versions and retries are decided here from what was read under the lock, call by call in
   * order, each call's writes all or none. Returns false, having written nothing, when the group
   * needs the slower path.
   */
  private async commitBatched(group: PendingAppend[]): Promise<boolean> {
    const allIds = group.flatMap((call) => call.prepared.flat().map((p) => p.event.id));
    // The same event id twice in one group: only the database can say which came first.
    if (new Set(allIds).size !== allIds.length) return false;
    const streamIds = [...new Set(group.flatMap((call) => call.writes.map((w) => w.streamId)))];
    const client = await this.pool.connect();
    let broken: Error | undefined;
    let decided: ReturnType<typeof decideGroup>;
    const positions = new Map<string, bigint>();
    try {
      await client.query(`begin; select pg_advisory_xact_lock(${APPEND_LOCK_KEY})`);
      const read = (await client.query<GroupRead>(READ_GROUP_SQL, [streamIds, allIds])).rows[0]!;
      decided = decideGroup(group, headsOf(read), read.existing.map(toExisting));
      if (decided.staged.length > 0) {
        const inserted = await client.query<{ event_id: string; position: string }>(INSERT_GROUP_SQL, [stagedPayload(decided.staged), CHANNEL]);
        for (const row of inserted.rows) positions.set(row.event_id, BigInt(row.position));
      }
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      if (isUniqueViolation(error)) return false;
      // A lost connection or a failed commit: nothing of the group was written.
      for (const call of group) call.reject(error);
      return true;
    } finally {
      client.release(broken);
    }
    if (decided.staged.length > 0) this.wakeAll();
    resultsOfGroup(decided.answers, decided.staged, positions).forEach((results, i) => {
      if (Array.isArray(results)) group[i]!.resolve(results);
      else group[i]!.reject(results.error);
    });
    return true;
  }

  /** One call at a time inside one transaction, each in a savepoint: the path for what batching cannot decide. */
  private async commitOneByOne(group: PendingAppend[]): Promise<void> {
    type Outcome = { ok: true; results: AppendResult[]; wrote: boolean } | { ok: false; error: unknown; write?: StreamWrite };
    const outcomes: Outcome[] = [];
    try {
      await this.transaction(async (client) => {
        // Positions come from a sequence, which hands out numbers at insert time, not at commit
        // time: without care, transaction A could take 10, B take 11 and commit first, and a reader
        // that just saw 11 would move its checkpoint past 10 and never see A's event. Holding one
        // fixed advisory lock from before the insert until commit (xact locks are released only
        // after the commit is visible) makes allocation and commit happen in the same serial
        // order, so what a reader sees is always a gap-free prefix of the committed positions
        // (rolled-back numbers leave holes nobody waits for).
        await client.query('select pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY]);
        for (const call of group) {
          // A group of one needs no savepoint: its failure fails the transaction, and only its own.
          const alone = group.length === 1;
          if (!alone) await client.query('savepoint one_call');
          let current: StreamWrite | undefined;
          try {
            const results: AppendResult[] = [];
            let wrote = false;
            for (const [i, write] of call.writes.entries()) {
              current = write;
              const one = await this.appendWithin(client, write.streamId, call.prepared[i]!, write.expected);
              results.push(one.result);
              wrote ||= one.wrote;
            }
            if (!alone) await client.query('release savepoint one_call');
            outcomes.push({ ok: true, results, wrote });
          } catch (error) {
            if (alone) throw Object.assign(new CallFailed(error), { write: current });
            await client.query('rollback to savepoint one_call');
            outcomes.push({ ok: false, error, ...(current ? { write: current } : {}) });
          }
        }
      });
    } catch (error) {
      // The transaction failed as a whole (a lost connection, a failed commit, or the one call of
      // a group of one): nothing of the group was written.
      const cause = error instanceof CallFailed ? error.cause : error;
      const write = error instanceof CallFailed ? (error as CallFailed & { write?: StreamWrite }).write : undefined;
      for (const call of group) {
        call.reject(write ? await this.translateError(cause, write.streamId, write.expected) : cause);
      }
      return;
    }
    if (outcomes.some((o) => o.ok && o.wrote)) this.wakeAll();
    for (const [i, call] of group.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.ok) call.resolve(outcome.results);
      else call.reject(outcome.write ? await this.translateError(outcome.error, outcome.write.streamId, outcome.write.expected) : outcome.error);
    }
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
    const write = { events, expected };
    if (isVersionCheck(write)) {
      // A version check: read under the append lock, nothing written.
      checkExpectedVersion(streamId, expected, await this.currentVersion(streamId, client));
      return { result: checkResult(write.expected.version), wrote: false };
    }
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

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    const { rows } = await this.pool.query<EventRow>(
      `select ${COLUMNS} from events where stream_id = $1 and events.version > $2 order by events.version limit $3`,
      [streamId, (options.after ?? -1n).toString(), options.maxCount ?? null /* no limit */],
    );
    return rows.map(toStoredEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.readAfter(options.after ?? null, options.maxCount);
  }

  /** `readAll`'s page as positions and chain hashes: data and metadata are neither sent nor parsed. */
  async readChainHashes(options: ReadAllOptions = {}): Promise<ChainHashEntry[]> {
    this.assertOpen();
    const { rows } = await this.pool.query<{ position: string; chain_hash: string }>(
      'select position::text, chain_hash from events where events.position > $1 order by events.position limit $2',
      [(options.after ?? -1n).toString(), options.maxCount ?? null],
    );
    return rows.map((row) => ({ position: BigInt(row.position), chainHash: row.chain_hash }));
  }

  /**
   * `readAll`'s page (the next `maxCount` events) with only the events of `types` sent and parsed.
   * One statement, so one snapshot: the scan and the events handed out see the same commits, and
   * the append lock (see `commitOneByOne`) makes what any snapshot sees a gap-free prefix of the
   * log, so no event below the scan's end can still commit after it was read.
   */
  async readAllOfTypes(types: readonly string[], options: ReadAllOptions = {}): Promise<TypeFilteredPage> {
    this.assertOpen();
    const after = options.after ?? null;
    const { rows } = await this.pool.query<TypeFilteredRow>(TYPE_FILTERED_PAGE_SQL, [(after ?? -1n).toString(), options.maxCount ?? null, types]);
    return typeFilteredPageOf(rows, after);
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
          this.listener.start();
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
    await this.listener.close();
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

  private async currentVersion(streamId: string, client: Pick<PoolClient, 'query'> = this.pool): Promise<bigint | null> {
    const { rows } = await client.query<{ current: string | null }>(
      'select max(version)::text as current from events where stream_id = $1',
      [streamId],
    );
    return rows[0]!.current === null ? null : BigInt(rows[0]!.current);
  }

  private wakeAll(): void {
    for (const listener of this.wakeListeners) listener();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}
