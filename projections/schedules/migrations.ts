import type { SchemaDb } from '../projection-module';

export async function migrateSchedules(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('schedules')
    .ifNotExists()
    .addColumn('schedule_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('interval_length', 'integer', (c) => c.notNull())
    .addColumn('interval_unit', 'text', (c) => c.notNull())
    .addColumn('payments_count', 'integer', (c) => c.notNull())
    .addColumn('delayed_first_payment', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('detached_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scheduled_chains')
    .ifNotExists()
    .addColumn('chain_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('schedule_id', 'text', (c) => c.notNull())
    .addColumn('init_payment_id', 'text', (c) => c.notNull())
    .addColumn('first_due_date', 'text', (c) => c.notNull())
    .addColumn('anchor_day', 'integer', (c) => c.notNull())
    .addColumn('next_sequence', 'integer', (c) => c.notNull())
    .addColumn('next_due_date', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('end_reason', 'text')
    .addColumn('payments_started', 'integer', (c) => c.notNull())
    .addColumn('payments_skipped', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scheduled_chains_due_idx').ifNotExists().on('scheduled_chains').columns(['status', 'next_due_date']).execute();
  await db.schema.createIndex('scheduled_chains_schedule_idx').ifNotExists().on('scheduled_chains').columns(['schedule_id']).execute();
}

export async function dropSchedules(db: SchemaDb): Promise<void> {
  for (const table of ['schedules', 'scheduled_chains']) await db.schema.dropTable(table).ifExists().execute();
}
