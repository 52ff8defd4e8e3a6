import type { SchemaDb } from '../projection-module';

export async function migrateTransactions(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('transactions')
    .ifNotExists()
    .addColumn('operation_id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('payer_action', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_position', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transactions_payment_idx')
    .ifNotExists()
    .on('transactions')
    .columns(['payment_id', 'created_position'])
    .execute();
  await db.schema
    .createIndex('transactions_merchant_created_idx')
    .ifNotExists()
    .on('transactions')
    .columns(['merchant_id', 'created_at'])
    .execute();
  // The reconciler asks every 30 s for the few operations still unanswered: without it, a scan of every one.
  await db.schema.createIndex('transactions_status_idx').ifNotExists().on('transactions').columns(['status', 'updated_at']).execute();
}

export async function dropTransactions(db: SchemaDb): Promise<void> {
  await db.schema.dropTable('transactions').ifExists().execute();
}
