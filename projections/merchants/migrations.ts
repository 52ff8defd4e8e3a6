import { PostgresAdapter, sql } from 'kysely';
import type { SchemaDb } from '../projection-module';

export async function migrateMerchants(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('merchants')
    .ifNotExists()
    .addColumn('merchant_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_key', 'text', (c) => c.notNull().unique())
    .addColumn('merchant_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_ciphertext', 'text', (c) => c.notNull())
    .addColumn('payment_mode', 'text', (c) => c.notNull())
    .addColumn('notification_url', 'text')
    .addColumn('ip_allowlist', 'text', (c) => c.notNull())
    .addColumn('refunds_enabled', 'integer', (c) => c.notNull())
    .addColumn('registered_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await addMerchantColumns(db);
}

/**
 * Columns the merchants table gained after its first release, added to read-model databases
 * created before them. Idempotent; on PostgreSQL it runs under the migration lock.
 */
async function addMerchantColumns(db: SchemaDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table merchants add column if not exists protocol_mapping text`.execute(db);
    await sql`alter table merchants add column if not exists override_link_target text`.execute(db);
    await sql`alter table merchants add column if not exists card_on_file_support integer`.execute(db);
    await sql`alter table merchants add column if not exists connectors text`.execute(db);
    await sql`alter table merchants add column if not exists methods text`.execute(db);
    return;
  }
  // SQLite has no `add column if not exists`.
  const columns = await sql<{ name: string }>`select name from pragma_table_info('merchants')`.execute(db);
  if (!columns.rows.some((c) => c.name === 'protocol_mapping')) {
    await sql`alter table merchants add column protocol_mapping text`.execute(db);
  }
  if (!columns.rows.some((c) => c.name === 'override_link_target')) {
    await sql`alter table merchants add column override_link_target text`.execute(db);
  }
  if (!columns.rows.some((c) => c.name === 'card_on_file_support')) {
    await sql`alter table merchants add column card_on_file_support integer`.execute(db);
  }
  if (!columns.rows.some((c) => c.name === 'connectors')) {
    await sql`alter table merchants add column connectors text`.execute(db);
  }
  if (!columns.rows.some((c) => c.name === 'methods')) {
    await sql`alter table merchants add column methods text`.execute(db);
  }
}

export async function dropMerchants(db: SchemaDb): Promise<void> {
  await db.schema.dropTable('merchants').ifExists().execute();
}
