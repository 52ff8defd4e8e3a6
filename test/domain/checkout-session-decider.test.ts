import { expect } from 'chai';
import { decideSession, MAX_ATTEMPTS, type CheckoutSessionCommand } from '../../src/domain/checkout/session-decide';
import type { CheckoutSessionCreated, CheckoutSessionEvent } from '../../src/domain/checkout/session-events';
import { evolveSession, initialSessionState, type SessionState } from '../../src/domain/checkout/session-state';
import { sessionIdOfToken, sessionTokenFor } from '../../src/domain/checkout/session-token';
import { sessionData } from '../support/checkout-fixtures';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for<CheckoutSessionCommand, SessionState, CheckoutSessionEvent>({
  decide: decideSession,
  evolve: evolveSession,
  initialState: initialSessionState,
});

const SESSION_ID = '5b0c8f3e-2d1a-4c7b-9e6f-0a1b2c3d4e5f';
const T0 = '2026-03-01T10:00:00.000Z';
const EXPIRES = '2026-03-01T11:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const AFTER_EXPIRY = '2026-03-01T11:00:00.000Z';
const pay = (n: number) => `7c000000-0000-4000-8000-00000000000${n}`;

const created: CheckoutSessionCreated = {
  type: 'CheckoutSessionCreated',
  data: sessionData({ sessionId: SESSION_ID, merchantId: 'm-1', billingAddress: { country: 'US' }, expiresAt: EXPIRES, createdAt: T0 }),
};

const started = (n: number, at = T1): CheckoutSessionEvent => ({
  type: 'CheckoutPaymentStarted',
  data: { sessionId: SESSION_ID, paymentId: pay(n), attempt: n, startedAt: at },
});

describe('Checkout session decider', () => {
  it('creates a session once: a second create of the same id is refused', () => {
    const { createdAt: _c, ...data } = created.data;
    spec.given([]).when({ type: 'CreateSession', data: { ...data, now: T0 } }).then([created]);
    spec.given([created]).when({ type: 'CreateSession', data: { ...data, now: T0 } }).thenThrows('session_exists');
  });

  it('starts the first attempt as attempt 1', () => {
    spec.given([created]).when({ type: 'StartPayment', data: { paymentId: pay(1), latestPhase: null, now: T1 } }).then([started(1)]);
  });

  it('lets the payer try again after a decline, numbering the attempt', () => {
    spec
      .given([created, started(1)])
      .when({ type: 'StartPayment', data: { paymentId: pay(2), latestPhase: 'declined', now: T1 } })
      .then([started(2)]);
  });

  it('refuses a new attempt while one awaits the acquirer or the payer, and once one succeeded', () => {
    for (const phase of ['initiated', 'outcome_unknown', 'awaiting_3ds', 'awaiting_redirect'] as const) {
      spec.given([created, started(1)]).when({ type: 'StartPayment', data: { paymentId: pay(2), latestPhase: phase, now: T1 } }).thenThrows('payment_in_progress');
    }
    for (const phase of ['settled', 'authorized', 'refunded', 'voided', 'reversed'] as const) {
      spec.given([created, started(1)]).when({ type: 'StartPayment', data: { paymentId: pay(2), latestPhase: phase, now: T1 } }).thenThrows('session_paid');
    }
  });

  it(`allows ${MAX_ATTEMPTS} attempts and no more`, () => {
    const history = [created, ...Array.from({ length: MAX_ATTEMPTS }, (_, i) => started(i + 1))];
    spec.given(history).when({ type: 'StartPayment', data: { paymentId: pay(9), latestPhase: 'declined', now: T1 } }).thenThrows('attempts_exhausted');
  });

  it('refuses payment once the session expired, and records the expiry only when it is due', () => {
    spec.given([created]).when({ type: 'StartPayment', data: { paymentId: pay(1), latestPhase: null, now: AFTER_EXPIRY } }).thenThrows('session_expired');
    spec.given([created]).when({ type: 'ExpireSession', data: { now: T1 } }).then([]);
    spec
      .given([created])
      .when({ type: 'ExpireSession', data: { now: AFTER_EXPIRY } })
      .then([{ type: 'CheckoutSessionExpired', data: { sessionId: SESSION_ID, expiredAt: AFTER_EXPIRY } }]);
  });

  it('cancels an unpaid session once, and refuses to cancel one that is paid or being paid', () => {
    spec
      .given([created, started(1)])
      .when({ type: 'CancelSession', data: { latestPhase: 'declined', now: T1 } })
      .then([{ type: 'CheckoutSessionCancelled', data: { sessionId: SESSION_ID, cancelledAt: T1 } }]);
    spec
      .given([created, { type: 'CheckoutSessionCancelled', data: { sessionId: SESSION_ID, cancelledAt: T1 } }])
      .when({ type: 'CancelSession', data: { latestPhase: null, now: T1 } })
      .then([]);
    spec.given([created, started(1)]).when({ type: 'CancelSession', data: { latestPhase: 'settled', now: T1 } }).thenThrows('session_paid');
    spec.given([created, started(1)]).when({ type: 'CancelSession', data: { latestPhase: 'awaiting_3ds', now: T1 } }).thenThrows('session_paid');
  });

  it('refuses to pay on a cancelled session', () => {
    spec
      .given([created, { type: 'CheckoutSessionCancelled', data: { sessionId: SESSION_ID, cancelledAt: T1 } }])
      .when({ type: 'StartPayment', data: { paymentId: pay(1), latestPhase: null, now: T1 } })
      .thenThrows('session_cancelled');
  });

  it('folds the attempts in order', () => {
    spec.given([created, started(1), started(2)]).when({ type: 'ExpireSession', data: { now: T1 } }).thenState({ attempts: [pay(1), pay(2)], status: 'open' });
  });
});

describe('hosted payment fields tokens', () => {
  const secret = Buffer.alloc(32, 7);
  it('name their session and cannot be forged or moved to another session', () => {
    const token = sessionTokenFor(secret, SESSION_ID);
    expect(sessionIdOfToken(secret, token)).to.equal(SESSION_ID);
    expect(sessionIdOfToken(Buffer.alloc(32, 8), token)).to.equal(null);
    const other = '6b0c8f3e-2d1a-4c7b-9e6f-0a1b2c3d4e5f';
    expect(sessionIdOfToken(secret, `${other}${token.slice(SESSION_ID.length)}`)).to.equal(null);
    expect(sessionIdOfToken(secret, SESSION_ID)).to.equal(null);
    expect(sessionIdOfToken(secret, undefined)).to.equal(null);
  });
});
