import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, type RawBuilder, SqliteDialect, sql } from 'kysely';
import { type CustomTypesConfig, Pool, types as pgTypes } from 'pg';
import type { ReadModelDatabase } from './schema';
import { surviveConnectionLoss } from '../src/adapters/postgres/survive-connection-loss';
import { createLedgerTables, dropLedgerTables } from './ledger-schema';
import { createCallbackTables } from './callback-deliveries-schema';
import { createScheduleTables } from './schedules-schema';

export type ReadModelDbConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

const INT8_OID = 20;

/**
 * pg returns int8 as a string because it may exceed 2^53. The int8 columns read back here hold
 * minor-unit amounts and stream versions, far below that, so this pool (and only this pool, never
 * the process-wide parsers) turns them into numbers to match what SQLite returns.
 */
const readModelTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pgTypes.getTypeParser(oid, format);
  }) as CustomTypesConfig['getTypeParser'],
};

/**
 * `onConnectionLost` hears of PostgreSQL connections that died while idle (the pool replaces them;
 * the process carries on either way).
 */
export function createReadModelDb(config: ReadModelDbConfig, onConnectionLost?: (error: Error) => void): Kysely<ReadModelDatabase> {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:' && config.file !== '') mkdirSync(dirname(config.file), { recursive: true });
    const database = new Database(config.file);
    // WAL lets an API process read while the projector writes. NORMAL may lose the last commits on a
    // power cut, but each checkpoint goes with its rows, so the projector simply applies them again.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    return new Kysely<ReadModelDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  }
  const pool = surviveConnectionLoss(new Pool({ connectionString: config.url, types: readModelTypes }), onConnectionLost);
  return new Kysely<ReadModelDatabase>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * The query builder prepares every statement it runs; the projector runs the same few statements
 * thousands of times. Keeping prepared statements (one connection, used by one query at a time)
 * saves SQLite from parsing and planning them again.
 */
function withStatementCache(database: Database.Database): Database.Database {
  const cache = new Map<string, Database.Statement>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver);
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          statement = prepare(source);
          // Statements whose text varies (IN lists of every length) must not grow the cache forever.
          if (cache.size >= 256) cache.delete(cache.keys().next().value!);
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}

/** Creates whatever is missing; safe to run on every start, from several processes, on both dialects. */
export async function migrateReadModels(db: Kysely<ReadModelDatabase>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Two processes racing on `create table if not exists` can still collide in the PostgreSQL
    // catalog; a transaction-scoped advisory lock serialises them and is released on commit.
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('read-model-migrations'))`.execute(trx);
      await createTables(trx);
    });
    return;
  }
  await createTables(db);
}

async function createTables(db: Kysely<ReadModelDatabase>): Promise<void> {
  await db.schema
    .createTable('payments')
    .ifNotExists()
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_text', 'text', (c) => c.notNull())
    .addColumn('held_amount', 'bigint', (c) => c.notNull())
    .addColumn('settled_amount', 'bigint', (c) => c.notNull())
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull())
    .addColumn('reversed_amount', 'bigint', (c) => c.notNull())
    .addColumn('descriptor', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('card_mask', 'text', (c) => c.notNull())
    .addColumn('card_brand', 'text', (c) => c.notNull())
    .addColumn('card_exp_month', 'text', (c) => c.notNull())
    .addColumn('card_exp_year', 'text', (c) => c.notNull())
    .addColumn('card_token', 'text')
    .addColumn('payer_email', 'text')
    .addColumn('term_url_3ds', 'text')
    .addColumn('notification_url', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('redirect_params', 'text')
    .addColumn('initiated_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('initiated_position', 'bigint', (c) => c.notNull())
    .addColumn('stream_version', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payments_merchant_order_idx')
    .ifNotExists()
    .on('payments')
    .columns(['merchant_id', 'order_id', 'initiated_at'])
    .execute();

  await db.schema
    .createTable('transactions')
    .ifNotExists()
    .addColumn('operation_id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('payer_action', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_position', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transactions_payment_idx')
    .ifNotExists()
    .on('transactions')
    .columns(['payment_id', 'created_position'])
    .execute();
  await db.schema
    .createIndex('transactions_merchant_created_idx')
    .ifNotExists()
    .on('transactions')
    .columns(['merchant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('merchants')
    .ifNotExists()
    .addColumn('merchant_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_key', 'text', (c) => c.notNull().unique())
    .addColumn('merchant_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_ciphertext', 'text', (c) => c.notNull())
    .addColumn('payment_mode', 'text', (c) => c.notNull())
    .addColumn('notification_url', 'text')
    .addColumn('ip_allowlist', 'text', (c) => c.notNull())
    .addColumn('refunds_enabled', 'integer', (c) => c.notNull())
    .addColumn('registered_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await addMerchantColumns(db);

  await db.schema
    .createTable('projection_checkpoints')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await createCallbackTables(db);
  await createLedgerTables(db);
  await createScheduleTables(db);
}

/**
 * Columns the merchants table gained after its first release, added to read-model databases
 * created before them. Idempotent; on PostgreSQL it runs under the migration lock.
 */
async function addMerchantColumns(db: Kysely<ReadModelDatabase>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table merchants add column if not exists protocol_mapping text`.execute(db);
    await sql`alter table merchants add column if not exists override_link_target text`.execute(db);
    await sql`alter table merchants add column if not exists card_on_file_support integer`.execute(db);
    return;
  }
  // SQLite has no `add column if not exists`.
  const columns = await sql<{ name: string }>`select name from pragma_table_info('merchants')`.execute(db);
  if (!columns.rows.some((c) => c.name === 'protocol_mapping')) {
    await sql`alter table merchants add column protocol_mapping text`.execute(db);
  }
  if (!columns.rows.some((c) => c.name === 'override_link_target')) {
    await sql`alter table merchants add column override_link_target text`.execute(db);
  }
  if (!columns.rows.some((c) => c.name === 'card_on_file_support')) {
    await sql`alter table merchants add column card_on_file_support integer`.execute(db);
  }
}

/** Drops every read-model table, for a rebuild from the event store. */
export async function dropReadModels(db: Kysely<ReadModelDatabase>): Promise<void> {
  await dropLedgerTables(db);
  for (const table of ['payments', 'transactions', 'merchants', 'callback_deliveries', 'callback_attempts', 'schedules', 'scheduled_chains', 'projection_checkpoints']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

/**
 * Bound parameters per statement. SQLite as bundled allows 32766 and PostgreSQL 65535; staying
 * under both keeps one code path for multi-row upserts.
 */
export const MAX_PARAMETERS_PER_STATEMENT = 30_000;

export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** Rows of `columnCount` parameters that fit into one statement. */
export const rowsPerStatement = (columnCount: number): number =>
  Math.max(1, Math.floor(MAX_PARAMETERS_PER_STATEMENT / columnCount));

/**
 * `set col = excluded.col` for each column: the upsert's update half, identical on both dialects.
 * Typed `never` so it fits any column: the value is the row's own proposed value.
 */
export function takeExcluded<C extends string>(columns: readonly C[]): Record<C, RawBuilder<never>> {
  const set = {} as Record<C, RawBuilder<never>>;
  for (const column of columns) set[column] = sql.ref<never>(`excluded.${column}`);
  return set;
}
