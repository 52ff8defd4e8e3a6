/** RequestCapture and RecordCapture: settling a DMS hold, whole or in part, once. */
import { DomainError } from '../../errors';
import { formatMinor } from '../../money';
import type { RecordCapture, RequestCapture } from '../commands';
import type { PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';
import { expectPending, followUp, refuseNonPositive, refuseOnPayout, refuseWhileBusy } from './guards';

export function requestCapture(command: RequestCapture, s: ExistingPayment): PaymentEvent[] {
  refuseOnPayout(s);
  if (s.phase !== 'authorized' || s.heldAmount <= 0) {
    throw new DomainError('capture_not_allowed', 'Not acceptable to request the capture for payment not in pending status');
  }
  refuseWhileBusy(s);
  const amount = command.data.amount ?? s.heldAmount;
  refuseNonPositive(amount);
  if (amount > s.heldAmount) throw new DomainError('amount_exceeds_available', 'amount: The amount exceeds the authorized amount.');
  const amountText = command.data.amountText ?? (amount === s.amount ? s.amountText : formatMinor(amount, s.currency));
  return [{ type: 'CaptureRequested', data: { paymentId: s.paymentId, operationId: command.data.operationId, amount, amountText, requestedAt: command.data.now } }];
}

export function recordCapture(command: RecordCapture, s: ExistingPayment): PaymentEvent[] {
  const op = expectPending(s, command.data.operationId, 'capture');
  const { result, now } = command.data;
  const base = { paymentId: s.paymentId, operationId: op.operationId, amount: op.amount };
  return followUp(result, {
    success: () => [
      {
        type: 'CaptureSucceeded',
        data: { ...base, amountText: op.amountText, ...(result.outcome === 'success' && result.arn !== undefined ? { arn: result.arn } : {}), capturedAt: now },
      },
    ],
    declined: (reason) => [{ type: 'CaptureDeclined', data: { ...base, reason, declinedAt: now } }],
  });
}
