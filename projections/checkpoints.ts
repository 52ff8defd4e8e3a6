/**
 * The checkpoint of every projection (and of workers that follow the log, such as the notifier):
 * shared by all of them, owned by none, so it is created before and dropped after every module.
 */
import type { SchemaDb } from './projection-module';

export interface ProjectionCheckpointsTable {
  name: string;
  /** Decimal text of the last applied global position (text keeps any bigint exact); null before the first. */
  position: string | null;
  updated_at: string;
}

export interface CheckpointTables {
  projection_checkpoints: ProjectionCheckpointsTable;
}

export async function createCheckpointTable(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('projection_checkpoints')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
