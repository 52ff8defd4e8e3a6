/**
 * A merchant creates a session: its order number is reserved (for the session, whose attempts all
 * share it) in the same append as the session, so a repeat of the request within the duplicate
 * window gets the original session back and a later one is a duplicate.
 */
import { randomUUID } from 'node:crypto';
import { CARD_METHOD } from '../../../domain/checkout/session-methods';
import type { ExistingSession } from '../../../domain/checkout/session-state';
import { DomainError } from '../../../domain/errors';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { orderReservation, orderTaken, repeatOf } from '../../order-reservation';
import { CardTokenNotFoundError, DuplicatePaymentError } from '../../payments';
import type { EventMetadata } from '../../ports/event-store';
import type { CheckoutDeps } from '../deps';
import { merchantOf } from '../merchant-of';
import { requirementsOf } from '../method-requirements';
import { findSession } from '../session-lookup';
import { pageUrl, tokenOf } from '../session-links';
import { sessionWrite } from '../session-stream';
import type { CreatedSession, NewSession } from './command';

export async function createSession(deps: CheckoutDeps, input: NewSession, correlationId: string): Promise<CreatedSession> {
  if (input.cardToken && !(await deps.vault.retrieve(input.cardToken, input.merchantId))) throw new CardTokenNotFoundError();
  // `schedule_not_found` for a schedule the merchant does not have (or deleted).
  if (input.schedule) await deps.schedules.info(input.merchantId, input.schedule.scheduleId);
  // A session none of the merchant's connectors could pay is refused now, not on the payer's page.
  const merchant = await merchantOf(deps, input.merchantId);
  if (input.methods.length === 0) throw new DomainError('no_capable_connector', 'Payment action not supported');
  if (input.methods.includes(CARD_METHOD)) deps.payments.assertRoutable(merchantConnectors(merchant), requirementsOf(input, CARD_METHOD));
  const sessionId = randomUUID();
  const now = deps.clock.now();
  const metadata: EventMetadata = { correlationId, causationId: correlationId };
  const { expiryMinutes, ...data } = input;
  const { decider } = deps.sessions;
  const events = decider.decide(
    {
      type: 'CreateSession',
      data: {
        ...data,
        sessionId,
        expiresAt: new Date(now.getTime() + expiryMinutes * 60_000).toISOString(),
        now: now.toISOString(),
        merchantPaymentMode: merchant.paymentMode,
      },
    },
    decider.initialState(),
  );
  const owner = { merchantId: input.merchantId, orderId: input.order.number, paymentId: sessionId, sessionId };
  const reservation = orderReservation(owner, now.toISOString(), metadata);
  try {
    await deps.store.appendMultiple([reservation, sessionWrite(deps.sessions, sessionId, events, metadata, null)]);
  } catch (error) {
    if (!orderTaken(error, reservation)) throw error;
    return replayOrReject(deps, input);
  }
  const session = events.reduce(decider.evolve, decider.initialState()) as ExistingSession;
  return { session, redirectUrl: pageUrl(deps, sessionId), token: tokenOf(deps, sessionId), replayed: false };
}

/** A repeat of an order number within the window gets the original session back. */
async function replayOrReject(deps: CheckoutDeps, input: NewSession): Promise<CreatedSession> {
  const repeat = await repeatOf(deps.store, { merchantId: input.merchantId, orderId: input.order.number }, 'session', deps.clock.now());
  if (repeat.kind === 'duplicate') throw new DuplicatePaymentError();
  const session = await findSession(deps, repeat.owner);
  if (!session) throw new DuplicatePaymentError();
  return { session, redirectUrl: pageUrl(deps, session.sessionId), token: tokenOf(deps, session.sessionId), replayed: true };
}
