/** InitiatePayment: a new payment, if its amount and the MID's Payment Mode allow it. */
import { DomainError } from '../../errors';
import type { InitiatePayment } from '../commands';
import type { PaymentEvent } from '../events';
import type { PaymentState } from '../payment-state';
import { paymentModeAllows, zeroAmountAllowed } from '../policy';

export function initiatePayment(command: InitiatePayment, state: PaymentState): PaymentEvent[] {
  if (state.exists) throw new DomainError('payment_exists', `Payment ${command.data.paymentId} already exists`);
  const { now, merchantPaymentMode, ...d } = command.data;
  if (d.amount === 0 && !zeroAmountAllowed(d)) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
  if (merchantPaymentMode && !paymentModeAllows(merchantPaymentMode, d.kind)) throw new DomainError('action_not_supported', 'Payment action not supported');
  return [{ type: 'PaymentInitiated', data: { ...d, initiatedAt: now } }];
}
