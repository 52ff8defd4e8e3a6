/** Reading a session from its stream (the source of truth), by its id or by a hosted payment fields token. */
import type { ExistingSession } from '../../domain/checkout/session-state';
import { sessionIdOfToken } from '../../domain/checkout/session-token';
import type { CheckoutDeps } from './deps';

/** The session as it stands and the version it was read at, for a command decided on it; null for no session. */
export async function loadSession(deps: CheckoutDeps, sessionId: string): Promise<{ session: ExistingSession; version: bigint | null } | null> {
  const { state, version } = await deps.sessions.load(sessionId);
  return state.exists ? { session: state, version } : null;
}

export async function findSession(deps: CheckoutDeps, sessionId: string): Promise<ExistingSession | null> {
  return (await loadSession(deps, sessionId))?.session ?? null;
}

/** The session a hosted payment fields token was issued for; null for a token not of ours. */
export async function sessionByToken(deps: CheckoutDeps, token: unknown): Promise<ExistingSession | null> {
  const sessionId = sessionIdOfToken(deps.tokenSecret, token);
  return sessionId ? findSession(deps, sessionId) : null;
}
