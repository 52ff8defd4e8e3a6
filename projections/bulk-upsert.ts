/**
 * Multi-row upserts for projections that write many rows of one shape per batch.
 *
 * The query builder turns every value of every row into a node and compiles the tree to SQL, per
 * statement: on a rebuild that is most of the cost of writing a row. Here the statement for a
 * chunk size is built once through the query builder (so plugins, such as a rebuild's redirection
 * to scratch tables, still apply) and then run again with the next rows' values as parameters; the
 * SQLite connection keeps the prepared statement for its text. On the read-model SQLite connection
 * the one-row form is run once per row instead (row-batches.ts), which SQLite does for less.
 * Semantics are the builder's: a row holding anything but plain values (undefined, an expression)
 * goes through the builder itself.
 */
import { CompiledQuery, type Insertable, type RawBuilder, type Transaction, sql } from 'kysely';
import { compiledOnce } from './compiled-once';
import { rowBatchText, runsRowBatches } from './row-batches';

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

/** An upsert into table `T` of the tables `DB` (a projection's own). */
export interface UpsertSpec<DB, T extends keyof DB & string> {
  table: T;
  /** The columns every row holds, in this order. */
  columns: readonly (keyof DB[T] & string)[];
  /** Conflict target: the primary key or a unique constraint. */
  key: readonly (keyof DB[T] & string)[];
  /** Columns an existing row takes from the new one; none: an existing row stays as it is. */
  update: readonly (keyof DB[T] & string)[];
  /**
   * Columns to which an existing row adds the new row's value (running totals). Rows of one key in
   * one call are summed into one first (PostgreSQL refuses a statement that touches a row twice).
   */
  add?: readonly (keyof DB[T] & string)[];
}

/**
 * `set col = <table>.col + excluded.col` for each column. The existing row's column is qualified
 * by its table (PostgreSQL finds a bare name ambiguous beside `excluded`), as a reference, so a
 * rebuild's redirection to scratch tables qualifies it too.
 */
function addExcluded<C extends string>(table: string, columns: readonly C[]): Record<C, RawBuilder<never>> {
  const set = {} as Record<C, RawBuilder<never>>;
  for (const column of columns) set[column] = sql<never>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  return set;
}

/** Rows of one key summed into one over the `add` columns (the other columns are the first row's). */
function summedByKey<Row>(rows: readonly Row[], key: readonly string[], add: readonly string[]): Row[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const row of rows as readonly Record<string, unknown>[]) {
    const id = key.map((column) => String(row[column])).join('\u0000');
    const sum = byKey.get(id);
    if (!sum) byKey.set(id, { ...row });
    else for (const column of add) sum[column] = Number(sum[column]) + Number(row[column]);
  }
  return [...byKey.values()] as Row[];
}

/** Statements by the text of their one-row form (which names the tables as plugins rewrote them). */
const statements = new Map<string, string>();
const MAX_STATEMENTS = 64;

export async function upsertRows<DB, T extends keyof DB & string>(
  trx: Transaction<DB>,
  spec: UpsertSpec<DB, T>,
  rows: readonly Insertable<DB[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  if (spec.add?.length) rows = summedByKey(rows, spec.key, spec.add);
  const builder = (part: readonly Insertable<DB[T]>[]) => {
    // The builder's types cannot follow a table chosen at run time; the spec ties rows to it.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const insert = (trx as Transaction<any>).insertInto(spec.table).values(part as any[]);
    const set = { ...takeExcluded(spec.update), ...addExcluded(spec.table, spec.add ?? []) };
    return Object.keys(set).length === 0
      ? insert.onConflict((oc) => oc.columns([...spec.key]).doNothing())
      : insert.onConflict((oc) => oc.columns([...spec.key]).doUpdateSet(set as never));
  };
  const template = (count: number) =>
    Array.from({ length: count }, () => Object.fromEntries(spec.columns.map((c) => [c, null]))) as Insertable<DB[T]>[];
  const oneRow = compiledOnce(trx, spec, () => builder(template(1)).compile().sql);
  const batched = runsRowBatches(trx);

  for (const part of chunked(rows, rowsPerStatement(spec.columns.length))) {
    const parameters = plainValues(part, spec.columns);
    if (!parameters) {
      await builder(part).execute();
      continue;
    }
    if (batched) {
      await trx.executeQuery(CompiledQuery.raw(rowBatchText(oneRow, spec.columns.length), parameters));
      continue;
    }
    const key = `${part.length}\u0000${oneRow}`;
    let text = statements.get(key);
    if (text === undefined) {
      text = builder(template(part.length)).compile().sql;
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
      statements.set(key, text);
    }
    await trx.executeQuery(CompiledQuery.raw(text, parameters));
  }
}

/** The rows' values, column by column; null when a value needs the builder (not a plain value). */
function plainValues(rows: readonly object[], columns: readonly string[]): unknown[] | null {
  const values: unknown[] = new Array(rows.length * columns.length);
  let i = 0;
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    for (const column of columns) {
      const value = record[column];
      if (value === undefined || (typeof value === 'object' && value !== null)) return null;
      values[i++] = value;
    }
  }
  return values;
}
