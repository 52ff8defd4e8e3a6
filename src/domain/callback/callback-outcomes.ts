/**
 * What one payment event tells a merchant, in the words of each kind of callback: the part of a
 * callback that depends on the event. callback-table.ts says which events give which; each kind's
 * content builder lays the outcome and the payment out as form fields.
 */
import type { CheckoutCallbackStatus, CheckoutCallbackType } from './checkout-callback';
import type { PaymentStatus } from '../payment/state';

/** The kinds of callback: by the payment's channel, and a payout made with a method apart. */
export type CallbackFamily = 's2s_card' | 's2s_apm' | 'payout' | 'checkout';

export type SaleAction = 'SALE' | 'RECURRING_SALE' | 'RECURRING_DEBIT';

/** S2S CARD and S2S APM callbacks. */
export interface S2sOutcome {
  action: SaleAction | 'CAPTURE' | 'VOID' | 'CREDITVOID';
  result: 'SUCCESS' | 'DECLINED' | 'REDIRECT' | 'INIT' | 'UNDEFINED';
  /** When the event reports an attempt rather than where the payment stands now. */
  status?: PaymentStatus;
  /** Minor units of the operation. */
  amount: number;
  at: string;
  declineReason?: string;
}

/** Payout (CREDIT2VIRTUAL) callbacks. */
export interface PayoutOutcome {
  result: 'SUCCESS' | 'DECLINED' | 'UNDEFINED';
  status: 'SETTLED' | 'DECLINED' | 'PREPARE';
  at: string;
  declineReason?: string;
}

/** Checkout callbacks. */
export interface CheckoutOutcome {
  type: CheckoutCallbackType;
  status: CheckoutCallbackStatus;
  at: string;
  reason?: string;
  /** When the event reports an attempt rather than where the payment stands now. */
  orderStatus?: 'decline';
}

export interface FamilyOutcome {
  s2s_card: S2sOutcome;
  s2s_apm: S2sOutcome;
  payout: PayoutOutcome;
  checkout: CheckoutOutcome;
}
