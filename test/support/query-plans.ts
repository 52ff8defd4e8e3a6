/**
 * For tests of how SQLite answers the read models' queries: a fresh migrated read-model file per
 * test, every query the builder ran, and SQLite's plan for each. A plan says whether a question
 * reads through an index or the whole table, which no result on a small table can show.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { migrateReadModels } from '../../projections/database';
import type { ReadModelDatabase } from '../../projections/database-schema';

export interface QueryPlans {
  db(): Kysely<ReadModelDatabase>;
  /** The queries run since the test began, in order. */
  asked(): CompiledQuery[];
  /** SQLite's plan for a query: one line per step, and the query with its plan to explain a failure. */
  planOf(query: CompiledQuery): { details: string[]; why: string };
}

/** Registers mocha hooks: each test gets a migrated read-model file of its own. */
export function readModelQueryPlans(prefix: string): QueryPlans {
  let dir: string;
  let database: Database.Database;
  let db: Kysely<ReadModelDatabase>;
  const asked: CompiledQuery[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    database = new Database(path.join(dir, 'read-models.db'));
    db = new Kysely<ReadModelDatabase>({
      dialect: new SqliteDialect({ database }),
      log: (event) => {
        if (event.level === 'query') asked.push(event.query);
      },
    });
    await migrateReadModels(db);
    asked.length = 0;
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    db: () => db,
    asked: () => asked,
    planOf(query) {
      const plan = database.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{ detail: string }>;
      const details = plan.map((step) => step.detail);
      return { details, why: `${query.sql}\n${details.join('\n')}` };
    },
  };
}
