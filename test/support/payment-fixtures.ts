/**
 * Builders for payment and merchant events with plausible defaults, so a test states only the
 * fields it is about: `paymentInitiated({ amount: 500 })`, `paymentSettled(id)`. Builders return
 * domain events; `toNewEvent` and the `append*` helpers put them into an EventStore.
 */
import { randomUUID } from 'node:crypto';
import { ANY, type AppendResult, type EventMetadata, type EventStore, type NewEvent } from '../../src/application/ports/event-store';
import {
  MERCHANT_EVENT_SCHEMA_VERSION,
  type MerchantEvent,
  type MerchantRegistered,
  type MerchantSettings,
  type MerchantSettingsChanged,
  merchantStreamId,
} from '../../src/domain/merchant/events';
import {
  type AuthorizationReversed,
  type CaptureDeclined,
  type CaptureRequested,
  type CaptureSucceeded,
  type CreditVoidRequested,
  type PayerRedirectRequired,
  type PaymentAuthorized,
  type PaymentDeclined,
  type PaymentEvent,
  type PaymentInitiated,
  type PaymentOutcomeUnknown,
  type PaymentSettled,
  type PaymentVoided,
  paymentEventSchemaVersion,
  type RefundDeclined,
  type RefundSucceeded,
  type ReversalDeclined,
  type ThreeDSChallengeRequired,
  type VoidDeclined,
  type VoidRequested,
  paymentStreamId,
} from '../../src/domain/payment/events';

/** Default instants: initiated at T0, the acquirer answers at T1, follow-up operations later. */
export const T0 = '2024-05-01T10:00:00.000Z';
export const T1 = '2024-05-01T10:00:01.000Z';
export const T2 = '2024-05-01T10:05:00.000Z';
export const T3 = '2024-05-01T11:00:00.000Z';
export const T4 = '2024-05-01T12:00:00.000Z';

export const DEFAULT_MERCHANT_ID = 'merchant-1';

type Data<E extends { data: unknown }> = E['data'];

export function paymentInitiated(overrides: Partial<Data<PaymentInitiated>> = {}): PaymentInitiated {
  return {
    type: 'PaymentInitiated',
    data: {
      paymentId: randomUUID(),
      merchantId: DEFAULT_MERCHANT_ID,
      channel: 's2s_card',
      kind: 'sale',
      orderId: `order-${randomUUID().slice(0, 8)}`,
      orderDescription: 'Two tickets',
      currency: 'USD',
      amount: 1000,
      amountText: '10.00',
      card: { mask: '411111******1111', brand: 'VISA', expMonth: '12', expYear: '2030', token: null },
      payer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', ip: '203.0.113.7' },
      termUrl3ds: 'https://shop.example.com/3ds-return',
      notificationUrl: 'https://shop.example.com/notify',
      customData: null,
      parameters: null,
      recurringInit: false,
      connector: 'sandbox',
      initiatedAt: T0,
      ...overrides,
    },
  };
}

export const paymentSettled = (paymentId: string, o: Partial<Data<PaymentSettled>> = {}): PaymentSettled => ({
  type: 'PaymentSettled',
  data: { paymentId, amount: 1000, descriptor: 'SHOP*TICKETS', settledAt: T1, ...o },
});

export const paymentAuthorized = (paymentId: string, o: Partial<Data<PaymentAuthorized>> = {}): PaymentAuthorized => ({
  type: 'PaymentAuthorized',
  data: { paymentId, amount: 1000, descriptor: 'SHOP*TICKETS', authorizedAt: T1, ...o },
});

export const paymentDeclined = (paymentId: string, o: Partial<Data<PaymentDeclined>> = {}): PaymentDeclined => ({
  type: 'PaymentDeclined',
  data: { paymentId, reason: 'Insufficient funds', code: 'insufficient_funds', stage: 'authorization', declinedAt: T1, ...o },
});

export const threeDSChallengeRequired = (
  paymentId: string,
  o: Partial<Data<ThreeDSChallengeRequired>> = {},
): ThreeDSChallengeRequired => ({
  type: 'ThreeDSChallengeRequired',
  data: {
    paymentId,
    acsUrl: 'https://acs.example.com/challenge',
    params: { PaReq: 'pareq-value', MD: `md-${paymentId}`, TermUrl: 'https://gateway.example.com/3ds/return' },
    requiredAt: T1,
    ...o,
  },
});

export const payerRedirectRequired = (
  paymentId: string,
  o: Partial<Data<PayerRedirectRequired>> = {},
): PayerRedirectRequired => ({
  type: 'PayerRedirectRequired',
  data: { paymentId, redirectUrl: 'https://bank.example.com/approve', requiredAt: T1, ...o },
});

export const paymentOutcomeUnknown = (
  paymentId: string,
  o: Partial<Data<PaymentOutcomeUnknown>> = {},
): PaymentOutcomeUnknown => ({
  type: 'PaymentOutcomeUnknown',
  data: { paymentId, detail: 'acquirer timed out', at: T1, ...o },
});

export const captureRequested = (paymentId: string, o: Partial<Data<CaptureRequested>> = {}): CaptureRequested => ({
  type: 'CaptureRequested',
  data: { paymentId, operationId: randomUUID(), amount: 1000, amountText: '10.00', requestedAt: T2, ...o },
});

export const captureSucceeded = (paymentId: string, o: Partial<Data<CaptureSucceeded>> = {}): CaptureSucceeded => ({
  type: 'CaptureSucceeded',
  data: { paymentId, operationId: randomUUID(), amount: 1000, amountText: '10.00', capturedAt: T2, ...o },
});

export const captureDeclined = (paymentId: string, o: Partial<Data<CaptureDeclined>> = {}): CaptureDeclined => ({
  type: 'CaptureDeclined',
  data: { paymentId, operationId: randomUUID(), amount: 1000, reason: 'Authorization expired', declinedAt: T2, ...o },
});

export const voidRequested = (paymentId: string, o: Partial<Data<VoidRequested>> = {}): VoidRequested => ({
  type: 'VoidRequested',
  data: { paymentId, operationId: randomUUID(), amount: 1000, requestedAt: T2, ...o },
});

export const voidDeclined = (paymentId: string, o: Partial<Data<VoidDeclined>> = {}): VoidDeclined => ({
  type: 'VoidDeclined',
  data: { paymentId, operationId: randomUUID(), amount: 1000, reason: 'Already captured', declinedAt: T2, ...o },
});

export const paymentVoided = (paymentId: string, o: Partial<Data<PaymentVoided>> = {}): PaymentVoided => ({
  type: 'PaymentVoided',
  data: { paymentId, operationId: randomUUID(), amount: 1000, voidedAt: T2, ...o },
});

export const creditVoidRequested = (
  paymentId: string,
  o: Partial<Data<CreditVoidRequested>> = {},
): CreditVoidRequested => ({
  type: 'CreditVoidRequested',
  data: { paymentId, operationId: randomUUID(), kind: 'refund', amount: 1000, amountText: '10.00', requestedAt: T3, ...o },
});

export const refundSucceeded = (paymentId: string, o: Partial<Data<RefundSucceeded>> = {}): RefundSucceeded => ({
  type: 'RefundSucceeded',
  data: { paymentId, operationId: randomUUID(), amount: 1000, refundedAt: T3, ...o },
});

export const refundDeclined = (paymentId: string, o: Partial<Data<RefundDeclined>> = {}): RefundDeclined => ({
  type: 'RefundDeclined',
  data: { paymentId, operationId: randomUUID(), amount: 1000, reason: 'Refund window closed', declinedAt: T3, ...o },
});

export const authorizationReversed = (
  paymentId: string,
  o: Partial<Data<AuthorizationReversed>> = {},
): AuthorizationReversed => ({
  type: 'AuthorizationReversed',
  data: { paymentId, operationId: randomUUID(), amount: 1000, reversedAt: T3, ...o },
});

export const reversalDeclined = (paymentId: string, o: Partial<Data<ReversalDeclined>> = {}): ReversalDeclined => ({
  type: 'ReversalDeclined',
  data: { paymentId, operationId: randomUUID(), amount: 1000, reason: 'Hold already released', declinedAt: T3, ...o },
});

/** A refund or reversal as the command side records it: the request, then the acquirer's answer. */
export function creditVoid(
  paymentId: string,
  kind: 'refund' | 'reversal',
  amount: number,
  outcome: 'success' | 'declined' = 'success',
): PaymentEvent[] {
  const operationId = randomUUID();
  const requested = creditVoidRequested(paymentId, {
    operationId,
    kind,
    amount,
    amountText: (amount / 100).toFixed(2),
  });
  const common = { operationId, amount };
  if (kind === 'refund') {
    return [requested, outcome === 'success' ? refundSucceeded(paymentId, common) : refundDeclined(paymentId, common)];
  }
  return [requested, outcome === 'success' ? authorizationReversed(paymentId, common) : reversalDeclined(paymentId, common)];
}

export function merchantRegistered(overrides: Partial<Data<MerchantRegistered>> = {}): MerchantRegistered {
  return {
    type: 'MerchantRegistered',
    data: {
      merchantId: DEFAULT_MERCHANT_ID,
      name: 'Ticket Shop',
      environment: 'sandbox',
      clientKey: `ck-${randomUUID()}`,
      merchantKey: `mk-${randomUUID()}`,
      passwordCiphertext: 'v1:iv:ciphertext:tag',
      paymentMode: 'SMS',
      notificationUrl: 'https://shop.example.com/notify',
      ipAllowlist: [],
      refundsEnabled: true,
      registeredAt: T0,
      ...overrides,
    },
  };
}

export const merchantSettingsChanged = (
  merchantId: string,
  changes: Partial<MerchantSettings>,
  changedAt = T2,
): MerchantSettingsChanged => ({
  type: 'MerchantSettingsChanged',
  data: { merchantId, changes, changedAt },
});

/** The envelope the store takes: a fresh id and the schema version its type is written with today. */
export function toNewEvent(event: PaymentEvent | MerchantEvent, metadata: EventMetadata = {}): NewEvent {
  const merchant = event.type === 'MerchantRegistered' || event.type === 'MerchantSettingsChanged';
  return {
    id: randomUUID(),
    type: event.type,
    schemaVersion: merchant ? MERCHANT_EVENT_SCHEMA_VERSION : paymentEventSchemaVersion(event.type),
    data: event.data as unknown as Record<string, unknown>,
    metadata,
  };
}

export function appendPaymentEvents(store: EventStore, paymentId: string, events: PaymentEvent[]): Promise<AppendResult> {
  return store.append(paymentStreamId(paymentId), events.map((e) => toNewEvent(e)), ANY);
}

export function appendMerchantEvents(store: EventStore, merchantId: string, events: MerchantEvent[]): Promise<AppendResult> {
  return store.append(merchantStreamId(merchantId), events.map((e) => toNewEvent(e)), ANY);
}
