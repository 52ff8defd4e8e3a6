/**
 * The PostgreSQL events table: its definition, the advisory locks every process takes around it,
 * and the migration of a table created before events carried chain hashes.
 */
import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../application/ports/event-store';
import { eventChainHash } from '../../domain/audit/chain-hash';

/** Advisory lock keys; arbitrary constants, only required to be the same in every process. */
export const APPEND_LOCK_KEY = 7_340_912_001;
export const SCHEMA_LOCK_KEY = 7_340_912_002;

export const SCHEMA = `
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

/** Rows chained per round trip when an existing table is migrated. */
const BACKFILL_PAGE = 1000;

interface BackfillRow {
  position: string;
  stream_id: string;
  version: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: StoredEvent['metadata'];
}

/**
 * Migrates a table created before events carried chain hashes: adds the column, chains the
 * existing events stream by stream in version order, then makes the column mandatory, so a process
 * of the older release still running can no longer write an unchained event. Runs once, under the
 * schema lock and the append lock, in the caller's transaction. The chain vouches for history from
 * the moment of the upgrade on, not for what happened to it before.
 */
export async function addChainHashes(client: PoolClient): Promise<void> {
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
    const { rows } = await client.query<BackfillRow>(
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

