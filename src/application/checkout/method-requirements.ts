import { sessionPaymentKind } from '../../domain/checkout/session-decide';
import type { ExistingSession } from '../../domain/checkout/session-state';
import type { RouteRequirements } from '../../domain/routing/route';

/** What a Checkout session's methods depend on: its kind of payment, its money, whether it starts a chain. */
export type MethodRequirements = Pick<ExistingSession, 'operation' | 'auth' | 'recurringInit'> & { order: Pick<ExistingSession['order'], 'currency' | 'amount'> };

/** What a connector must take to pay such a session with `method`. */
export function requirementsOf(session: MethodRequirements, method: string) {
  return { method, currency: session.order.currency, kind: sessionPaymentKind(session), amount: session.order.amount, recurring: session.recurringInit } satisfies RouteRequirements;
}
