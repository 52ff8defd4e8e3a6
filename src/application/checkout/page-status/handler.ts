import type { CheckoutDeps } from '../deps';
import { expireDueStep, latestPayment } from '../latest-payment';
import { merchantOf } from '../merchant-of';
import { stepOf } from '../method-step';
import { pageMethods } from '../page-methods';
import { findSession } from '../session-lookup';

/** What the hosted page's poll is told: whether the payer still waits on this page, and for how long a QR code lasts. */
export interface PageStatus {
  waiting: boolean;
  /** Seconds until the provider gives up on the payer (a QR code), while waiting for it. */
  expiresIn?: number;
}

/**
 * What the hosted page's poll is told (the session's id is its only credential, as for the page
 * itself): whether the payer still waits on this page for the latest attempt, which is the case
 * while the acquirer has not answered or an alternative method's step is shown here. A QR code
 * whose minute ran out is declined now rather than at the expiry worker's next pass.
 */
export async function pageStatus(deps: CheckoutDeps, sessionId: string): Promise<PageStatus | null> {
  const session = await findSession(deps, sessionId);
  if (!session) return null;
  const latest = await expireDueStep(deps, await latestPayment(deps, session));
  if (!latest) return { waiting: false };
  if (latest.phase === 'initiated' || latest.phase === 'outcome_unknown') return { waiting: true };
  const merchant = await merchantOf(deps, session.merchantId);
  const step = stepOf(latest, pageMethods(deps, session, merchant));
  if (!step) return { waiting: false };
  const expiresAt = latest.expiresAt ? Date.parse(latest.expiresAt) : null;
  return { waiting: true, ...(expiresAt !== null ? { expiresIn: Math.max(0, Math.ceil((expiresAt - deps.clock.now().getTime()) / 1000)) } : {}) };
}
