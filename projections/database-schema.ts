/**
 * The read-model database as kysely sees it: the shared checkpoints table and every table of every
 * module in `projections/index.ts`, composed from the modules' own table types. A module adds its
 * tables here by being listed there; nothing else names them.
 */
import type { Kysely, Transaction } from 'kysely';
import type { CheckpointTables } from './checkpoints';
import type { ProjectionModules } from './index';
import type { TablesOf } from './projection-module';

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

export type ReadModelDatabase = CheckpointTables & UnionToIntersection<TablesOf<ProjectionModules[number]>>;

/**
 * The read-model connection seen as holding only `Tables` (a module's own), for that module's
 * queries: what a query may name is then its own projection's tables, checked by the compiler.
 */
export function scoped<Tables>(db: Transaction<ReadModelDatabase>): ReadModelDatabase extends Tables ? Transaction<Tables> : never;
export function scoped<Tables>(db: Kysely<ReadModelDatabase>): ReadModelDatabase extends Tables ? Kysely<Tables> : never;
export function scoped(db: Kysely<ReadModelDatabase>): never {
  return db as never;
}
