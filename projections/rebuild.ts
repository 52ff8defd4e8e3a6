/**
 * Rebuilding and verifying read models from the event store, for any projection that declares the
 * tables it owns.
 *
 * Rebuild: the projections' own `apply` replays every event from position zero into empty scratch
 * copies of their tables (scratch-tables.ts). Then one transaction locks their checkpoints (so no
 * projector, in this process or another, can commit meanwhile), applies whatever was appended
 * during the replay, replaces the live rows with the rebuilt ones and moves the checkpoints to the
 * rebuilt position. A status lookup reads the old rows or the new ones, never a half-filled table.
 * A running projector then finds its checkpoint moved (its write is a compare-and-set), takes the
 * new one and carries on after it.
 *
 * Verify: the same replay, up to each projection's live checkpoint, then a row-by-row diff by
 * primary key against the live tables, inside one snapshot of them.
 */
import type { Kysely, KyselyPlugin, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { EventStore, StoredEvent } from '../src/application/ports/event-store';
import { bulkReaderOf } from '../src/application/ports/bulk-reader';
import { allProjections } from './index';
import type { Projection } from './projection-module';
import type { ReadModelDatabase } from './database-schema';
import { createScratchTables, quote, type Dialect, type ScratchTables, type TableShape } from './scratch-tables';

/**
 * Events read and applied per transaction during a replay. The replay is offline work: large pages
 * mean fewer statements and, above all, fewer rows (a payment whose events span two pages) loaded,
 * folded and written again in the next page.
 */
export const DEFAULT_REPLAY_PAGE_SIZE = 50_000;

/** A refusal the operator can act on: an unknown projection name, a projection without tables. */
export class RebuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RebuildError';
  }
}

export interface ReplayOptions {
  store: EventStore;
  db: Kysely<ReadModelDatabase>;
  /** Projection names; all of them when absent or empty. */
  names?: string[];
  /** The projections to choose from. Default: `allProjections()`. */
  projections?: Projection[];
  /** Events per read and per transaction. Default DEFAULT_REPLAY_PAGE_SIZE. */
  pageSize?: number;
  /** Told after every page: events replayed so far and the position reached. */
  onProgress?(replayed: number, position: bigint): void;
}

export interface RebuildOptions extends ReplayOptions {
  /**
   * Points where tests (and tooling) act during a rebuild: after the replay, before the swap
   * transaction starts; and inside it, once the live rows are replaced, before it commits.
   */
  hooks?: { beforeSwap?(): Promise<void>; beforeCommit?(): Promise<void> };
}

export interface RebuildResult {
  projections: string[];
  /** Position the rebuilt tables and the checkpoints now stand at; null for an empty store. */
  position: bigint | null;
  /** Events read from the store and fed to the projections. */
  events: number;
  /** Milliseconds: the replay, the swap transaction (with its final catch-up), and the whole. */
  replayMs: number;
  swapMs: number;
  totalMs: number;
}

interface DifferenceBase {
  projection: string;
  table: string;
  /** Primary key of the row, each value as text. */
  key: Record<string, string | null>;
}

/**
 * One way the live tables differ from a replay of the events. `missing`: the replay has a row the
 * live table lacks; `extra`: the live table has a row the replay does not produce; `changed`: one
 * column of a row both have, with both values as text.
 */
export type ProjectionDifference =
  | (DifferenceBase & { kind: 'missing' })
  | (DifferenceBase & { kind: 'extra' })
  | (DifferenceBase & { kind: 'changed'; column: string; live: string | null; rebuilt: string | null });

export interface VerifyOptions extends ReplayOptions {
  /** Stop collecting after this many differences. Default 10,000. */
  maxDifferences?: number;
}

/** Replays the named projections (default: all) into fresh tables and swaps them in. */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildResult> {
  const started = performance.now();
  const { db } = options;
  const selected = selectProjections(options.projections ?? allProjections(), options.names);
  const names = selected.map((p) => p.name);
  const scratch = await createScratchTables(db, selected.flatMap((p) => p.tables));
  try {
    const cursors: Cursor[] = selected.map((projection) => ({ projection, position: null, target: 'head' }));
    const replay = replayer(options, scratch, cursors);
    let events = await replay((work) => db.transaction().execute(work));
    const replayMs = performance.now() - started;
    await options.hooks?.beforeSwap?.();

    await db.transaction().execute(async (trx) => {
      const live = await lockCheckpoints(trx, scratch.dialect, names);
      // No projector can commit these projections now, so the head read here is final for them.
      events += await replay((work) => work(trx));
      const position = cursors[0]?.position ?? null;
      for (const name of names) {
        const checkpoint = live.get(name) ?? null;
        if (checkpoint !== null && (position === null || checkpoint > position)) {
          throw new Error(`Projection ${name} is at ${checkpoint}, past the rebuilt position ${position ?? 'start'}`);
        }
      }
      for (const shape of scratch.shapes.values()) await copyBack(trx, scratch, shape);
      await trx
        .updateTable('projection_checkpoints')
        .set({ position: position === null ? null : position.toString(), updated_at: new Date().toISOString() })
        .where('name', 'in', names)
        .execute();
      await options.hooks?.beforeCommit?.();
    });
    const totalMs = performance.now() - started;
    return { projections: names, position: cursors[0]?.position ?? null, events, replayMs, swapMs: totalMs - replayMs, totalMs };
  } finally {
    await scratch.drop();
  }
}

/**
 * Replays the named projections (default: all) into scratch tables up to their live checkpoints
 * and compares them row by row with the live tables. An empty array: identical.
 */
export async function verifyProjections(options: VerifyOptions): Promise<ProjectionDifference[]> {
  const { db } = options;
  const selected = selectProjections(options.projections ?? allProjections(), options.names);
  const names = selected.map((p) => p.name);
  const limit = options.maxDifferences ?? 10_000;
  const scratch = await createScratchTables(db, selected.flatMap((p) => p.tables));
  try {
    const before = await readCheckpoints(db, names);
    const cursors: Cursor[] = selected.map((projection) => ({
      projection,
      position: null,
      target: before.get(projection.name) ?? null,
    }));
    const replay = replayer(options, scratch, cursors);
    await replay((work) => db.transaction().execute(work));

    // The live tables go on changing; one snapshot of them, with the checkpoints it holds, is what
    // the copies are caught up to and compared with.
    const snapshot = scratch.dialect === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
    return await snapshot.execute(async (trx) => {
      const live = await readCheckpoints(trx, names);
      for (const cursor of cursors) {
        const checkpoint = live.get(cursor.projection.name) ?? null;
        if (cursor.position !== null && (checkpoint === null || checkpoint < cursor.position)) {
          throw new Error(`The checkpoint of ${cursor.projection.name} moved back while verifying; run verify again`);
        }
        cursor.target = checkpoint;
      }
      await replay((work) => work(trx));
      const differences: ProjectionDifference[] = [];
      for (const projection of selected) {
        for (const table of projection.tables) {
          if (differences.length >= limit) return differences;
          const shape = scratch.shapes.get(table)!;
          differences.push(...(await diffTable(trx, scratch, shape, projection.name, limit - differences.length)));
        }
      }
      return differences;
    });
  } finally {
    await scratch.drop();
  }
}

/** The projections a command names, in `allProjections()` order; refuses unknown names. */
export function selectProjections(projections: Projection[], names: string[] | undefined): Projection[] {
  const wanted = names?.length ? new Set(names) : null;
  if (wanted) {
    const known = new Set(projections.map((p) => p.name));
    const unknown = [...wanted].filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new RebuildError(`Unknown projection ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
    }
  }
  const selected = wanted ? projections.filter((p) => wanted.has(p.name)) : projections;
  const owner = new Map<string, string>();
  for (const projection of selected) {
    if (!Array.isArray(projection.tables) || projection.tables.length === 0) {
      throw new RebuildError(`Projection ${projection.name} does not declare the tables it owns`);
    }
    for (const table of projection.tables) {
      const other = owner.get(table);
      if (other) throw new RebuildError(`Table ${table} is claimed by both ${other} and ${projection.name}`);
      owner.set(table, projection.name);
    }
  }
  return selected;
}

interface Cursor {
  projection: Projection;
  /** Every event up to here is in the scratch copy; null: nothing yet. */
  position: bigint | null;
  /** Where to stop: a position, null (nothing to apply), or wherever the store's head is. */
  target: bigint | null | 'head';
}

type Runner = (work: (trx: Transaction<ReadModelDatabase>) => Promise<void>) => Promise<void>;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const wantsMore = (cursor: Cursor): boolean =>
  cursor.target === 'head' || (cursor.target !== null && (cursor.position === null || cursor.position < cursor.target));

/**
 * Reads the store page by page from the lowest cursor on and applies each page to the scratch
 * copies, each projection only the events past its cursor and up to its target. Returns the
 * number of events read.
 */
function replayer(options: ReplayOptions, scratch: ScratchTables, cursors: Cursor[]): (run: Runner) => Promise<number> {
  const pageSize = Math.max(1, options.pageSize ?? DEFAULT_REPLAY_PAGE_SIZE);
  const redirect: KyselyPlugin = scratch.redirect();
  const reader = bulkReaderOf(options.store);
  let total = 0;
  return async (run) => {
    let replayed = 0;
    for (;;) {
      const active = cursors.filter(wantsMore);
      if (active.length === 0) return replayed;
      let from: bigint | null = active[0].position;
      for (const cursor of active) if (from !== null && (cursor.position === null || cursor.position < from)) from = cursor.position;
      const events = await reader.readAllPage({ after: from, maxCount: pageSize });
      if (events.length === 0) return replayed;
      const last = events[events.length - 1].position;
      await run(async (trx) => {
        const target = trx.withPlugin(redirect);
        for (const cursor of active) {
          const slice = eventsFor(cursor, events);
          if (slice.length > 0) await cursor.projection.apply(target, slice);
        }
      });
      for (const cursor of active) {
        cursor.position = cursor.target === 'head' || cursor.target! > last ? last : cursor.target;
      }
      replayed += events.length;
      total += events.length;
      options.onProgress?.(total, last);
      await yieldToEventLoop();
    }
  };
}

function eventsFor(cursor: Cursor, events: StoredEvent[]): StoredEvent[] {
  const after = cursor.position;
  const upTo = cursor.target === 'head' ? null : cursor.target;
  const first = events[0].position;
  const last = events[events.length - 1].position;
  if ((after === null || first > after) && (upTo === null || last <= upTo)) return events;
  return events.filter((e) => (after === null || e.position > after) && (upTo === null || e.position <= upTo!));
}

async function readCheckpoints(db: Kysely<ReadModelDatabase>, names: string[]): Promise<Map<string, bigint | null>> {
  const rows = await db.selectFrom('projection_checkpoints').select(['name', 'position']).where('name', 'in', names).execute();
  const result = new Map<string, bigint | null>();
  for (const row of rows) result.set(row.name, row.position === null ? null : BigInt(row.position));
  return result;
}

/**
 * Takes the checkpoint rows for the rest of the transaction: a projector's compare-and-set on them
 * waits, then finds them moved. On SQLite the first write takes the database's write lock.
 */
async function lockCheckpoints(
  trx: Transaction<ReadModelDatabase>,
  dialect: Dialect,
  names: string[],
): Promise<Map<string, bigint | null>> {
  const now = new Date().toISOString();
  await trx
    .insertInto('projection_checkpoints')
    .values(names.map((name) => ({ name, position: null, updated_at: now })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  if (dialect === 'postgres') {
    const rows = await trx
      .selectFrom('projection_checkpoints')
      .select(['name', 'position'])
      .where('name', 'in', names)
      .forUpdate()
      .execute();
    return new Map(rows.map((row) => [row.name, row.position === null ? null : BigInt(row.position)]));
  }
  return readCheckpoints(trx, names);
}

/**
 * Replaces the live rows with the scratch copy's, inside the caller's transaction.
 *
 * SQLite: the live table is dropped and created again from its own definition, filled, and only
 * then indexed (one sort per index instead of an index update per row). Views naming the table
 * keep working: SQLite resolves them by name. PostgreSQL: views depend on the table itself, so its
 * rows are replaced instead.
 */
async function copyBack(trx: Transaction<ReadModelDatabase>, scratch: ScratchTables, shape: TableShape): Promise<void> {
  const columns = shape.columns.map(quote).join(', ');
  const source = `select ${columns} from ${scratch.scratch(shape.table)}`;
  if (scratch.dialect === 'postgres') {
    const overriding = shape.alwaysIdentity ? ' overriding system value' : '';
    await sql.raw(`delete from ${scratch.live(shape.table)}`).execute(trx);
    await sql.raw(`insert into ${scratch.live(shape.table)} (${columns})${overriding} ${source}`).execute(trx);
    return;
  }
  const { rows } = await sql<{ type: string; sql: string }>`
    select type, sql from main.sqlite_master where tbl_name = ${shape.table} and sql is not null order by type = 'table' desc`.execute(trx);
  const [table, ...dependents] = rows;
  if (table?.type !== 'table') throw new Error(`Read-model table ${shape.table} does not exist`);
  await sql.raw(`drop table ${scratch.live(shape.table)}`).execute(trx);
  await sql.raw(table.sql).execute(trx);
  // Both tables come from the same definition: `insert into ... select *` (no column list, no
  // generated columns) lets SQLite copy the stored records and the key's index entries as they
  // are, instead of decoding and encoding every row again.
  const whole = shape.storedColumnsOnly ? `insert into ${scratch.live(shape.table)} select * from ${scratch.scratch(shape.table)}` : null;
  await sql.raw(whole ?? `insert into ${scratch.live(shape.table)} (${columns}) ${source}`).execute(trx);
  // Indexes and triggers went with the dropped table; their own definitions bring them back.
  for (const dependent of dependents) await sql.raw(dependent.sql).execute(trx);
}

async function diffTable(
  trx: Transaction<ReadModelDatabase>,
  scratch: ScratchTables,
  shape: TableShape,
  projection: string,
  limit: number,
): Promise<ProjectionDifference[]> {
  const pg = scratch.dialect === 'postgres';
  const text = (ref: string) => (pg ? `${ref}::text` : `cast(${ref} as text)`);
  const differs = (a: string, b: string) => (pg ? `${text(a)} is distinct from ${text(b)}` : `${a} is not ${b}`);
  // Key columns of a real primary key are never null, so `=` (which can use the index) is safe;
  // a table without one is keyed by all its columns, which may be null.
  const same = (a: string, b: string) => (shape.hasPrimaryKey ? `${a} = ${b}` : pg ? `${a} is not distinct from ${b}` : `${a} is ${b}`);
  const live = scratch.live(shape.table);
  const rebuilt = scratch.scratch(shape.table);
  const join = shape.key.map((k) => same(`l.${quote(k)}`, `r.${quote(k)}`)).join(' and ');
  const keyOf = (alias: string) => shape.key.map((k, i) => `${text(`${alias}.${quote(k)}`)} as k${i}`).join(', ');
  const toKey = (row: Record<string, unknown>): Record<string, string | null> =>
    Object.fromEntries(shape.key.map((k, i) => [k, (row[`k${i}`] as string | null) ?? null]));
  const base = { projection, table: shape.table };
  const differences: ProjectionDifference[] = [];

  const missing = await sql
    .raw<Record<string, unknown>>(
      `select ${keyOf('r')} from ${rebuilt} r where not exists (select 1 from ${live} l where ${join}) limit ${limit}`,
    )
    .execute(trx);
  for (const row of missing.rows) differences.push({ ...base, key: toKey(row), kind: 'missing' });

  const extra = await sql
    .raw<Record<string, unknown>>(
      `select ${keyOf('l')} from ${live} l where not exists (select 1 from ${rebuilt} r where ${join}) limit ${limit - differences.length}`,
    )
    .execute(trx);
  for (const row of extra.rows) differences.push({ ...base, key: toKey(row), kind: 'extra' });

  const values = shape.columns.filter((c) => !shape.key.includes(c));
  if (values.length === 0 || differences.length >= limit) return differences.slice(0, limit);
  const selected = values
    .map((c, i) => `${text(`l.${quote(c)}`)} as l${i}, ${text(`r.${quote(c)}`)} as r${i}, case when ${differs(`l.${quote(c)}`, `r.${quote(c)}`)} then 1 else 0 end as d${i}`)
    .join(', ');
  const anyDiffers = values.map((c) => differs(`l.${quote(c)}`, `r.${quote(c)}`)).join(' or ');
  const changed = await sql
    .raw<Record<string, unknown>>(
      `select ${keyOf('l')}, ${selected} from ${live} l join ${rebuilt} r on ${join} where ${anyDiffers} limit ${limit - differences.length}`,
    )
    .execute(trx);
  for (const row of changed.rows) {
    const key = toKey(row);
    values.forEach((column, i) => {
      if (Number(row[`d${i}`]) !== 1) return;
      differences.push({
        ...base,
        key,
        kind: 'changed',
        column,
        live: (row[`l${i}`] as string | null) ?? null,
        rebuilt: (row[`r${i}`] as string | null) ?? null,
      });
    });
  }
  return differences.slice(0, limit);
}
