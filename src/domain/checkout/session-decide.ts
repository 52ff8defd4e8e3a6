/**
 * The Checkout session decider. Whether the payer may try (again) depends on how the latest
 * attempt ended, which lives in that payment's stream: the command carries it as data, so deciding
 * stays pure.
 */
import { DomainError } from '../errors';
import type { PaymentMode } from '../merchant/events';
import type { CheckoutOperation, PaymentKind } from '../payment/events';
import { paymentModeAllows } from '../payment/policy';
import type { PaymentPhase } from '../payment/state';
import type { CheckoutSessionCreated, CheckoutSessionEvent } from './session-events';
import type { ExistingSession, SessionState } from './session-state';
import { CARD_METHOD } from './session-methods';

/** A payer gets this many attempts per session; after the last decline the session is over. */
export const MAX_ATTEMPTS = 5;

/** `merchantPaymentMode`, when given, is the MID's Payment Mode the session's payments must fit (not recorded). */
export interface CreateSession {
  type: 'CreateSession';
  data: Omit<CheckoutSessionCreated['data'], 'createdAt'> & { now: string; merchantPaymentMode?: PaymentMode };
}

/** The kind of payment a session's attempts make. */
export const sessionPaymentKind = (s: { operation: CheckoutOperation; auth: boolean }): PaymentKind =>
  s.operation === 'purchase' ? (s.auth ? 'authorization' : 'sale') : s.operation;

export interface StartPayment {
  type: 'StartPayment';
  /**
   * `latestPhase`: where the session's latest attempt stands (null before the first); `method`: what
   * the payer pays with, one of the session's methods (absent: the card).
   */
  data: { paymentId: string; latestPhase: PaymentPhase | null; now: string; method?: string };
}

export interface CancelSession {
  type: 'CancelSession';
  data: { latestPhase: PaymentPhase | null; now: string };
}

export interface ExpireSession {
  type: 'ExpireSession';
  data: { now: string };
}

export type CheckoutSessionCommand = CreateSession | StartPayment | CancelSession | ExpireSession;

/** Phases after which the payer may not start another attempt: money moved or may still move. */
const FINAL_OR_BUSY: ReadonlySet<PaymentPhase> = new Set<PaymentPhase>([
  'initiated',
  'outcome_unknown',
  'awaiting_3ds',
  'awaiting_redirect',
  'awaiting_provider',
  'authorized',
  'settled',
  'voided',
  'reversed',
  'refunded',
]);

/** What the session's payer may pay with; a session recorded without any offers the card. */
export const offeredMethods = (s: Pick<ExistingSession, 'methods'>): readonly string[] => (s.methods?.length ? s.methods : [CARD_METHOD]);

export const isExpired = (s: Pick<ExistingSession, 'expiresAt'>, now: string): boolean => Date.parse(now) >= Date.parse(s.expiresAt);

/** Why the payer cannot pay on this session now, or null when they can. */
export function paymentRefusal(
  s: ExistingSession,
  latestPhase: PaymentPhase | null,
  now: string,
): { code: 'session_expired' | 'session_cancelled' | 'session_paid' | 'payment_in_progress' | 'attempts_exhausted'; message: string } | null {
  if (s.status === 'cancelled') return { code: 'session_cancelled', message: 'This payment was cancelled.' };
  if (s.status === 'expired' || isExpired(s, now)) return { code: 'session_expired', message: 'This payment session has expired.' };
  if (latestPhase !== null && latestPhase !== 'declined') {
    if (latestPhase === 'initiated' || latestPhase === 'outcome_unknown' || latestPhase === 'awaiting_3ds' || latestPhase === 'awaiting_redirect' || latestPhase === 'awaiting_provider') {
      return { code: 'payment_in_progress', message: 'A payment is already in progress for this session.' };
    }
    return { code: 'session_paid', message: 'This order has already been paid.' };
  }
  if (s.attempts.length >= MAX_ATTEMPTS) return { code: 'attempts_exhausted', message: 'No more payment attempts are allowed for this order.' };
  return null;
}

export function decideSession(command: CheckoutSessionCommand, state: SessionState): CheckoutSessionEvent[] {
  if (command.type === 'CreateSession') {
    if (state.exists) throw new DomainError('session_exists', `Session ${command.data.sessionId} already exists`);
    const { now, merchantPaymentMode, ...data } = command.data;
    // Zero is for a card check that starts a chain; an authorization-only session may not pay zero (spec Errors rule 5).
    if (data.order.amount === 0 && !data.recurringInit) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
    if (merchantPaymentMode && !paymentModeAllows(merchantPaymentMode, sessionPaymentKind(data))) {
      throw new DomainError('action_not_supported', 'Payment action not supported');
    }
    return [{ type: 'CheckoutSessionCreated', data: { ...data, createdAt: now } }];
  }
  if (!state.exists) throw new DomainError('session_not_found', 'Session not found.');
  const s = state;
  switch (command.type) {
    case 'StartPayment': {
      const refusal = paymentRefusal(s, command.data.latestPhase, command.data.now);
      if (refusal) throw new DomainError(refusal.code, refusal.message);
      const method = command.data.method ?? CARD_METHOD;
      if (!offeredMethods(s).includes(method)) throw new DomainError('method_not_offered', `The payment method "${method}" is not offered by this session.`);
      return [
        {
          type: 'CheckoutPaymentStarted',
          data: {
            sessionId: s.sessionId,
            paymentId: command.data.paymentId,
            attempt: s.attempts.length + 1,
            ...(method !== CARD_METHOD ? { method } : {}),
            startedAt: command.data.now,
          },
        },
      ];
    }
    case 'CancelSession':
      if (s.status !== 'open') return [];
      if (command.data.latestPhase !== null && FINAL_OR_BUSY.has(command.data.latestPhase)) {
        throw new DomainError('session_paid', 'This payment can no longer be cancelled.');
      }
      return [{ type: 'CheckoutSessionCancelled', data: { sessionId: s.sessionId, cancelledAt: command.data.now } }];
    case 'ExpireSession':
      if (s.status !== 'open' || !isExpired(s, command.data.now)) return [];
      return [{ type: 'CheckoutSessionExpired', data: { sessionId: s.sessionId, expiredAt: command.data.now } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
