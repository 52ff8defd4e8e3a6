import type { CheckoutSessionCreated } from '../../../domain/checkout/session-events';
import type { ExistingSession } from '../../../domain/checkout/session-state';

/** A merchant's session request, as the API parsed and checked it. */
export type NewSession = Omit<CheckoutSessionCreated['data'], 'sessionId' | 'expiresAt' | 'createdAt'> & {
  /** `session_expiry`, minutes. */
  expiryMinutes: number;
};

export interface CreatedSession {
  session: ExistingSession;
  redirectUrl: string;
  /** Hosted payment fields token (`Token` header of the processing request). */
  token: string;
  /** True when this request repeated an order number within the duplicate window. */
  replayed: boolean;
}
