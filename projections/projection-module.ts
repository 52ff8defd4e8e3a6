/**
 * What every projection is: one folder `projections/<name>/` whose `module.ts` exports a
 * `ProjectionModule`. Every member is required, so the compiler lists what a new projection owes:
 * its name, the tables it owns, how to create and drop them, and how events change their rows.
 * `projections/index.ts` lists the modules once; migrating, dropping, projecting, rebuilding and
 * verifying all go over that list, and the read-model database type is composed from it.
 */
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../src/application/ports/event-store';

/**
 * A connection for DDL. Schema statements are not checked against table types anyway, and a
 * module's migration must also run on a database whose tables are older than its types.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SchemaDb = Kysely<any>;

/** What the projector applies: a name (its checkpoint) and a batch handler. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Projection<Tables = any> {
  /** Names the projection's checkpoint row and what operators pass to `projections rebuild`. */
  readonly name: string;
  /**
   * Every table whose rows only this projection's `apply` writes. `projections rebuild` replays the
   * projection into scratch copies of exactly these tables (copied from the live definitions) and
   * swaps them in; `projections verify` diffs them. A table left out would keep stale rows after a
   * rebuild. Views are not listed: they hold no rows.
   */
  readonly tables: readonly (keyof Tables & string)[];
  /**
   * Applies a batch of events in global order, inside the transaction that also advances this
   * projection's checkpoint. Must ignore event types it does not know. Its tables must be named
   * through the query builder (not inside raw SQL text), so a rebuild can point them at scratch
   * copies, and a row must depend only on the events, never on the clock or on another
   * projection's tables (the transaction's type only knows this projection's), so a replay gives
   * the same rows.
   */
  apply(trx: Transaction<Tables>, events: StoredEvent[]): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ProjectionModule<Tables = any> extends Projection<Tables> {
  /**
   * Creates the projection's tables, indexes and views, and upgrades those an earlier release
   * created. Runs on every start, from several processes at once (on PostgreSQL under one advisory
   * lock), on databases of any earlier release: every step must be idempotent (`if not exists`, a
   * column added only when missing). Nothing records which steps ran, so never rename or remove one.
   */
  migrate(db: SchemaDb): Promise<void>;
  /** Drops everything `migrate` creates (views before the tables they read). */
  drop(db: SchemaDb): Promise<void>;
}

/** The tables a module owns, as its `Tables` type says. */
export type TablesOf<M> = M extends ProjectionModule<infer Tables> ? Tables : never;
