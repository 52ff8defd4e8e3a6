/**
 * When a merchant's retry of a declined Checkout payment may start the session's next attempt:
 * given the payment, its session and where the latest attempt stands, then the refusal (or none).
 */
import { expect } from 'chai';
import { retryRefusal } from '../../src/domain/checkout/retry';
import { MAX_ATTEMPTS } from '../../src/domain/checkout/session-decide';
import type { CheckoutSessionCreated, CheckoutSessionEvent } from '../../src/domain/checkout/session-events';
import { evolveSession, initialSessionState, type ExistingSession } from '../../src/domain/checkout/session-state';
import type { ExistingPayment } from '../../src/domain/payment/state';
import { sessionData } from '../support/checkout-fixtures';

const SESSION_ID = '5b0c8f3e-2d1a-4c7b-9e6f-0a1b2c3d4e5f';
const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const LATER = '2026-03-01T11:00:00.000Z';
const pay = (n: number) => `7c000000-0000-4000-8000-00000000000${n}`;

const created: CheckoutSessionCreated = {
  type: 'CheckoutSessionCreated',
  data: sessionData({ sessionId: SESSION_ID, merchantId: 'm-1', expiresAt: LATER, createdAt: T0 }),
};
const started = (n: number): CheckoutSessionEvent => ({ type: 'CheckoutPaymentStarted', data: { sessionId: SESSION_ID, paymentId: pay(n), attempt: n, startedAt: T1 } });
const sessionAfter = (...events: CheckoutSessionEvent[]) => [created, ...events].reduce(evolveSession, initialSessionState()) as ExistingSession;

const card = (token: string | null) => ({ mask: '411111******1111', brand: 'VISA', expMonth: '02', expYear: '2038', token });
const declined = (token: string | null = 'tok_1'): Pick<ExistingPayment, 'phase' | 'checkout' | 'card'> => ({
  phase: 'declined',
  checkout: { sessionId: SESSION_ID, operation: 'debit', attempt: 1, hostedFields: false },
  card: card(token),
});

describe('Checkout retry', () => {
  it('Given a declined attempt whose card was stored, in an open session with attempts left, then it may be retried', () => {
    expect(retryRefusal(declined(), sessionAfter(started(1)), 'declined', T1)).to.equal(null);
  });

  it('Given a payment that did not decline, then not_declined', () => {
    expect(retryRefusal({ ...declined(), phase: 'settled' }, sessionAfter(started(1)), 'settled', T1)).to.include({ code: 'not_declined' });
  });

  it('Given a payment made outside a session (S2S, a chain charge), then not_a_session_payment', () => {
    const { checkout: _c, ...s2s } = declined();
    expect(retryRefusal(s2s, null, null, T1)).to.include({ code: 'not_a_session_payment', message: 'Payment cannot be retried: it was not made in a Checkout session.' });
  });

  it('Given the session expired, was cancelled or is paid by a later attempt, then the session\'s refusal', () => {
    expect(retryRefusal(declined(), sessionAfter(started(1)), 'declined', LATER)).to.include({ code: 'session_expired' });
    const cancelled = sessionAfter(started(1), { type: 'CheckoutSessionCancelled', data: { sessionId: SESSION_ID, cancelledAt: T1 } });
    expect(retryRefusal(declined(), cancelled, 'declined', T1)).to.include({ code: 'session_cancelled' });
    expect(retryRefusal(declined(), sessionAfter(started(1), started(2)), 'settled', T1)).to.include({ code: 'session_paid' });
    expect(retryRefusal(declined(), sessionAfter(started(1), started(2)), 'awaiting_3ds', T1)).to.include({ code: 'payment_in_progress' });
  });

  it(`Given ${MAX_ATTEMPTS} declined attempts, then attempts_exhausted`, () => {
    const all = Array.from({ length: MAX_ATTEMPTS }, (_, i) => started(i + 1));
    expect(retryRefusal(declined(), sessionAfter(...all), 'declined', T1)).to.deep.equal({
      code: 'attempts_exhausted',
      message: `Payment cannot be retried: its session has no attempts left (at most ${MAX_ATTEMPTS}).`,
    });
  });

  it('Given a declined attempt whose card was not stored, then card_not_stored: there is no card to charge without the payer', () => {
    expect(retryRefusal(declined(null), sessionAfter(started(1)), 'declined', T1)).to.include({ code: 'card_not_stored' });
  });
});
