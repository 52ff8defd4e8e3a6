/**
 * A checkpoint for a subscriber that is not a projection (the notifier), kept beside the projections'
 * checkpoints so `GET /health` reports its lag too. Its work is idempotent, so the checkpoint only
 * saves replaying; it is written after the work, never before.
 */
import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { ReadModelDatabase } from './database-schema';

export function workerCheckpoint(db: Kysely<ReadModelDatabase>, name: string) {
  const upsert = (target: Kysely<ReadModelDatabase>, position: bigint) =>
    target
      .insertInto('projection_checkpoints')
      .values({ name, position: position.toString(), updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('name').doUpdateSet({ position: position.toString(), updated_at: new Date().toISOString() }))
      .execute();
  return {
    async load(): Promise<bigint | null> {
      const row = await db.selectFrom('projection_checkpoints').select('position').where('name', '=', name).executeTakeFirst();
      return row?.position ? BigInt(row.position) : null;
    },
    async save(position: bigint): Promise<void> {
      await upsert(db, position);
    },
    /**
     * Saves unless another writer holds the SQLite read models: then false at once, to be tried
     * again later. That writer is usually the projector, which runs at a lower priority and, while
     * the cores are busy, can hold its batch's write lock for a hundred milliseconds or more;
     * better-sqlite3 waits for a lock by stopping its thread, and the notifier's thread must not stop
     * for it. PostgreSQL locks the checkpoint's own row, which no projector writes: it just saves.
     */
    async trySave(position: bigint): Promise<boolean> {
      if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
        await upsert(db, position);
        return true;
      }
      // One connection throughout, so no other query of this thread runs without its busy timeout.
      return db.connection().execute(async (connection) => {
        const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
        const timeout = Number(rows[0]?.timeout ?? 0);
        await sql.raw('pragma busy_timeout = 0').execute(connection);
        try {
          await upsert(connection, position);
          return true;
        } catch (error) {
          if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
          throw error;
        } finally {
          await sql.raw(`pragma busy_timeout = ${timeout}`).execute(connection);
        }
      });
    },
  };
}
