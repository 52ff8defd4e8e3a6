/**
 * The ledger's tables, their sums and its analyst views, created or brought up to date step by step.
 */
import { sql, type RawBuilder } from 'kysely';
import type { SchemaDb } from '../projection-module';
import { createLedgerViews, LEDGER_VIEWS } from './views';

/** The postings: every line of every posting set, with the indexes its readers need. */
async function createPostings(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('ledger_postings')
    .ifNotExists()
    .addColumn('posting_set_id', 'text', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_position', 'bigint', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_postings_pk', ['posting_set_id', 'line'])
    .execute();
  // "Balances of merchant X in currency C as of T" reads only this index: the amounts are in it.
  await db.schema
    .createIndex('ledger_postings_balance_idx')
    .ifNotExists()
    .on('ledger_postings')
    .columns(['merchant_id', 'currency', 'occurred_at', 'account', 'amount'])
    .execute();
  await db.schema
    .createIndex('ledger_postings_payment_idx')
    .ifNotExists()
    .on('ledger_postings')
    .columns(['payment_id', 'event_position'])
    .execute();
  // The charts ask v_daily_volume for a range of days; the day is this expression in the view, so
  // the range reaches the postings through it instead of every posting ever made being read.
  await db.schema
    .createIndex('ledger_postings_day_idx')
    .ifNotExists()
    .on('ledger_postings')
    .expression(sql`substr(occurred_at, 1, 10)`)
    .execute();
}

/** What the posting rules remember of each payment between its events. */
async function createPayments(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('ledger_payments')
    .ifNotExists()
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('initiated_at', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('held_amount', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_payments_merchant_idx')
    .ifNotExists()
    .on('ledger_payments')
    .columns(['merchant_id', 'currency', 'decided_at'])
    .execute();
  // The approval rates read the daily decisions now: nothing asks for payments by their day.
  await db.schema.dropIndex('ledger_payments_day_idx').ifExists().execute();
}

/** The postings summed per day, account, event type and sign: what the postings' views read. */
async function createDailyTotals(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('ledger_daily_totals')
    .ifNotExists()
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('direction', 'integer', (c) => c.notNull())
    .addColumn('line_count', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_daily_totals_pk', ['merchant_id', 'currency', 'day', 'account', 'event_type', 'direction'])
    .execute();
  // The charts' range of days, all merchants together.
  await db.schema.createIndex('ledger_daily_totals_day_idx').ifNotExists().on('ledger_daily_totals').columns(['day']).execute();
  const day = sql`substr(occurred_at, 1, 10)`;
  const direction = sql`case when amount > 0 then 1 when amount < 0 then -1 else 0 end`;
  await fillOnce(
    db,
    'ledger_daily_totals',
    sql`
    insert into ledger_daily_totals (merchant_id, currency, day, account, event_type, direction, line_count, amount)
    select merchant_id, currency, ${day}, account, event_type, ${direction}, count(*), cast(sum(amount) as bigint)
    from ledger_postings
    where not exists (select 1 from ledger_daily_totals)
    group by merchant_id, currency, ${day}, account, event_type, ${direction}`,
  );
}

/** The payments decided per day, kind and outcome: what the approval rates read. */
async function createDailyDecisions(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('ledger_daily_decisions')
    .ifNotExists()
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('payment_count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_daily_decisions_pk', ['merchant_id', 'currency', 'day', 'kind', 'outcome'])
    .execute();
  await db.schema.createIndex('ledger_daily_decisions_day_idx').ifNotExists().on('ledger_daily_decisions').columns(['day']).execute();
  const decidedDay = sql`substr(decided_at, 1, 10)`;
  await fillOnce(
    db,
    'ledger_daily_decisions',
    sql`
    insert into ledger_daily_decisions (merchant_id, currency, day, kind, outcome, payment_count)
    select merchant_id, currency, ${decidedDay}, kind, outcome, count(*)
    from ledger_payments
    where outcome in ('approved', 'declined') and not exists (select 1 from ledger_daily_decisions)
    group by merchant_id, currency, ${decidedDay}, kind, outcome`,
  );
}

/** In order: the sums are filled from the tables before them, and the views read the sums. */
const MIGRATION_STEPS: ReadonlyArray<(db: SchemaDb) => Promise<void>> = [
  createPostings,
  createPayments,
  createDailyTotals,
  createDailyDecisions,
  createLedgerViews,
];

export async function migrateLedger(db: SchemaDb): Promise<void> {
  for (const step of MIGRATION_STEPS) await step(db);
}

/**
 * A table of sums that an earlier release did not keep gets them from the rows it sums, once: the
 * projection adds to it with every row it writes, so it is empty while those rows are not only
 * before this ran. `fill` is one statement that writes only into an empty table, so a crash or a
 * second process migrating at the same time cannot add twice.
 */
async function fillOnce(db: SchemaDb, table: 'ledger_daily_totals' | 'ledger_daily_decisions', fill: RawBuilder<unknown>): Promise<void> {
  // Asked first: the statement's own condition would still walk every row it sums on every start.
  if ((await db.selectFrom(table).select(sql`1`.as('one')).limit(1).execute()).length > 0) return;
  await fill.execute(db);
}

/** Views first: PostgreSQL refuses to drop a table a view still reads. */
export async function dropLedger(db: SchemaDb): Promise<void> {
  for (const view of Object.keys(LEDGER_VIEWS)) await sql.raw(`drop view if exists ${view}`).execute(db);
  for (const table of ['ledger_postings', 'ledger_payments', 'ledger_daily_totals', 'ledger_daily_decisions']) await db.schema.dropTable(table).ifExists().execute();
}
