/**
 * RequestCreditVoid, RequestRefund and RecordCreditVoid: money back to the payer, as a refund of
 * settled money or the release of a hold.
 */
import { DomainError } from '../../errors';
import type { RecordCreditVoid, RequestCreditVoid, RequestRefund } from '../commands';
import type { PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';
import { followUp, refuseNonPositive, refuseOnPayout, refuseRefundOutsideApi, refuseWhileBusy } from './guards';

const EXCEEDS_REFUNDABLE = 'amount: The amount exceeds the amount that can still be refunded.';

export function requestCreditVoid(command: RequestCreditVoid, s: ExistingPayment): PaymentEvent[] {
  refuseOnPayout(s);
  const { amount, amountText, operationId, refundsEnabled, now } = command.data;
  let kind: 'refund' | 'reversal';
  let available: number;
  if (s.phase === 'authorized') {
    // Releasing a hold moves no money back, so it does not need refunds enabled.
    kind = 'reversal';
    available = s.heldAmount;
  } else if (s.phase === 'settled' && refundsEnabled && s.kind !== 'credit') {
    kind = 'refund';
    available = s.settledAmount - s.refundedAmount;
    refuseRefundOutsideApi(command.data.refundsViaApi);
  } else {
    throw new DomainError('refund_not_allowed', 'Refund is not allowed');
  }
  refuseWhileBusy(s);
  refuseNonPositive(amount);
  if (amount > available) {
    throw new DomainError('amount_exceeds_available', kind === 'refund' ? EXCEEDS_REFUNDABLE : 'amount: The amount exceeds the authorized amount.');
  }
  return [{ type: 'CreditVoidRequested', data: { paymentId: s.paymentId, operationId, kind, amount, amountText, requestedAt: now } }];
}

/** Checkout refund: settled money only; a hold is never "refunded" (it is voided instead). */
export function requestRefund(command: RequestRefund, s: ExistingPayment): PaymentEvent[] {
  refuseOnPayout(s);
  const { amount, amountText, operationId, refundsEnabled, now } = command.data;
  if (s.phase !== 'settled' || !refundsEnabled || s.kind === 'credit') throw new DomainError('refund_not_allowed', 'Refund is not allowed');
  refuseRefundOutsideApi(command.data.refundsViaApi);
  refuseWhileBusy(s);
  refuseNonPositive(amount);
  if (amount > s.settledAmount - s.refundedAmount) throw new DomainError('amount_exceeds_available', EXCEEDS_REFUNDABLE);
  return [{ type: 'CreditVoidRequested', data: { paymentId: s.paymentId, operationId, kind: 'refund', amount, amountText, requestedAt: now } }];
}

export function recordCreditVoid(command: RecordCreditVoid, s: ExistingPayment): PaymentEvent[] {
  const op = s.pendingOperation;
  if (!op || op.operationId !== command.data.operationId || (op.kind !== 'refund' && op.kind !== 'reversal')) {
    throw new DomainError('unexpected_outcome', `Operation ${command.data.operationId} is not pending`);
  }
  const base = { paymentId: s.paymentId, operationId: op.operationId, amount: op.amount };
  const now = command.data.now;
  return followUp(command.data.result, {
    success: () =>
      op.kind === 'refund'
        ? [{ type: 'RefundSucceeded', data: { ...base, refundedAt: now } }]
        : [{ type: 'AuthorizationReversed', data: { ...base, reversedAt: now } }],
    declined: (reason) =>
      op.kind === 'refund'
        ? [{ type: 'RefundDeclined', data: { ...base, reason, declinedAt: now } }]
        : [{ type: 'ReversalDeclined', data: { ...base, reason, declinedAt: now } }],
  });
}
