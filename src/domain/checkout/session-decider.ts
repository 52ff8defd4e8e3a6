import type { Decider } from '../decider';
import { decideSession, type CheckoutSessionCommand } from './session-decide';
import { CHECKOUT_SESSION_EVENT_SCHEMA_VERSION, type CheckoutSessionEvent } from './session-events';
import { evolveSession, initialSessionState, type SessionState } from './session-state';

/** The Checkout session stream (`checkout-session-<id>`, checkoutSessionStreamId). */
export const sessionDecider: Decider<CheckoutSessionCommand, SessionState, CheckoutSessionEvent> = {
  decide: decideSession,
  evolve: evolveSession,
  initialState: initialSessionState,
  schemaVersion: CHECKOUT_SESSION_EVENT_SCHEMA_VERSION,
};
