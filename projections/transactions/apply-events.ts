/** What each payment event does to the operation rows: one apply function per event type. */
import type { StoredEvent } from '../../src/application/ports/event-store';
import type { PaymentEvent } from '../../src/domain/payment/events';
import type { PaymentEventOf } from '../payment-events';
import type { OperationRows } from './operation-rows';

type Apply<T extends PaymentEvent['type']> = (rows: OperationRows, event: PaymentEventOf<T>, stored: StoredEvent) => void;

const APPLY: { readonly [T in PaymentEvent['type']]: Apply<T> } = {
  PaymentInitiated: (rows, { data: d }, stored) => {
    if (rows.has(d.paymentId)) return; // replayed duplicate: the row already tells more
    rows.add({
      operation_id: d.paymentId,
      payment_id: d.paymentId,
      merchant_id: d.merchantId,
      order_id: d.orderId,
      type: d.kind,
      status: 'pending',
      amount: d.amount,
      currency: d.currency,
      reason: null,
      payer_action: null,
      created_at: d.initiatedAt,
      updated_at: d.initiatedAt,
      created_position: stored.position,
    });
  },
  PaymentSettled: (rows, { data: d }) => rows.update(d.paymentId, { status: 'success', amount: d.amount, reason: null, updated_at: d.settledAt }),
  PaymentAuthorized: (rows, { data: d }) => rows.update(d.paymentId, { status: 'success', amount: d.amount, reason: null, updated_at: d.authorizedAt }),
  PaymentDeclined: (rows, { data: d }) => rows.update(d.paymentId, { status: 'declined', reason: d.reason, updated_at: d.declinedAt }),
  ThreeDSChallengeRequired: (rows, { data: d }) => rows.update(d.paymentId, { status: 'pending', payer_action: '3ds', updated_at: d.requiredAt }),
  PayerRedirectRequired: (rows, { data: d }) =>
    rows.update(d.paymentId, { status: 'pending', payer_action: d.display === 'qr' ? 'qr' : 'redirect', updated_at: d.requiredAt }),
  // The provider accepted the payment; the payer confirms with it elsewhere.
  PaymentPending: (rows, { data: d }) => rows.update(d.paymentId, { status: 'pending', payer_action: 'provider', updated_at: d.pendingAt }),
  // The detail is what reconciliation needs to find the payment at the acquirer.
  PaymentOutcomeUnknown: (rows, { data: d }) => rows.update(d.paymentId, { status: 'unknown', reason: d.detail, updated_at: d.at }),
  CaptureRequested: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'capture', status: 'pending', amount: d.amount, reason: null, at: d.requestedAt }),
  CaptureSucceeded: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'capture', status: 'success', amount: d.amount, reason: null, at: d.capturedAt }),
  CaptureDeclined: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'capture', status: 'declined', amount: d.amount, reason: d.reason, at: d.declinedAt }),
  VoidRequested: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'void', status: 'pending', amount: d.amount, reason: null, at: d.requestedAt }),
  VoidDeclined: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'void', status: 'declined', amount: d.amount, reason: d.reason, at: d.declinedAt }),
  PaymentVoided: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'void', status: 'success', amount: d.amount, reason: null, at: d.voidedAt }),
  CreditVoidRequested: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: d.kind, status: 'pending', amount: d.amount, reason: null, at: d.requestedAt }),
  RefundSucceeded: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'refund', status: 'success', amount: d.amount, reason: null, at: d.refundedAt }),
  RefundDeclined: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'refund', status: 'declined', amount: d.amount, reason: d.reason, at: d.declinedAt }),
  AuthorizationReversed: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'reversal', status: 'success', amount: d.amount, reason: null, at: d.reversedAt }),
  ReversalDeclined: (rows, { data: d }, stored) =>
    rows.upsertOperation(stored, d.operationId, { type: 'reversal', status: 'declined', amount: d.amount, reason: d.reason, at: d.declinedAt }),
  // An attempt at one connector, not an operation of the merchant's: the payment goes on.
  PaymentCascaded: () => undefined,
};

/** Applies one payment event to the rows. */
export function applyPaymentEvent(rows: OperationRows, event: PaymentEvent, stored: StoredEvent): void {
  (APPLY[event.type] as Apply<PaymentEvent['type']>)(rows, event, stored);
}
