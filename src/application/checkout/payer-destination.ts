/** Where a Checkout payer's browser goes next, given how the session and its latest attempt stand. */
import type { LinkTarget } from '../../domain/checkout/session-events';
import { isExpired, MAX_ATTEMPTS } from '../../domain/checkout/session-decide';
import type { ExistingSession } from '../../domain/checkout/session-state';
import type { ExistingPayment, PayerAction } from '../../domain/payment/state';
import type { MerchantAccount } from '../merchant-service';
import type { CheckoutServiceDeps } from './deps';
import type { SessionEnding } from './problems';
import { withReturnParameters } from './return-parameters';
import { pageUrl } from './session-links';

export type PayerDestination =
  /** Back to the merchant (success, cancel, error, expiry or return URL) with the return parameters. */
  | { kind: 'merchant'; url: string; target: LinkTarget | null }
  /** The hosted page again (a decline to retry, a payment being confirmed). */
  | { kind: 'page'; url: string }
  /** The 3DS ACS (auto-posted form) or the redirect page of the acquirer. */
  | { kind: 'payer_action'; action: PayerAction }
  /** Nothing to go back to: the merchant gave no URL for this ending. */
  | ({ kind: 'closed' } & SessionEnding);

type Deps = Pick<CheckoutServiceDeps, 'baseUrl' | 'clock'>;

/** Where a payer of this session goes, given how its latest attempt stands. */
export function destination(deps: Deps, session: ExistingSession, latest: ExistingPayment | null, merchant: MerchantAccount): PayerDestination {
  const urls = session.urls;
  const back = (url: string | null, closed: SessionEnding): PayerDestination =>
    url
      ? { kind: 'merchant', url: withReturnParameters(url, session, latest, merchant), target: merchant.overrideLinkTarget ?? session.urlTarget }
      : { kind: 'closed', ...closed };
  const phase = latest?.phase ?? null;
  // An alternative method's step the hosted page shows itself (a QR code, a one-time code, payment details, a wait).
  if (latest && shownOnPage(latest)) return { kind: 'page', url: pageUrl(deps, session.sessionId) };
  if (phase === 'awaiting_3ds' || phase === 'awaiting_redirect') return { kind: 'payer_action', action: latest!.payerAction! };
  if (phase === 'initiated' || phase === 'outcome_unknown') return { kind: 'page', url: pageUrl(deps, session.sessionId) };
  if (phase !== null && phase !== 'declined') {
    return back(session.hostedFields ? (urls.return ?? urls.success) : urls.success, { ending: 'paid' });
  }
  if (session.hostedFields && latest) {
    // Hosted payment fields: the merchant's page shows the decline (it also has the callback).
    return back(urls.return ?? urls.error ?? urls.cancel, { ending: 'declined', declineReason: latest.declineReason ?? null });
  }
  if (session.status === 'cancelled') return back(urls.cancel, { ending: 'cancelled' });
  if (session.status === 'expired' || isExpired(session, deps.clock.now().toISOString())) return back(urls.expiry ?? urls.cancel, { ending: 'expired' });
  if (session.attempts.length >= MAX_ATTEMPTS) return back(urls.error ?? urls.cancel, { ending: 'not_completed' });
  return { kind: 'page', url: pageUrl(deps, session.sessionId) };
}

/** Where the payer of a submit that lost the race to another goes: that attempt's ACS or provider page, else the hosted page. */
export function pageOrOn(deps: Deps, session: ExistingSession, payment: ExistingPayment | null): PayerDestination {
  if (payment && (payment.phase === 'awaiting_3ds' || payment.phase === 'awaiting_redirect') && payment.payerAction && !shownOnPage(payment)) {
    return { kind: 'payer_action', action: payment.payerAction };
  }
  return { kind: 'page', url: pageUrl(deps, session.sessionId) };
}

/**
 * Whether the hosted page shows a Checkout payment's current step itself rather than sending the
 * payer to the provider: a method payment waiting on its provider (the payer confirms elsewhere),
 * or on a provider page showing a QR code, taking a one-time code or showing payment details.
 */
export function shownOnPage(p: ExistingPayment): boolean {
  if (!p.method || !p.checkout) return false;
  if (p.phase === 'awaiting_provider') return true;
  if (p.phase !== 'awaiting_redirect' || !p.payerAction) return false;
  const a = p.payerAction;
  return (a.display === 'qr' && !!a.params.qr_code) || a.collects === 'otp' || Object.keys(p.providerInstructions ?? {}).length > 0;
}
