/**
 * The ledger's analyst views (docs/ledger.md) and one payment's postings, for the dashboard's
 * charts and payment pages. Amounts are signed integer minor units; days are UTC `YYYY-MM-DD`.
 */
import type { LedgerAccount } from '../../domain/ledger/accounts';

export interface ReportFilter {
  merchantId?: string;
  currency?: string;
  /** First day, inclusive. */
  fromDay?: string;
  /** Last day, inclusive. */
  toDay?: string;
}

export interface DailyVolume {
  merchantId: string;
  currency: string;
  day: string;
  settledCount: number;
  settledAmount: number;
  refundCount: number;
  refundedAmount: number;
  voidCount: number;
  voidedAmount: number;
  /** The day's change of merchant_receivable: settled - refunded - voided - paid out. */
  netAmount: number;
  /** Payouts settled that day (CREDIT2VIRTUAL, card credits), and their sum. */
  payoutCount: number;
  paidOutAmount: number;
}

export interface DailyApprovalRate {
  merchantId: string;
  currency: string;
  day: string;
  approvedCount: number;
  declinedCount: number;
}

export interface RefundRate {
  merchantId: string;
  currency: string;
  settledCount: number;
  settledAmount: number;
  refundCount: number;
  refundedAmount: number;
}

export interface PaymentPosting {
  postingSetId: string;
  line: number;
  currency: string;
  account: LedgerAccount;
  amount: number;
  operationId: string | null;
  eventType: string;
  occurredAt: string;
}

export interface LedgerReports {
  dailyVolume(filter: ReportFilter): Promise<DailyVolume[]>;
  dailyApprovalRates(filter: ReportFilter): Promise<DailyApprovalRate[]>;
  /** Over all time, per merchant and currency (days do not apply). */
  refundRates(filter: Omit<ReportFilter, 'fromDay' | 'toDay'>): Promise<RefundRate[]>;
  /** The payment's postings in the order they happened. */
  postingsOfPayment(paymentId: string): Promise<PaymentPosting[]>;
}
