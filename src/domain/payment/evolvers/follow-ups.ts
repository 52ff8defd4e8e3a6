/**
 * The follow-ups of a decided payment: a capture, a void, a refund or a hold's release, each
 * pending from its request until the acquirer's answer is recorded.
 */
import { formatMinor } from '../../money';
import type {
  AuthorizationReversed,
  CaptureRequested,
  CaptureSucceeded,
  CreditVoidRequested,
  PaymentVoided,
  RefundSucceeded,
  VoidRequested,
} from '../events';
import type { ExistingPayment } from '../payment-state';
import { references } from './parts';

/** A declined follow-up leaves the payment as it was, free for the next operation. */
export function followUpDeclined(s: ExistingPayment, event: { data: { declinedAt: string } }): ExistingPayment {
  return { ...s, pendingOperation: null, updatedAt: event.data.declinedAt };
}

export function captureRequested(s: ExistingPayment, event: CaptureRequested): ExistingPayment {
  return {
    ...s,
    pendingOperation: { operationId: event.data.operationId, kind: 'capture', amount: event.data.amount, amountText: event.data.amountText },
    updatedAt: event.data.requestedAt,
  };
}

export function captureSucceeded(s: ExistingPayment, event: CaptureSucceeded): ExistingPayment {
  return {
    ...s,
    pendingOperation: null,
    phase: 'settled',
    status: 'SETTLED',
    // The uncaptured rest of a partial capture is released: one capture per authorization.
    heldAmount: 0,
    settledAmount: s.settledAmount + event.data.amount,
    settledAt: event.data.capturedAt,
    updatedAt: event.data.capturedAt,
    ...references(event.data),
  };
}

export function voidRequested(s: ExistingPayment, event: VoidRequested): ExistingPayment {
  return {
    ...s,
    pendingOperation: {
      operationId: event.data.operationId,
      kind: 'void',
      amount: event.data.amount,
      amountText: formatMinor(event.data.amount, s.currency),
    },
    updatedAt: event.data.requestedAt,
  };
}

export function paymentVoided(s: ExistingPayment, event: PaymentVoided): ExistingPayment {
  return { ...s, phase: 'voided', status: 'VOID', pendingOperation: null, updatedAt: event.data.voidedAt };
}

export function creditVoidRequested(s: ExistingPayment, event: CreditVoidRequested): ExistingPayment {
  return {
    ...s,
    pendingOperation: { operationId: event.data.operationId, kind: event.data.kind, amount: event.data.amount, amountText: event.data.amountText },
    updatedAt: event.data.requestedAt,
  };
}

export function refundSucceeded(s: ExistingPayment, event: RefundSucceeded): ExistingPayment {
  const refunded = s.refundedAmount + event.data.amount;
  const full = refunded >= s.settledAmount;
  return {
    ...s,
    refundedAmount: refunded,
    phase: full ? 'refunded' : s.phase,
    status: full ? 'REFUND' : s.status,
    pendingOperation: null,
    updatedAt: event.data.refundedAt,
  };
}

export function authorizationReversed(s: ExistingPayment, event: AuthorizationReversed): ExistingPayment {
  const held = Math.max(0, s.heldAmount - event.data.amount);
  return {
    ...s,
    heldAmount: held,
    reversedAmount: s.reversedAmount + event.data.amount,
    phase: held === 0 ? 'reversed' : s.phase,
    status: held === 0 ? 'REVERSAL' : s.status,
    pendingOperation: null,
    updatedAt: event.data.reversedAt,
  };
}
