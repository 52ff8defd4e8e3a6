/**
 * Runs a projections suite once on SQLite (a temp file) and once on PostgreSQL (a schema of its
 * own), each test with a fresh database, a fresh in-memory event store and a projector over all
 * read models.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { allProjections } from '../../projections';
import { createReadModelDb, migrateReadModels, type ReadModelDbConfig } from '../../projections/database';
import { type Projection, Projector, type ProjectorOptions } from '../../projections/projector';
import { ReadModels } from '../../projections/read-models';
import type { ReadModelDatabase } from '../../projections/database-schema';
import { MemoryEventStore, type MemoryEventStoreOptions } from '../support/memory-event-store';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';

export interface ProjectionFixture {
  dialect: 'sqlite' | 'postgres';
  config: ReadModelDbConfig;
  store: MemoryEventStore;
  db: Kysely<ReadModelDatabase>;
  projector: Projector;
  readModels: ReadModels;
  /** Another connection (pool) to the same read-model database, as a second process would have. */
  openDb(): Promise<Kysely<ReadModelDatabase>>;
  newProjector(options?: Partial<ProjectorOptions> & { projections?: Projection[] }): Projector;
  /** Replaces the store (and the projector and read models on it), before anything is appended. */
  useStore(options: MemoryEventStoreOptions): MemoryEventStore;
}

export function forEachDialect(title: string, body: (fixture: () => ProjectionFixture) => void): void {
  describe(`${title} [SQLite]`, function () {
    let dir = '';
    const current = fixtureLifecycle(async () => {
      dir = mkdtempSync(join(tmpdir(), 'read-models-'));
      return { kind: 'sqlite', file: join(dir, 'read-models.db') };
    }, async () => {
      rmSync(dir, { recursive: true, force: true });
    });
    body(current);
  });

  describe(`${title} [PostgreSQL]`, function () {
    requirePostgres(this);
    let schema = '';
    const current = fixtureLifecycle(async () => {
      const created = await createTestSchema('rm');
      schema = created.schema;
      return { kind: 'postgres', url: created.url };
    }, async () => {
      await dropSchema(schema);
    });
    body(current);
  });
}

function fixtureLifecycle(
  provision: () => Promise<ReadModelDbConfig>,
  release: () => Promise<void>,
): () => ProjectionFixture {
  let fixture: ProjectionFixture | undefined;
  let dbs: Kysely<ReadModelDatabase>[] = [];
  let projectors: Projector[] = [];

  beforeEach(async function () {
    const config = await provision();
    dbs = [];
    projectors = [];
    const open = async (): Promise<Kysely<ReadModelDatabase>> => {
      const db = createReadModelDb(config);
      dbs.push(db);
      await migrateReadModels(db);
      return db;
    };
    const db = await open();
    let store = new MemoryEventStore();
    const newProjector = (options: Partial<ProjectorOptions> = {}): Projector => {
      const projector = new Projector({
        store,
        db,
        projections: allProjections(),
        retryDelayMs: 20,
        onError: () => undefined,
        ...options,
      });
      projectors.push(projector);
      return projector;
    };
    const projector = newProjector();
    fixture = {
      dialect: config.kind,
      config,
      store,
      db,
      projector,
      readModels: new ReadModels({ db, store, projector }),
      openDb: open,
      newProjector,
      useStore: (options) => {
        store = new MemoryEventStore(options);
        const replacement = newProjector();
        Object.assign(fixture!, { store, projector: replacement, readModels: new ReadModels({ db, store, projector: replacement }) });
        return store;
      },
    };
  });

  afterEach(async function () {
    for (const projector of projectors) await projector.stop();
    for (const db of dbs) await db.destroy();
    await release();
    fixture = undefined;
  });

  return () => {
    if (!fixture) throw new Error('fixture used outside a test');
    return fixture;
  };
}

/** Counts rows of a read-model table. */
export async function countRows(
  db: Kysely<ReadModelDatabase>,
  table: 'payments' | 'transactions' | 'merchants',
): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Wraps a projection to record what it was given, or to fail on demand. */
export function instrumented(
  inner: Projection,
  behaviour: { failOnCall?: (call: number) => boolean } = {},
): Projection & { applied: bigint[]; calls: number } {
  const spy = {
    name: inner.name,
    tables: inner.tables,
    applied: [] as bigint[],
    calls: 0,
    async apply(...args: Parameters<Projection['apply']>): Promise<void> {
      spy.calls++;
      await inner.apply(...args);
      // Failing after the rows are written is the interesting case: they must roll back.
      if (behaviour.failOnCall?.(spy.calls)) throw new Error(`${inner.name} failed on purpose`);
      spy.applied.push(...args[1].map((e) => e.position));
    },
  };
  return spy;
}
