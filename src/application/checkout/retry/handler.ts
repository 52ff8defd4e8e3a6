import { retryRefusal } from '../../../domain/checkout/retry';
import { DomainError } from '../../../domain/errors';
import type { ExistingPayment } from '../../../domain/payment/state';
import type { SaleCard } from '../../payments';
import { attempt } from '../attempt/handler';
import type { CheckoutDeps } from '../deps';
import { latestPayment } from '../latest-payment';
import { findSession, loadSession } from '../session-lookup';
import type { RetryCommand, RetryOutcome } from './command';

/**
 * `POST /api/v1/payment/retry`: a declined attempt's card, stored when it was made, is charged
 * again without the payer, as the session's next attempt (retry.ts says when it may be). Null for
 * a payment that is not this merchant's (or none at all).
 */
export async function retry(deps: CheckoutDeps, { merchantId, paymentId, correlationId }: RetryCommand): Promise<RetryOutcome> {
  let payment: ExistingPayment;
  try {
    payment = await deps.payments.current(paymentId);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payment_not_found') return null;
    throw error;
  }
  if (payment.merchantId !== merchantId) return null;
  const loaded = payment.checkout ? await loadSession(deps, payment.checkout.sessionId) : null;
  const session = loaded?.session ?? null;
  const latest = session ? await latestPayment(deps, session) : null;
  const now = (): string => deps.clock.now().toISOString();
  const refusal = retryRefusal(payment, session, latest?.phase ?? null, now());
  if (refusal || !loaded) return { refusal };
  const card: SaleCard = { kind: 'token', token: payment.card!.token! };
  const outcome = await attempt(deps, { session: loaded.session, version: loaded.version, paying: { card }, payer: payment.payer, correlationId, payerPresent: false });
  // No new attempt (the session changed since it was read, e.g. the payer paid meanwhile): say why.
  const started = outcome.kind === 'done' && outcome.payment && !loaded.session.attempts.includes(outcome.payment.paymentId);
  if (!started) {
    const current = (await findSession(deps, loaded.session.sessionId)) ?? loaded.session;
    const refusal = retryRefusal(payment, current, (await latestPayment(deps, current))?.phase ?? null, now());
    return { refusal: refusal ?? retryRefusal(payment, current, 'initiated', now()) };
  }
  return { refusal: null };
}
