/**
 * Reading the ledger: balances per merchant, currency and account as of a time, a payment's
 * postings and balances, and the posting sets that do not sum to zero (there should be none).
 * Sums are cast back to bigint in SQL, so both dialects hand back numbers of minor units.
 */
import { type Kysely, sql } from 'kysely';
import type { BalanceFilter, LedgerBalance, LedgerReadModel } from '../../src/application/ports/ledger-read-model';
import type {
  DailyApprovalRate,
  DailyVolume,
  LedgerReports,
  PaymentPosting,
  RefundRate,
  ReportFilter,
} from '../../src/application/ports/ledger-reports';
import { LEDGER_ACCOUNTS, type LedgerAccount } from '../../src/domain/ledger/accounts';
import type { LedgerTables } from './tables';

export type { BalanceFilter, LedgerBalance };

/** Any read-model connection, seeing only the ledger's tables. */
const ledgerOf = <DB extends LedgerTables>(db: Kysely<DB>): Kysely<LedgerTables> => db as unknown as Kysely<LedgerTables>;

export interface LedgerPosting {
  postingSetId: string;
  line: number;
  merchantId: string;
  currency: string;
  account: LedgerAccount;
  amount: number;
  paymentId: string;
  operationId: string | null;
  eventType: string;
  occurredAt: string;
}

export type AccountBalances = Record<LedgerAccount, number>;

export interface PaymentLedger {
  postings: LedgerPosting[];
  /** Every account, 0 where the payment posted nothing. */
  balances: AccountBalances;
}

const sumOfAmounts = sql<number>`cast(sum(amount) as bigint)`;

export const zeroBalances = (): AccountBalances =>
  Object.fromEntries(LEDGER_ACCOUNTS.map((account) => [account, 0])) as AccountBalances;

/**
 * Balance of every account with postings, ordered by merchant, currency and account. Read from the
 * daily totals, so it costs days rather than postings; as of a time, the days before its day from
 * the totals and that day's postings up to the time itself.
 */
export async function ledgerBalances<DB extends LedgerTables>(from: Kysely<DB>, filter: BalanceFilter = {}): Promise<LedgerBalance[]> {
  const db = ledgerOf(from);
  let days = db.selectFrom('ledger_daily_totals').select(['merchant_id', 'currency', 'account', 'amount']);
  if (filter.merchantId !== undefined) days = days.where('merchant_id', '=', filter.merchantId);
  if (filter.currency !== undefined) days = days.where('currency', '=', filter.currency);
  let lines = days;
  if (filter.asOf !== undefined) {
    // Event times are ISO-8601 UTC strings of one shape, so comparing the text compares the instants.
    const asOf = filter.asOf.toISOString();
    const day = asOf.slice(0, 10);
    let sameDay = db
      .selectFrom('ledger_postings')
      .select(['merchant_id', 'currency', 'account', 'amount'])
      // Both forms of "that day": the day's index serves all merchants, the balance index one merchant's currency.
      .where(sql<string>`substr(occurred_at, 1, 10)`, '=', day)
      .where('occurred_at', '>=', day)
      .where('occurred_at', '<=', asOf);
    if (filter.currency !== undefined) sameDay = sameDay.where('currency', '=', filter.currency);
    if (filter.merchantId !== undefined) {
      // Without the currency, the balance index would hand over all the merchant's postings ever
      // made; compared as an expression, the merchant is checked on the day's postings instead.
      sameDay = filter.currency !== undefined
        ? sameDay.where('merchant_id', '=', filter.merchantId)
        : sameDay.where(sql<string>`merchant_id || ''`, '=', filter.merchantId);
    }
    lines = days.where('day', '<', day).unionAll(sameDay);
  }
  const rows = await db
    .selectFrom(lines.as('lines'))
    .select(['merchant_id', 'currency', 'account', sumOfAmounts.as('balance')])
    .groupBy(['merchant_id', 'currency', 'account'])
    .orderBy('merchant_id')
    .orderBy('currency')
    .orderBy('account')
    .execute();
  return rows.map((row) => ({
    merchantId: row.merchant_id,
    currency: row.currency,
    account: row.account as LedgerAccount,
    balance: Number(row.balance),
  }));
}

/** A payment's postings in the order they happened, and its balance on every account. */
export async function paymentLedger<DB extends LedgerTables>(from: Kysely<DB>, paymentId: string): Promise<PaymentLedger> {
  const db = ledgerOf(from);
  const rows = await db
    .selectFrom('ledger_postings')
    .select(['posting_set_id', 'line', 'merchant_id', 'currency', 'account', 'amount', 'payment_id', 'operation_id', 'event_type', 'occurred_at'])
    .where('payment_id', '=', paymentId)
    .orderBy('event_position')
    .orderBy('line')
    .execute();
  const balances = zeroBalances();
  const postings = rows.map((row): LedgerPosting => {
    const amount = Number(row.amount);
    const account = row.account as LedgerAccount;
    balances[account] = (balances[account] ?? 0) + amount;
    return {
      postingSetId: row.posting_set_id,
      line: Number(row.line),
      merchantId: row.merchant_id,
      currency: row.currency,
      account,
      amount,
      paymentId: row.payment_id,
      operationId: row.operation_id,
      eventType: row.event_type,
      occurredAt: row.occurred_at,
    };
  });
  return { postings, balances };
}

/** Balances of every payment with postings, keyed by payment id: one query for a whole check. */
export async function balancesByPayment<DB extends LedgerTables>(from: Kysely<DB>): Promise<Map<string, AccountBalances>> {
  const db = ledgerOf(from);
  const rows = await db
    .selectFrom('ledger_postings')
    .select(['payment_id', 'account', sumOfAmounts.as('balance')])
    .groupBy(['payment_id', 'account'])
    .execute();
  const result = new Map<string, AccountBalances>();
  for (const row of rows) {
    let balances = result.get(row.payment_id);
    if (!balances) result.set(row.payment_id, (balances = zeroBalances()));
    balances[row.account as LedgerAccount] = Number(row.balance);
  }
  return result;
}

/** Posting sets whose lines do not sum to zero, with their sum; empty when the ledger balances. */
export async function unbalancedPostingSets<DB extends LedgerTables>(from: Kysely<DB>): Promise<{ postingSetId: string; sum: number }[]> {
  const db = ledgerOf(from);
  const rows = await db
    .selectFrom('ledger_postings')
    .select(['posting_set_id', sumOfAmounts.as('total')])
    .groupBy('posting_set_id')
    .having(sql`sum(amount)`, '<>', 0)
    .execute();
  return rows.map((row) => ({ postingSetId: row.posting_set_id, sum: Number(row.total) }));
}

export class LedgerQueries implements LedgerReadModel {
  constructor(private readonly db: Kysely<LedgerTables>) {}

  balances(filter: BalanceFilter = {}): Promise<LedgerBalance[]> {
    return ledgerBalances(this.db, filter);
  }
}

/** The analyst views (migrations.ts, docs/ledger.md) read for charts, and a payment's postings. */
export class LedgerReportQueries extends LedgerQueries implements LedgerReports {
  constructor(private readonly reportDb: Kysely<LedgerTables>) {
    super(reportDb);
  }

  async dailyVolume(filter: ReportFilter): Promise<DailyVolume[]> {
    let query = this.reportDb
      .selectFrom('v_daily_volume')
      .select(['merchant_id', 'currency', 'day', 'settled_count', 'settled_amount', 'refund_count', 'refunded_amount', 'void_count', 'voided_amount', 'net_amount', 'payout_count', 'paid_out_amount']);
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.currency !== undefined) query = query.where('currency', '=', filter.currency);
    if (filter.fromDay !== undefined) query = query.where('day', '>=', filter.fromDay);
    if (filter.toDay !== undefined) query = query.where('day', '<=', filter.toDay);
    const rows = await query.orderBy('day').orderBy('currency').orderBy('merchant_id').execute();
    return rows.map((r) => ({
      merchantId: r.merchant_id,
      currency: r.currency,
      day: r.day,
      settledCount: Number(r.settled_count),
      settledAmount: Number(r.settled_amount),
      refundCount: Number(r.refund_count),
      refundedAmount: Number(r.refunded_amount),
      voidCount: Number(r.void_count),
      voidedAmount: Number(r.voided_amount),
      netAmount: Number(r.net_amount),
      payoutCount: Number(r.payout_count),
      paidOutAmount: Number(r.paid_out_amount),
    }));
  }

  async dailyApprovalRates(filter: ReportFilter): Promise<DailyApprovalRate[]> {
    let query = this.reportDb.selectFrom('v_approval_rate_daily').select(['merchant_id', 'currency', 'day', 'approved_count', 'declined_count']);
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.currency !== undefined) query = query.where('currency', '=', filter.currency);
    if (filter.fromDay !== undefined) query = query.where('day', '>=', filter.fromDay);
    if (filter.toDay !== undefined) query = query.where('day', '<=', filter.toDay);
    const rows = await query.orderBy('day').orderBy('currency').orderBy('merchant_id').execute();
    return rows.map((r) => ({
      merchantId: r.merchant_id,
      currency: r.currency,
      day: r.day,
      approvedCount: Number(r.approved_count),
      declinedCount: Number(r.declined_count),
    }));
  }

  async refundRates(filter: Omit<ReportFilter, 'fromDay' | 'toDay'>): Promise<RefundRate[]> {
    let query = this.reportDb
      .selectFrom('v_refund_rate')
      .select(['merchant_id', 'currency', 'settled_count', 'settled_amount', 'refund_count', 'refunded_amount']);
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.currency !== undefined) query = query.where('currency', '=', filter.currency);
    const rows = await query.orderBy('currency').orderBy('merchant_id').execute();
    return rows.map((r) => ({
      merchantId: r.merchant_id,
      currency: r.currency,
      settledCount: Number(r.settled_count),
      settledAmount: Number(r.settled_amount),
      refundCount: Number(r.refund_count),
      refundedAmount: Number(r.refunded_amount),
    }));
  }

  async postingsOfPayment(paymentId: string): Promise<PaymentPosting[]> {
    const { postings } = await paymentLedger(this.reportDb, paymentId);
    return postings.map((p) => ({
      postingSetId: p.postingSetId,
      line: p.line,
      currency: p.currency,
      account: p.account,
      amount: p.amount,
      operationId: p.operationId,
      eventType: p.eventType,
      occurredAt: p.occurredAt,
    }));
  }
}
