import type { SchemaDb } from '../projection-module';

export async function migrateCallbackDeliveries(db: SchemaDb): Promise<void> {
  await createDeliveries(db);
  await indexDeliveries(db);
  await createAttempts(db);
}

async function createDeliveries(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('callback_deliveries')
    .ifNotExists()
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('source_event_type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('scheduled_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('scheduled_position', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .execute();
}

async function indexDeliveries(db: SchemaDb): Promise<void> {
  await db.schema
    .createIndex('callback_deliveries_due_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('callback_deliveries_payment_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .columns(['payment_id', 'scheduled_position'])
    .execute();
  // The operator's listings show the newest deliveries first, all or one merchant's (queries.ts
  // `list`): read in that order and stopped at the limit instead of sorting the whole table.
  await db.schema
    .createIndex('callback_deliveries_scheduled_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .column('scheduled_position')
    .execute();
  await db.schema
    .createIndex('callback_deliveries_merchant_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .columns(['merchant_id', 'scheduled_position'])
    .execute();
  // The failing ones newest first, all or one merchant's (`list` with `failed`): each status is read
  // in order up to the limit.
  await db.schema
    .createIndex('callback_deliveries_status_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .columns(['status', 'scheduled_position'])
    .execute();
  await db.schema
    .createIndex('callback_deliveries_merchant_status_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .columns(['merchant_id', 'status', 'scheduled_position'])
    .execute();
}

async function createAttempts(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('callback_attempts')
    .ifNotExists()
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('timed_out', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('callback_attempts_pk', ['delivery_id', 'attempt'])
    .execute();
  await db.schema
    .createIndex('callback_attempts_url_timeouts_idx')
    .ifNotExists()
    .on('callback_attempts')
    .columns(['url', 'timed_out', 'finished_at'])
    .execute();
}

export async function dropCallbackDeliveries(db: SchemaDb): Promise<void> {
  for (const table of ['callback_deliveries', 'callback_attempts']) await db.schema.dropTable(table).ifExists().execute();
}
