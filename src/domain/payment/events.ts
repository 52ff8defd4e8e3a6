/**
 * Events of one payment stream (`payment-<payment id>`). Every type is past-tense and carries its
 * schema version in the store envelope (see PAYMENT_EVENT_SCHEMA_VERSION). Amounts are integer minor
 * units of the payment currency; the `*Text` fields keep the merchant's decimal string byte for byte,
 * because hashes and echoes use the raw string. No card number and no CVV ever appear here: only the
 * mask (first6******last4), brand, expiry and, for stored cards, an opaque vault token.
 */

export const PAYMENT_EVENT_SCHEMA_VERSION = 1;

export type PaymentKind = 'sale' | 'authorization';
export type PaymentChannel = 's2s_card';

export interface CardSnapshot {
  mask: string;
  brand: string;
  expMonth: string; // MM
  expYear: string; // YYYY
  /** Vault token when the card was stored (card_token / recurring), else null. */
  token: string | null;
}

export interface PayerSnapshot {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  address?: string;
  country?: string;
  state?: string;
  city?: string;
  zip?: string;
  ip?: string;
  birthDate?: string;
}

export interface PaymentInitiated {
  type: 'PaymentInitiated';
  data: {
    paymentId: string;
    merchantId: string;
    channel: PaymentChannel;
    kind: PaymentKind;
    orderId: string;
    orderDescription: string;
    currency: string;
    amount: number;
    amountText: string;
    card: CardSnapshot;
    payer: PayerSnapshot;
    termUrl3ds: string | null;
    notificationUrl: string | null;
    customData: Record<string, unknown> | null;
    parameters: Record<string, unknown> | null;
    recurringInit: boolean;
    initiatedAt: string;
  };
}

export interface PaymentSettled {
  type: 'PaymentSettled';
  data: { paymentId: string; amount: number; descriptor: string; settledAt: string };
}

export interface PaymentAuthorized {
  type: 'PaymentAuthorized';
  data: { paymentId: string; amount: number; descriptor: string; authorizedAt: string };
}

export type DeclineStage = 'authorization' | '3ds' | 'redirect' | 'timeout';

export interface PaymentDeclined {
  type: 'PaymentDeclined';
  data: { paymentId: string; reason: string; stage: DeclineStage; declinedAt: string };
}

export interface ThreeDSChallengeRequired {
  type: 'ThreeDSChallengeRequired';
  data: {
    paymentId: string;
    acsUrl: string;
    /** 3DS v1 form parameters the payer's browser posts to the ACS. */
    params: { PaReq: string; MD: string; TermUrl: string };
    requiredAt: string;
  };
}

export interface PayerRedirectRequired {
  type: 'PayerRedirectRequired';
  data: { paymentId: string; redirectUrl: string; requiredAt: string };
}

/** The acquirer did not say what happened (timeout, broken connection): reconciled, never retried. */
export interface PaymentOutcomeUnknown {
  type: 'PaymentOutcomeUnknown';
  data: { paymentId: string; detail: string; at: string };
}

/** Recorded before the acquirer is asked, so two concurrent captures can never both reach it. */
export interface CaptureRequested {
  type: 'CaptureRequested';
  data: { paymentId: string; operationId: string; amount: number; amountText: string; requestedAt: string };
}

export interface CaptureSucceeded {
  type: 'CaptureSucceeded';
  data: { paymentId: string; operationId: string; amount: number; amountText: string; capturedAt: string };
}

export interface CaptureDeclined {
  type: 'CaptureDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export interface VoidRequested {
  type: 'VoidRequested';
  data: { paymentId: string; operationId: string; amount: number; requestedAt: string };
}

export interface VoidDeclined {
  type: 'VoidDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export interface PaymentVoided {
  type: 'PaymentVoided';
  data: { paymentId: string; operationId: string; amount: number; voidedAt: string };
}

/** CREDITVOID accepted: a refund (settled payment) or a hold release (pending authorization). */
export interface CreditVoidRequested {
  type: 'CreditVoidRequested';
  data: {
    paymentId: string;
    operationId: string;
    kind: 'refund' | 'reversal';
    amount: number;
    amountText: string;
    requestedAt: string;
  };
}

export interface RefundSucceeded {
  type: 'RefundSucceeded';
  data: { paymentId: string; operationId: string; amount: number; refundedAt: string };
}

export interface RefundDeclined {
  type: 'RefundDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export interface AuthorizationReversed {
  type: 'AuthorizationReversed';
  data: { paymentId: string; operationId: string; amount: number; reversedAt: string };
}

export interface ReversalDeclined {
  type: 'ReversalDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export type PaymentEvent =
  | PaymentInitiated
  | PaymentSettled
  | PaymentAuthorized
  | PaymentDeclined
  | ThreeDSChallengeRequired
  | PayerRedirectRequired
  | PaymentOutcomeUnknown
  | CaptureRequested
  | CaptureSucceeded
  | CaptureDeclined
  | VoidRequested
  | VoidDeclined
  | PaymentVoided
  | CreditVoidRequested
  | RefundSucceeded
  | RefundDeclined
  | AuthorizationReversed
  | ReversalDeclined;

export type PaymentEventType = PaymentEvent['type'];

export const PAYMENT_EVENT_TYPES: readonly PaymentEventType[] = [
  'PaymentInitiated',
  'PaymentSettled',
  'PaymentAuthorized',
  'PaymentDeclined',
  'ThreeDSChallengeRequired',
  'PayerRedirectRequired',
  'PaymentOutcomeUnknown',
  'CaptureRequested',
  'CaptureSucceeded',
  'CaptureDeclined',
  'VoidRequested',
  'VoidDeclined',
  'PaymentVoided',
  'CreditVoidRequested',
  'RefundSucceeded',
  'RefundDeclined',
  'AuthorizationReversed',
  'ReversalDeclined',
];

export const paymentStreamId = (paymentId: string): string => `payment-${paymentId}`;
