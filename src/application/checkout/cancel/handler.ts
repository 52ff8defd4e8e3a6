import { DomainError } from '../../../domain/errors';
import type { ExistingSession } from '../../../domain/checkout/session-state';
import { WrongExpectedVersionError } from '../../ports/event-store';
import type { CheckoutDeps } from '../deps';
import { latestPayment } from '../latest-payment';
import { merchantOf } from '../merchant-of';
import { destination, type PayerDestination } from '../payer-destination';
import { findSession, loadSession } from '../session-lookup';

/** The payer pressed Cancel on the hosted page. */
export async function cancel(deps: CheckoutDeps, sessionId: string, correlationId: string): Promise<PayerDestination | null> {
  const loaded = await loadSession(deps, sessionId);
  if (!loaded) return null;
  const latest = await latestPayment(deps, loaded.session);
  let session = loaded.session;
  try {
    const result = await deps.sessions.handle(
      sessionId,
      { type: 'CancelSession', data: { latestPhase: latest?.phase ?? null, now: deps.clock.now().toISOString() } },
      { correlationId, causationId: correlationId },
      { state: loaded.session, version: loaded.version },
    );
    session = result.state as ExistingSession;
  } catch (error) {
    if (!(error instanceof DomainError) && !(error instanceof WrongExpectedVersionError)) throw error;
    // Paid (or being paid) meanwhile: the payer goes where that payment says.
    session = (await findSession(deps, sessionId)) ?? session;
  }
  return destination(deps, session, await latestPayment(deps, session), await merchantOf(deps, session.merchantId));
}
