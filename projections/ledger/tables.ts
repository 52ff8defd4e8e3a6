/**
 * Tables and analyst views of the ledger projection (docs/ledger.md describes them for analysts).
 * Same conventions as the other read models: amounts are 64-bit integers of minor units, times the
 * ISO-8601 UTC strings the events carry (so `substr(t, 1, 10)` is the UTC day on both dialects),
 * positions bigint and only compared inside SQL.
 */
import type { PositionColumn, ViewColumn } from '../columns';

export interface LedgerPostingsTable {
  /** Id of the event that moved the money: one posting set per event. */
  posting_set_id: string;
  /** 0-based line within the set. */
  line: number;
  merchant_id: string;
  currency: string;
  account: string;
  /** Signed minor units: positive adds to the account's balance, negative takes from it. */
  amount: number;
  /** The payment; empty for a top-up of the payout balance, which is no payment's. */
  payment_id: string;
  /** Capture, void, refund, reversal or top-up id; null for the payment's own sale or authorization. */
  operation_id: string | null;
  event_type: string;
  event_position: PositionColumn;
  /** Business time of the event (when the acquirer answered), not when the store recorded it. */
  occurred_at: string;
}

export interface LedgerPaymentsTable {
  payment_id: string;
  merchant_id: string;
  currency: string;
  kind: string;
  initiated_at: string;
  /** pending, approved or declined. */
  outcome: string;
  decided_at: string | null;
  /** The hold still open: equals the payment's `authorized_holds` balance. */
  held_amount: number;
}

/**
 * The postings summed per merchant, currency, UTC day, account, event type and sign: what balances
 * and the analyst views add up, so they read days instead of every posting ever made. Kept by the
 * projection in the transaction that writes the postings, from the postings it writes.
 */
export interface LedgerDailyTotalsTable {
  merchant_id: string;
  currency: string;
  /** UTC day of the postings' `occurred_at`, YYYY-MM-DD. */
  day: string;
  account: string;
  event_type: string;
  /** 1 for the lines that add to the account, -1 for those that take from it, 0 for lines of 0. */
  direction: number;
  line_count: number;
  /** Signed minor units: the sum of the lines' amounts. */
  amount: number;
}

/**
 * Payments decided per merchant, currency, UTC day of the decision, kind and outcome: what the
 * approval rates count, so they read days instead of every payment. A payment is decided once
 * (`pending` to approved or declined), and counted in the transaction that records its decision.
 */
export interface LedgerDailyDecisionsTable {
  merchant_id: string;
  currency: string;
  /** UTC day of `decided_at`, YYYY-MM-DD. */
  day: string;
  kind: string;
  /** approved or declined. */
  outcome: string;
  payment_count: number;
}

export interface DailyVolumeView {
  merchant_id: ViewColumn<string>;
  currency: ViewColumn<string>;
  /** UTC day, YYYY-MM-DD. */
  day: ViewColumn<string>;
  settled_count: ViewColumn<number>;
  settled_amount: ViewColumn<number>;
  refund_count: ViewColumn<number>;
  refunded_amount: ViewColumn<number>;
  void_count: ViewColumn<number>;
  voided_amount: ViewColumn<number>;
  /** settled - refunded - voided - paid out + topped up: the day's change of merchant_receivable. */
  net_amount: ViewColumn<number>;
  /** Payouts settled that day (CREDIT2VIRTUAL, card credits), and their sum (positive). */
  payout_count: ViewColumn<number>;
  paid_out_amount: ViewColumn<number>;
  /** Operators' top-ups of the payout balance that day, and their sum (positive). */
  top_up_count: ViewColumn<number>;
  topped_up_amount: ViewColumn<number>;
}

export interface ApprovalRateView {
  merchant_id: ViewColumn<string>;
  currency: ViewColumn<string>;
  approved_count: ViewColumn<number>;
  declined_count: ViewColumn<number>;
  /** approved / (approved + declined), between 0 and 1. */
  approval_rate: ViewColumn<number>;
}

export interface DailyApprovalRateView extends ApprovalRateView {
  day: ViewColumn<string>;
}

export interface RefundRateView {
  merchant_id: ViewColumn<string>;
  currency: ViewColumn<string>;
  settled_count: ViewColumn<number>;
  settled_amount: ViewColumn<number>;
  refund_count: ViewColumn<number>;
  refunded_amount: ViewColumn<number>;
  /** refunded_amount / settled_amount; null before anything settled. */
  refund_amount_rate: ViewColumn<number | null>;
  /** refund_count / settled_count; null before anything settled. */
  refund_count_rate: ViewColumn<number | null>;
}

export interface LedgerTables {
  ledger_postings: LedgerPostingsTable;
  ledger_payments: LedgerPaymentsTable;
  ledger_daily_totals: LedgerDailyTotalsTable;
  ledger_daily_decisions: LedgerDailyDecisionsTable;
  v_daily_volume: DailyVolumeView;
  v_approval_rate: ApprovalRateView;
  v_approval_rate_daily: DailyApprovalRateView;
  v_refund_rate: RefundRateView;
}
