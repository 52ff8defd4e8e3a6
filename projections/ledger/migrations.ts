/**
 * The ledger's tables and its analyst views (docs/ledger.md describes them for analysts).
 */
import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { SchemaDb } from '../projection-module';

/**
 * SQL that reads the same on SQLite and PostgreSQL: sums are cast back to bigint (PostgreSQL sums
 * bigints into numeric, which its driver hands back as text) and rates to double precision.
 * The postings' views read `ledger_daily_totals` (the postings summed per day, account, event type
 * and sign), so a condition on a line's sign is one on `direction`, and a count of lines is a sum
 * of `line_count`; the approval rates read `ledger_daily_decisions`, so a count of payments is a
 * sum of `payment_count`.
 */
// A payout's settlement takes from merchant_receivable (amount < 0): it is a payout, never a sale.
const settledLine = `account = 'merchant_receivable' and event_type in ('PaymentSettled', 'CaptureSucceeded') and direction > 0`;
const payoutLine = `account = 'paid_out'`;
// An operator's top-up of the payout balance: money brought in to pay out, never a sale.
const topUpLine = `account = 'topped_up'`;
// Approval rates are about payers' payments: a payout (kind credit) is the merchant paying out.
const notPayout = `kind <> 'credit'`;
const refundLine = `account = 'merchant_receivable' and event_type = 'RefundSucceeded'`;
const voidLine = `account = 'merchant_receivable' and event_type = 'PaymentVoided'`;
const countedWhere = (column: string) => (condition: string) => `cast(sum(case when ${condition} then ${column} else 0 end) as bigint)`;
const linesWhere = countedWhere('line_count');
const paymentsWhere = countedWhere('payment_count');
const approved = paymentsWhere(`outcome = 'approved'`);
const declined = paymentsWhere(`outcome = 'declined'`);
const sumWhere = (condition: string, sign = '') => `cast(sum(case when ${condition} then ${sign}amount else 0 end) as bigint)`;
const rate = (numerator: string, denominator: string) => `cast(${numerator} as double precision) / nullif(${denominator}, 0)`;

export const LEDGER_VIEWS: Readonly<Record<string, string>> = {
  v_daily_volume: `
    select merchant_id, currency, day,
      ${linesWhere(settledLine)} as settled_count,
      ${sumWhere(settledLine)} as settled_amount,
      ${linesWhere(refundLine)} as refund_count,
      ${sumWhere(refundLine, '-')} as refunded_amount,
      ${linesWhere(voidLine)} as void_count,
      ${sumWhere(voidLine, '-')} as voided_amount,
      ${sumWhere(`account = 'merchant_receivable'`)} as net_amount,
      ${linesWhere(payoutLine)} as payout_count,
      ${sumWhere(payoutLine)} as paid_out_amount,
      ${linesWhere(topUpLine)} as top_up_count,
      ${sumWhere(topUpLine, '-')} as topped_up_amount
    from ledger_daily_totals
    where account in ('merchant_receivable', 'paid_out', 'topped_up')
    group by merchant_id, currency, day`,
  v_approval_rate: `
    select merchant_id, currency,
      ${approved} as approved_count,
      ${declined} as declined_count,
      ${rate(approved, 'cast(sum(payment_count) as bigint)')} as approval_rate
    from ledger_daily_decisions
    where ${notPayout}
    group by merchant_id, currency`,
  v_approval_rate_daily: `
    select merchant_id, currency, day,
      ${approved} as approved_count,
      ${declined} as declined_count,
      ${rate(approved, 'cast(sum(payment_count) as bigint)')} as approval_rate
    from ledger_daily_decisions
    where ${notPayout}
    group by merchant_id, currency, day`,
  v_refund_rate: `
    select merchant_id, currency,
      ${linesWhere(settledLine)} as settled_count,
      ${sumWhere(settledLine)} as settled_amount,
      ${linesWhere(refundLine)} as refund_count,
      ${sumWhere(refundLine, '-')} as refunded_amount,
      ${rate(sumWhere(refundLine, '-'), sumWhere(settledLine))} as refund_amount_rate,
      ${rate(linesWhere(refundLine), linesWhere(settledLine))} as refund_count_rate
    from ledger_daily_totals
    where account = 'merchant_receivable'
    group by merchant_id, currency`,
};

export async function migrateLedger(db: SchemaDb): Promise<void> {
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

  await createLedgerViews(db);
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

/**
 * Views hold no data, so a definition changed in code replaces the stored one on the next start.
 * PostgreSQL has `create or replace view` for that (the migration runs under its lock); SQLite has
 * not, so a view whose stored text differs is dropped and created again in one transaction.
 */
async function createLedgerViews(db: SchemaDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const [name, body] of Object.entries(LEDGER_VIEWS)) await sql.raw(`create or replace view ${name} as ${body}`).execute(db);
    return;
  }
  for (const [name, body] of Object.entries(LEDGER_VIEWS)) {
    const statement = `create view ${name} as ${body}`;
    const stored = await sql<{ sql: string }>`select sql from sqlite_master where type = 'view' and name = ${name}`.execute(db);
    // SQLite keeps the statement's text, normalising only its first words.
    if (stored.rows[0]?.sql.endsWith(body)) continue;
    await db.transaction().execute(async (trx) => {
      await sql.raw(`drop view if exists ${name}`).execute(trx);
      await sql.raw(statement).execute(trx);
    });
  }
}

/** Views first: PostgreSQL refuses to drop a table a view still reads. */
export async function dropLedger(db: SchemaDb): Promise<void> {
  for (const view of Object.keys(LEDGER_VIEWS)) await sql.raw(`drop view if exists ${view}`).execute(db);
  for (const table of ['ledger_postings', 'ledger_payments', 'ledger_daily_totals', 'ledger_daily_decisions']) await db.schema.dropTable(table).ifExists().execute();
}
