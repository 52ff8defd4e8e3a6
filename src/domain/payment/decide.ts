/**
 * The payment decider: `decidePayment(command, state) -> events`. Pure; refuses a transition by
 * throwing a DomainError whose code the API maps to the spec's error. Each command's rules are its
 * own decider's (deciders/).
 */
import { DomainError } from '../errors';
import type { PaymentCommand } from './commands';
import { paymentDeciders } from './deciders/deciders';
import type { PaymentEvent } from './events';
import type { ExistingPayment, PaymentState } from './payment-state';

type Decide = (command: PaymentCommand, state: ExistingPayment) => PaymentEvent[];

export function decidePayment(command: PaymentCommand, state: PaymentState): PaymentEvent[] {
  if (command.type === 'InitiatePayment') return paymentDeciders.InitiatePayment(command, state);
  if (!state.exists) throw new DomainError('payment_not_found', 'Payment not found.');
  // The map pairs each type with its own command's decider; the compiler cannot follow that through an index.
  return (paymentDeciders[command.type] as Decide)(command, state);
}
