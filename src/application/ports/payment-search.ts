/** Finding payments for operators (the dashboard's search): any combination of filters, newest first. */
import type { PaymentRecord } from './payment-read-model';

export interface PaymentSearchFilter {
  /** The payment id (`trans_id`); exact. */
  paymentId?: string;
  /** The merchant's order id; exact. */
  orderId?: string;
  merchantId?: string;
  /** Payment statuses (`settled`, `declined`, ...); any of them. */
  statuses?: string[];
  /** The card brand or the alternative method's name, as the read model records it; case-insensitive. */
  method?: string;
  channel?: string;
  /** Initiated at or after (ISO-8601 UTC). */
  from?: string;
  /** Initiated before (ISO-8601 UTC). */
  to?: string;
  /** Only payments older than this cursor (the `next` of a previous page). */
  before?: string;
  /** 1..200, default 50. */
  limit?: number;
}

export interface PaymentSearchPage {
  payments: PaymentRecord[];
  /** Cursor of the next (older) page; null on the last page. */
  next: string | null;
}

export interface PaymentSearch {
  searchPayments(filter: PaymentSearchFilter): Promise<PaymentSearchPage>;
}
