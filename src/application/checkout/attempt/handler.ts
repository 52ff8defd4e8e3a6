/**
 * One more attempt on a session, whoever makes it (the payer on the hosted page, with a wallet or
 * through hosted payment fields, or the merchant's retry). The attempt is a payment of its own,
 * started by PaymentService with the session's record of the attempt as its claim, so a double
 * submit can never reach the acquirer twice: the loser is sent where the winner's payment stands.
 */
import { CARD_METHOD } from '../../../domain/checkout/session-methods';
import type { CheckoutSessionEvent } from '../../../domain/checkout/session-events';
import type { ExistingSession, SessionState } from '../../../domain/checkout/session-state';
import { DomainError } from '../../../domain/errors';
import type { ExistingPayment } from '../../../domain/payment/state';
import type { MerchantAccount } from '../../merchant-service';
import { newId } from '../../new-id';
import { WrongExpectedVersionError } from '../../ports/event-store';
import type { CheckoutDeps } from '../deps';
import { latestPayment } from '../latest-payment';
import { merchantOf } from '../merchant-of';
import { destination, pageOrOn } from '../payer-destination';
import { recordExpiry } from '../record-expiry';
import { findSession } from '../session-lookup';
import { sessionWrite } from '../session-stream';
import { chainScheduleOf } from './chain-schedule';
import type { PayOutcome, StartAttempt } from './command';
import { checkoutPaymentRequest } from './payment-request';

export async function attempt(deps: CheckoutDeps, command: StartAttempt): Promise<PayOutcome> {
  const { session, version, paying, correlationId } = command;
  const merchant = await merchantOf(deps, session.merchantId);
  const latest = await latestPayment(deps, session);
  const paymentId = newId();
  let events: CheckoutSessionEvent[];
  try {
    const method = paying.method ? paying.method.brand : CARD_METHOD;
    const now = deps.clock.now().toISOString();
    events = deps.sessions.decider.decide({ type: 'StartPayment', data: { paymentId, latestPhase: latest?.phase ?? null, now, method } }, session);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return refused(deps, command, error, latest, merchant);
  }
  const started = events[0];
  const attemptNumber = started.type === 'CheckoutPaymentStarted' ? started.data.attempt : session.attempts.length + 1;
  const metadata = { correlationId, causationId: correlationId };
  const schedule = await chainScheduleOf(deps, session);
  let payment: ExistingPayment;
  try {
    payment = await deps.payments.startCheckoutPayment(
      checkoutPaymentRequest(command, merchant, { paymentId, attempt: attemptNumber, schedule }),
      sessionWrite(deps.sessions, session.sessionId, events, metadata, version),
    );
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    // Another submit of this session won the race: the payer sees where that one stands.
    const current = (await findSession(deps, session.sessionId)) ?? session;
    const other = await latestPayment(deps, current);
    return { kind: 'done', payment: other, next: pageOrOn(deps, current, other) };
  }
  // The session as appended with the attempt: no need to read it back.
  const after = events.reduce(deps.sessions.decider.evolve, session as SessionState) as ExistingSession;
  return { kind: 'done', payment, next: destination(deps, after, payment, merchant) };
}

/** The session takes no attempt now (paid, in progress, cancelled, out of attempts, expired): the payer goes where it stands. */
async function refused(
  deps: CheckoutDeps,
  { session, version }: StartAttempt,
  error: DomainError,
  latest: ExistingPayment | null,
  merchant: MerchantAccount,
): Promise<PayOutcome> {
  let current = session;
  if (error.code === 'session_expired' && session.status === 'open') current = await recordExpiry(deps, session, version);
  return { kind: 'done', payment: latest, next: destination(deps, current, latest, merchant) };
}
