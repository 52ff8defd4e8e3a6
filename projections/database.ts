import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import { type CustomTypesConfig, Pool, types as pgTypes } from 'pg';
import { surviveConnectionLoss } from '../src/adapters/postgres/survive-connection-loss';
import { createCheckpointTable } from './checkpoints';
import type { ReadModelDatabase } from './database-schema';
import { allProjections } from './index';
import type { ProjectionModule } from './projection-module';
import { ReportThreadSqliteDialect } from './report-connection';
import { RowBatchSqliteDialect } from './row-batches';
import { withStatementCache } from './statement-cache';

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
    return new Kysely<ReadModelDatabase>({ dialect: new RowBatchSqliteDialect({ database: withStatementCache(database) }) });
  }
  const pool = surviveConnectionLoss(new Pool({ connectionString: config.url, types: readModelTypes }), onConnectionLost);
  return new Kysely<ReadModelDatabase>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * The connection the operator's reports read through, when it is not the read models' own: on a
 * SQLite file, a read-only connection on a thread of its own (report-connection.ts), so a report
 * that aggregates whole tables never stops the thread that answers requests. PostgreSQL does the
 * work in its own processes, and an in-memory database is visible to its one connection only:
 * null, and the reports use the read models' connection.
 */
export function createReportDb(config: ReadModelDbConfig): Kysely<ReadModelDatabase> | null {
  if (config.kind !== 'sqlite' || config.file === ':memory:' || config.file === '') return null;
  return new Kysely<ReadModelDatabase>({ dialect: new ReportThreadSqliteDialect(config.file) });
}

/**
 * Creates whatever is missing, module by module (each module's `migrate`); safe to run on every
 * start, from several processes, on both dialects, on a database of any earlier release.
 */
export async function migrateReadModels(db: Kysely<ReadModelDatabase>, modules: readonly ProjectionModule[] = allProjections()): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Two processes racing on `create table if not exists` can still collide in the PostgreSQL
    // catalog; a transaction-scoped advisory lock serialises them and is released on commit.
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('read-model-migrations'))`.execute(trx);
      await migrateAll(trx, modules);
    });
    return;
  }
  await migrateAll(db, modules);
}

async function migrateAll(db: Kysely<ReadModelDatabase>, modules: readonly ProjectionModule[]): Promise<void> {
  await createCheckpointTable(db);
  for (const projection of modules) await projection.migrate(db);
}
