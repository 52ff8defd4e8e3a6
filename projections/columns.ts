/**
 * Column types every projection's tables share. A leaf: the tables of each projection import from
 * here and nothing else, so the read-model database type can be composed from them without a cycle.
 *
 * Every column type is chosen to behave the same on SQLite and PostgreSQL: JSON is stored as text,
 * booleans as 0/1 integers, timestamps as the ISO-8601 strings the events carry (they sort
 * lexically), amounts as 64-bit integers of minor units.
 */
import type { ColumnType } from 'kysely';

/**
 * A global event position, for a stable newest-first order when timestamps tie. Written exactly as
 * a bigint and only ever compared inside SQL: read back into JavaScript, a position beyond 2^53
 * would lose precision.
 */
export type PositionColumn = ColumnType<never, bigint, bigint>;

/** A column of a view: nothing is ever written to it. */
export type ViewColumn<T> = ColumnType<T, never, never>;
