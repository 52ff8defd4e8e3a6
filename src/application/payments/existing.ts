import { DomainError } from '../../domain/errors';
import type { ExistingPayment, PaymentState } from '../../domain/payment/state';

/** The payment, or `payment_not_found` when its stream does not exist. */
export function existing(state: PaymentState): ExistingPayment {
  if (!state.exists) throw new DomainError('payment_not_found', 'Payment not found.');
  return state;
}
