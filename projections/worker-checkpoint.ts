/**
 * A checkpoint for a subscriber that is not a projection (the notifier), kept beside the projections'
 * checkpoints so `GET /health` reports its lag too. Its work is idempotent, so the checkpoint only
 * saves replaying; it is written after the work, never before.
 */
import type { Kysely } from 'kysely';
import type { ReadModelDatabase } from './database-schema';

export function workerCheckpoint(db: Kysely<ReadModelDatabase>, name: string) {
  return {
    async load(): Promise<bigint | null> {
      const row = await db.selectFrom('projection_checkpoints').select('position').where('name', '=', name).executeTakeFirst();
      return row?.position ? BigInt(row.position) : null;
    },
    async save(position: bigint): Promise<void> {
      await db
        .insertInto('projection_checkpoints')
        .values({ name, position: position.toString(), updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('name').doUpdateSet({ position: position.toString(), updated_at: new Date().toISOString() }))
        .execute();
    },
  };
}
