/**
 * The ledger's analyst views (docs/ledger.md describes them for analysts), and their creation.
 */
import { PostgresAdapter, sql } from 'kysely';
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

/**
 * Views hold no data, so a definition changed in code replaces the stored one on the next start.
 * PostgreSQL has `create or replace view` for that (the migration runs under its lock); SQLite has
 * not, so a view whose stored text differs is dropped and created again in one transaction.
 */
export async function createLedgerViews(db: SchemaDb): Promise<void> {
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
