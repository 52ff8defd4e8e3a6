/** The state of one Checkout session, folded from its events. Pure and total. */
import type { CheckoutSessionCreated, CheckoutSessionEvent } from './session-events';

export type SessionStatus = 'open' | 'cancelled' | 'expired';

export type ExistingSession = CheckoutSessionCreated['data'] & {
  exists: true;
  status: SessionStatus;
  /** Payment ids of the attempts, oldest first. */
  attempts: string[];
  updatedAt: string;
};

export type SessionState = { exists: false } | ExistingSession;

export const initialSessionState = (): SessionState => ({ exists: false });

export function evolveSession(state: SessionState, event: CheckoutSessionEvent): SessionState {
  if (event.type === 'CheckoutSessionCreated') {
    return { ...event.data, exists: true, status: 'open', attempts: [], updatedAt: event.data.createdAt };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'CheckoutPaymentStarted':
      return { ...state, attempts: [...state.attempts, event.data.paymentId], updatedAt: event.data.startedAt };
    case 'CheckoutSessionCancelled':
      return { ...state, status: 'cancelled', updatedAt: event.data.cancelledAt };
    case 'CheckoutSessionExpired':
      return { ...state, status: 'expired', updatedAt: event.data.expiredAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export const latestAttempt = (s: ExistingSession): string | null => s.attempts[s.attempts.length - 1] ?? null;
