import { PostgresAdapter, sql } from 'kysely';
import type { SchemaDb } from '../projection-module';

export async function migratePayments(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('payments')
    .ifNotExists()
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_text', 'text', (c) => c.notNull())
    .addColumn('held_amount', 'bigint', (c) => c.notNull())
    .addColumn('settled_amount', 'bigint', (c) => c.notNull())
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull())
    .addColumn('reversed_amount', 'bigint', (c) => c.notNull())
    .addColumn('descriptor', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('card_mask', 'text', (c) => c.notNull())
    .addColumn('card_brand', 'text', (c) => c.notNull())
    .addColumn('card_exp_month', 'text', (c) => c.notNull())
    .addColumn('card_exp_year', 'text', (c) => c.notNull())
    .addColumn('card_token', 'text')
    .addColumn('payer_email', 'text')
    .addColumn('term_url_3ds', 'text')
    .addColumn('notification_url', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('redirect_params', 'text')
    .addColumn('initiated_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('initiated_position', 'bigint', (c) => c.notNull())
    .addColumn('stream_version', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payments_merchant_order_idx')
    .ifNotExists()
    .on('payments')
    .columns(['merchant_id', 'order_id', 'initiated_at'])
    .execute();
  // Operators list the newest payments first (the dashboard's search), whatever else they filter by.
  await db.schema.createIndex('payments_initiated_position_idx').ifNotExists().on('payments').columns(['initiated_position']).execute();
  // And one merchant's newest first: without it the search sorted every payment the merchant ever had.
  await db.schema
    .createIndex('payments_merchant_position_idx')
    .ifNotExists()
    .on('payments')
    .columns(['merchant_id', 'initiated_position'])
    .execute();
  // An operator may search an order id without naming the merchant (a support ticket's number).
  await db.schema.createIndex('payments_order_idx').ifNotExists().on('payments').columns(['order_id']).execute();
  await addPaymentColumns(db);
  // The payer-action expiry finds steps whose provider gave a deadline (a QR code's lifetime).
  await db.schema.createIndex('payments_expires_at_idx').ifNotExists().on('payments').columns(['expires_at']).execute();
  // Expiry and reconciliation (every 30 s) and sandbox payouts (every second) ask for the few payments
  // still open; without it each question scans every payment ever made (100 ms at 50,000 payments).
  await db.schema.createIndex('payments_phase_idx').ifNotExists().on('payments').columns(['phase', 'updated_at']).execute();
}

/** Columns the payments table gained after its first release; idempotent (SQLite has no `add column if not exists`). */
async function addPaymentColumns(db: SchemaDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table payments add column if not exists expires_at text`.execute(db);
    // PostgreSQL migrates inside one transaction (database.ts): the column and its values come together.
    const method = await sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'payments' and column_name = 'method'`.execute(db);
    if (method.rows.length === 0) {
      await sql`alter table payments add column method text not null default ''`.execute(db);
      await sql`update payments set method = coalesce(cast(state as jsonb) #>> '{method,brand}', card_brand)`.execute(db);
    }
    return;
  }
  const columns = await sql<{ name: string }>`select name from pragma_table_info('payments')`.execute(db);
  if (!columns.rows.some((c) => c.name === 'expires_at')) await sql`alter table payments add column expires_at text`.execute(db);
  if (!columns.rows.some((c) => c.name === 'method')) {
    // In one transaction, so a crash between the two cannot leave the column without its values.
    await db.transaction().execute(async (trx) => {
      await sql`alter table payments add column method text not null default ''`.execute(trx);
      await sql`update payments set method = coalesce(json_extract(state, '$.method.brand'), card_brand)`.execute(trx);
    });
  }
}

export async function dropPayments(db: SchemaDb): Promise<void> {
  await db.schema.dropTable('payments').ifExists().execute();
}
