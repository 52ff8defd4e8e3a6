import type { ExistingSession } from '../../domain/checkout/session-state';
import { WrongExpectedVersionError } from '../ports/event-store';
import type { CheckoutDeps } from './deps';
import { findSession } from './session-lookup';

/**
 * Records that an open session's time ran out, when a payer meets it so; the session as it stands
 * after (someone else's append in between: as they left it).
 */
export async function recordExpiry(deps: CheckoutDeps, session: ExistingSession, version: bigint | null): Promise<ExistingSession> {
  try {
    const result = await deps.sessions.handle(
      session.sessionId,
      { type: 'ExpireSession', data: { now: deps.clock.now().toISOString() } },
      { correlationId: `expire-${session.sessionId}`, causationId: `expire-${session.sessionId}` },
      { state: session, version },
    );
    return result.state as ExistingSession;
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) return (await findSession(deps, session.sessionId)) ?? session;
    throw error;
  }
}
