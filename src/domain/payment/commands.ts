/**
 * Commands of the payment decider. Time, ids and acquirer answers arrive as data, so deciding is
 * pure and every refused transition is testable without I/O.
 */
import type { PaymentMode } from '../merchant/events';
import type { PayerReturnData, PaymentInitiated, SettlementExtras } from './events';

/**
 * What the connector said about an authorization, as plain data. `reference` is the connector's
 * own identifier of its transaction; a `soft` decline may be retried with the next connector of
 * the payment's route (cascading).
 */
export type AuthorizationResult =
  | ({ outcome: 'success'; reference?: string; descriptor: string; rrn?: string; arn?: string; cardOnFileId?: string } & SettlementExtras)
  | { outcome: 'declined'; reference?: string; reason: string; soft?: boolean }
  /** `params`: the form fields the payer's browser posts to the ACS (3-D Secure v1: PaReq, MD, TermUrl). */
  | { outcome: 'challenge'; reference?: string; acsUrl: string; params: Record<string, string> }
  /**
   * A provider page. `display: 'qr'`: it shows a QR code (`params.qr_code`, the merchant may draw
   * it itself); `expiresAt`: when the provider gives up on the payer; `instructions`: what the page
   * shows the payer (payment details); `collects: 'otp'`: it takes a one-time code sent to the payer.
   */
  | {
      outcome: 'redirect';
      reference?: string;
      redirectUrl: string;
      display?: 'qr';
      params?: Record<string, string>;
      expiresAt?: string;
      instructions?: Record<string, string>;
      collects?: 'otp';
    }
  /** Accepted; the provider decides later (the payer confirms elsewhere). */
  | { outcome: 'pending'; reference?: string; instructions?: Record<string, string>; expiresAt?: string }
  | { outcome: 'unknown'; detail: string };

export type FollowUpResult = { outcome: 'success'; arn?: string } | { outcome: 'declined'; reason: string } | { outcome: 'unknown'; detail: string };

export interface InitiatePayment {
  type: 'InitiatePayment';
  /**
   * Everything PaymentInitiated records; `now` becomes its `initiatedAt`. `merchantPaymentMode`,
   * when given, is the MID's Payment Mode the payment must fit (not recorded).
   */
  data: Omit<PaymentInitiated['data'], 'initiatedAt'> & { now: string; merchantPaymentMode?: PaymentMode };
}

export interface RecordAuthorization {
  type: 'RecordAuthorization';
  data: { result: AuthorizationResult; now: string };
}

/** The payer came back from the ACS or the redirect page and the acquirer decided. */
export interface CompletePayerAction {
  type: 'CompletePayerAction';
  /** `threeDS` and `browser`: what the payer's return produced, recorded with the decision. */
  data: PayerReturnData & { result: AuthorizationResult; now: string };
}

/**
 * The payment's provider told the gateway later (a QR payment executed, a bank transfer rejected).
 * Only an undecided payment is changed by it: a duplicate, or one arriving after the payment was
 * decided, records nothing.
 */
export interface RecordProviderNotification {
  type: 'RecordProviderNotification';
  data: { result: AuthorizationResult; now: string };
}

/** The payer never came back from the ACS or redirect page in time. */
export interface ExpirePayerAction {
  type: 'ExpirePayerAction';
  data: { now: string; reason: string };
}

export interface RequestCapture {
  type: 'RequestCapture';
  /** amount/amountText absent: capture the whole hold. */
  data: { operationId: string; amount?: number; amountText?: string; now: string };
}

export interface RecordCapture {
  type: 'RecordCapture';
  data: { operationId: string; result: FollowUpResult; now: string };
}

export interface RequestVoid {
  type: 'RequestVoid';
  data: { operationId: string; now: string };
}

export interface RecordVoid {
  type: 'RecordVoid';
  data: { operationId: string; result: FollowUpResult; now: string };
}

/**
 * `refundsViaApi`: whether the payment's connector takes refunds through its API (a capability);
 * absent means it does.
 */
export interface RequestCreditVoid {
  type: 'RequestCreditVoid';
  data: { operationId: string; amount: number; amountText: string; refundsEnabled: boolean; refundsViaApi?: boolean; now: string };
}

/** Checkout refund: only of settled money, never a hold release. Recorded as a refund CreditVoidRequested. */
export interface RequestRefund {
  type: 'RequestRefund';
  data: { operationId: string; amount: number; amountText: string; refundsEnabled: boolean; refundsViaApi?: boolean; now: string };
}

export interface RecordCreditVoid {
  type: 'RecordCreditVoid';
  data: { operationId: string; result: FollowUpResult; now: string };
}

export type PaymentCommand =
  | InitiatePayment
  | RecordAuthorization
  | CompletePayerAction
  | RecordProviderNotification
  | ExpirePayerAction
  | RequestCapture
  | RecordCapture
  | RequestVoid
  | RecordVoid
  | RequestCreditVoid
  | RequestRefund
  | RecordCreditVoid;
