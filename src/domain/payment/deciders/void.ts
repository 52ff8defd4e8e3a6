/** RequestVoid and RecordVoid: cancelling a settlement that was never refunded. */
import { DomainError } from '../../errors';
import type { RecordVoid, RequestVoid } from '../commands';
import type { PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';
import { expectPending, followUp, refuseOnPayout, refuseWhileBusy } from './guards';

export function requestVoid(command: RequestVoid, s: ExistingPayment): PaymentEvent[] {
  refuseOnPayout(s);
  // Only money that settled and was never refunded can be voided; a hold is released instead.
  if (s.phase !== 'settled' || s.refundedAmount > 0 || s.kind === 'credit') {
    throw new DomainError('void_not_allowed', 'Void is not allowed.');
  }
  // An alternative method's provider cancels a settlement only on its settlement day (UTC, docs/reference/s2s-apm.md#follow-ups).
  if (s.method && (s.settledAt === undefined || s.settledAt.slice(0, 10) !== command.data.now.slice(0, 10))) {
    throw new DomainError('void_not_allowed', 'Void is not allowed.');
  }
  refuseWhileBusy(s);
  return [
    { type: 'VoidRequested', data: { paymentId: s.paymentId, operationId: command.data.operationId, amount: s.settledAmount, requestedAt: command.data.now } },
  ];
}

export function recordVoid(command: RecordVoid, s: ExistingPayment): PaymentEvent[] {
  const op = expectPending(s, command.data.operationId, 'void');
  const base = { paymentId: s.paymentId, operationId: op.operationId, amount: op.amount };
  const now = command.data.now;
  return followUp(command.data.result, {
    success: () => [{ type: 'PaymentVoided', data: { ...base, voidedAt: now } }],
    declined: (reason) => [{ type: 'VoidDeclined', data: { ...base, reason, declinedAt: now } }],
  });
}
