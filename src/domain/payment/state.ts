/**
 * The state of one payment, folded from its events. `evolvePayment` is pure and total: it is the
 * only definition of what an event means, shared by the deciders and by the payments projection,
 * so a status lookup can never disagree with what the command side decided. What each event does
 * is its evolver's (evolvers/); the state's shape is payment-state.ts.
 */
import type { PaymentEvent } from './events';
import { paymentEvolvers } from './evolvers/evolvers';
import { initialPaymentState, type ExistingPayment, type PaymentState } from './payment-state';

export {
  brandOf,
  connectorOf,
  initialPaymentState,
  type ExistingPayment,
  type PayerAction,
  type PaymentPhase,
  type PaymentState,
  type PaymentStatus,
  type PendingOperation,
} from './payment-state';

type Evolve = (state: ExistingPayment, event: PaymentEvent) => ExistingPayment;

export function evolvePayment(state: PaymentState, event: PaymentEvent): PaymentState {
  if (event.type === 'PaymentInitiated') return paymentEvolvers.PaymentInitiated(event);
  // Every other event needs an existing payment; a stray one is ignored rather than crashing a replay.
  if (!state.exists) return state;
  // The map pairs each type with its own event's evolver; the compiler cannot follow that through an index.
  return (paymentEvolvers[event.type] as Evolve)(state, event);
}

export const foldPayment = (events: readonly PaymentEvent[]): PaymentState =>
  events.reduce(evolvePayment, initialPaymentState());
