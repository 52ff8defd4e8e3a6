/**
 * Empty copies of read-model tables, for replaying a projection without touching the live rows:
 * on SQLite a private temporary database ATTACHed to the read-model connection, on PostgreSQL a
 * schema of its own in the same database. Either way the copies sit next to the live tables, so
 * one transaction can fill the live tables from them (the swap) or join the two (the diff).
 *
 * The copies are made from the live tables' own definitions as the database reports them, so a
 * table added by any projection is copied without this file knowing its columns.
 */
import { randomBytes } from 'node:crypto';
import {
  type KyselyPlugin,
  type Kysely,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresAdapter,
  type QueryResult,
  type RootOperationNode,
  type SchemableIdentifierNode,
  IdentifierNode,
  type UnknownRow,
  sql,
} from 'kysely';
import type { ReadModelDatabase } from './database-schema';

export type Dialect = 'sqlite' | 'postgres';

export const dialectOf = (db: Kysely<ReadModelDatabase>): Dialect =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

/** `"name"`, with embedded quotes doubled: identical on SQLite and PostgreSQL. */
export const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

export interface TableShape {
  table: string;
  /** Every stored column, in the table's own order (generated columns left out). */
  columns: string[];
  /** Primary key columns in key order; every column when the table has no primary key. */
  key: string[];
  hasPrimaryKey: boolean;
  /** PostgreSQL identity columns that refuse explicit values unless told otherwise. */
  alwaysIdentity: boolean;
  /** SQLite: `columns` is every column of the table (none is generated or hidden). */
  storedColumnsOnly?: boolean;
}

export interface ScratchTables {
  readonly dialect: Dialect;
  /** Schema (PostgreSQL) or attached database (SQLite) name that holds the copies. */
  readonly schema: string;
  readonly shapes: ReadonlyMap<string, TableShape>;
  /** Qualified name of the live table, as seen from the read-model connection. */
  live(table: string): string;
  /** Qualified name of the scratch copy. */
  scratch(table: string): string;
  /** Points the given tables (by default all copied ones) at their scratch copies. */
  redirect(tables?: readonly string[]): KyselyPlugin;
  drop(): Promise<void>;
}

export async function createScratchTables(db: Kysely<ReadModelDatabase>, tables: readonly string[]): Promise<ScratchTables> {
  const dialect = dialectOf(db);
  const suffix = `projection_scratch_${randomBytes(6).toString('hex')}`;
  // On PostgreSQL the schema is visible database-wide: named after the live one, so leftovers of an
  // interrupted run are easy to tell apart per deployment.
  const schema = dialect === 'sqlite' ? suffix : `${(await currentSchema(db)).slice(0, 30)}_${suffix}`;
  const shapes = new Map<string, TableShape>();
  for (const table of tables) shapes.set(table, await describeTable(db, dialect, table));

  if (dialect === 'sqlite') {
    // '' is a private temporary database: nobody else can see it, and SQLite deletes it on detach.
    await sql.raw(`attach database '' as ${quote(schema)}`).execute(db);
    try {
      // A throwaway copy needs no crash safety; a large cache keeps random-key inserts in memory.
      await sql.raw(`pragma ${quote(schema)}.journal_mode = off`).execute(db);
      await sql.raw(`pragma ${quote(schema)}.synchronous = off`).execute(db);
      await sql.raw(`pragma ${quote(schema)}.cache_size = -262144`).execute(db);
      for (const table of tables) {
        for (const statement of await sqliteDefinition(db, table, schema)) await sql.raw(statement).execute(db);
      }
    } catch (error) {
      await sql.raw(`detach database ${quote(schema)}`).execute(db).catch(() => undefined);
      throw error;
    }
  } else {
    await sql.raw(`create schema ${quote(schema)}`).execute(db);
    try {
      for (const table of tables) {
        // Unqualified, the live table resolves through the connection's search_path.
        await sql.raw(`create table ${quote(schema)}.${quote(table)} (like ${quote(table)} including all)`).execute(db);
      }
    } catch (error) {
      await sql.raw(`drop schema ${quote(schema)} cascade`).execute(db).catch(() => undefined);
      throw error;
    }
  }

  let dropped = false;
  return {
    dialect,
    schema,
    shapes,
    live: (table) => (dialect === 'sqlite' ? `main.${quote(table)}` : quote(table)),
    scratch: (table) => `${quote(schema)}.${quote(table)}`,
    redirect: (only = tables) => new RedirectTablesPlugin(schema, only),
    async drop() {
      if (dropped) return;
      dropped = true;
      if (dialect === 'sqlite') await sql.raw(`detach database ${quote(schema)}`).execute(db);
      else await sql.raw(`drop schema ${quote(schema)} cascade`).execute(db);
    },
  };
}

async function currentSchema(db: Kysely<ReadModelDatabase>): Promise<string> {
  const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(db);
  return rows[0]?.name ?? 'public';
}

async function describeTable(db: Kysely<ReadModelDatabase>, dialect: Dialect, table: string): Promise<TableShape> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table}, 'main')`.execute(db);
    if (rows.length === 0) throw new Error(`Read-model table ${table} does not exist`);
    const key = rows.filter((r) => Number(r.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((r) => r.name);
    const columns = rows.map((r) => r.name);
    const all = await sql<{ count: number }>`select count(*) as count from pragma_table_xinfo(${table}, 'main')`.execute(db);
    const storedColumnsOnly = Number(all.rows[0]?.count) === columns.length;
    return { table, columns, key: key.length > 0 ? key : columns, hasPrimaryKey: key.length > 0, alwaysIdentity: false, storedColumnsOnly };
  }
  const exists = await sql<{ oid: string | null }>`select to_regclass(${quote(table)}::text)::text as oid`.execute(db);
  if (!exists.rows[0]?.oid) throw new Error(`Read-model table ${table} does not exist`);
  const { rows } = await sql<{ name: string; identity: string; generated: string; key_order: number | null }>`
    select a.attname as name, a.attidentity as identity, a.attgenerated as generated,
           array_position(i.indkey::int2[], a.attnum) as key_order
      from pg_attribute a
      left join pg_index i on i.indrelid = a.attrelid and i.indisprimary
     where a.attrelid = to_regclass(${quote(table)}::text) and a.attnum > 0 and not a.attisdropped
     order by a.attnum`.execute(db);
  const stored = rows.filter((r) => r.generated === '');
  const key = stored.filter((r) => r.key_order !== null).sort((a, b) => Number(a.key_order) - Number(b.key_order)).map((r) => r.name);
  const columns = stored.map((r) => r.name);
  return {
    table,
    columns,
    key: key.length > 0 ? key : columns,
    hasPrimaryKey: key.length > 0,
    alwaysIdentity: stored.some((r) => r.identity === 'a'),
  };
}

/** The table's and its unique indexes' CREATE statements, rewritten to create them in `schema`. */
async function sqliteDefinition(db: Kysely<ReadModelDatabase>, table: string, schema: string): Promise<string[]> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from main.sqlite_master where tbl_name = ${table} and type in ('table', 'index') order by type desc`.execute(db);
  const statements: string[] = [];
  for (const row of rows) {
    if (row.sql === null) continue; // indexes SQLite made for UNIQUE / PRIMARY KEY come with the table
    if (row.type === 'table') {
      const rewritten = row.sql.replace(
        /^\s*create\s+table\s+(?:if\s+not\s+exists\s+)?(?:"(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|[^\s(]+)/i,
        `create table ${quote(schema)}.${quote(table)}`,
      );
      if (rewritten === row.sql) throw new Error(`Cannot copy the definition of table ${table}`);
      statements.push(rewritten);
    } else {
      // Lookups and conflict targets of `apply` need the primary key and the unique indexes; the
      // others would only slow the replay down (the live table keeps its own).
      if (!/^\s*create\s+unique\s+index/i.test(row.sql)) continue;
      // An index lives in its table's database: the name is qualified, the table is not.
      const rewritten = row.sql.replace(
        /^\s*create\s+(unique\s+)?index\s+(?:if\s+not\s+exists\s+)?(?:"(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|\S+)\s+on\s+/i,
        (_m, unique: string | undefined) => `create ${unique ? 'unique ' : ''}index ${quote(schema)}.${quote(row.name)} on `,
      );
      if (rewritten === row.sql) throw new Error(`Cannot copy the definition of index ${row.name}`);
      statements.push(rewritten);
    }
  }
  if (!statements.some((s) => /^create table/i.test(s))) throw new Error(`Read-model table ${table} does not exist`);
  return statements;
}

/**
 * Qualifies the named tables with the scratch schema wherever a query names them, and only
 * those: a projection reading some other table still reads the live one.
 */
class RedirectTablesPlugin implements KyselyPlugin {
  private readonly transformer: RedirectTransformer;

  constructor(schema: string, tables: readonly string[]) {
    this.transformer = new RedirectTransformer(schema, new Set(tables));
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

class RedirectTransformer extends OperationNodeTransformer {
  constructor(
    private readonly schema: string,
    private readonly tables: ReadonlySet<string>,
  ) {
    super();
  }

  protected override transformSchemableIdentifier(node: SchemableIdentifierNode): SchemableIdentifierNode {
    const transformed = super.transformSchemableIdentifier(node);
    if (transformed.schema || !this.tables.has(transformed.identifier.name)) return transformed;
    return { ...transformed, schema: IdentifierNode.create(this.schema) };
  }
}
