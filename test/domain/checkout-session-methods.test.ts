/**
 * Which methods a Checkout session offers (session-methods.ts) and the session decider's rule that
 * an attempt pays with one of them. Given what the merchant could be paid with, When a session
 * asks for methods (or none), Then what it offers and every problem, worded as field errors.
 */
import { expect } from 'chai';
import { sandboxMethod } from '../../src/adapters/connectors/sandbox-apm';
import { decideSession, type CheckoutSessionCommand } from '../../src/domain/checkout/session-decide';
import type { CheckoutSessionCreated, CheckoutSessionEvent } from '../../src/domain/checkout/session-events';
import { sessionMethods, type AvailableMethod, type SessionMethodsInput } from '../../src/domain/checkout/session-methods';
import { evolveSession, initialSessionState, type SessionState } from '../../src/domain/checkout/session-state';
import { sessionData } from '../support/checkout-fixtures';
import { DeciderSpecification } from '../support/decider-spec';

const offer = (method: string): AvailableMethod => ({ method, description: sandboxMethod(method)! });
const CARD: AvailableMethod = { method: 'card', description: null };
const AVAILABLE = [CARD, offer('sb-redirect'), offer('sb-qr'), offer('sb-bank'), offer('sb-otp')];

const given = (over: Partial<SessionMethodsInput> = {}): SessionMethodsInput => ({
  operation: 'purchase',
  hostedFields: false,
  available: AVAILABLE,
  parameters: null,
  payer: {},
  ...over,
});

describe('Checkout session methods', () => {
  describe('methods sent by the merchant', () => {
    it('Given methods the merchant can be paid with, When the session names them, Then it offers exactly those, in its order', () => {
      expect(sessionMethods(given({ requested: ['sb-qr', 'card'] }))).to.deep.equal({ methods: ['sb-qr', 'card'], problems: [] });
    });

    it('Given a method that is not available, When the session names it, Then methods[i] is refused naming it and what is available', () => {
      const result = sessionMethods(given({ requested: ['card', 'voucher'] }));
      expect(result.problems).to.deep.equal([
        { field: 'methods[1]', message: 'The payment method "voucher" is not available. Available: card, sb-redirect, sb-qr, sb-bank, sb-otp.' },
      ]);
    });

    it('Given a debit, a credit or hosted payment fields, When the session names an alternative method, Then it is refused: only the card is available', () => {
      for (const over of [{ operation: 'debit' as const }, { operation: 'credit' as const }, { hostedFields: true }]) {
        const result = sessionMethods(given({ ...over, requested: ['sb-qr'] }));
        expect(result.problems, JSON.stringify(over)).to.deep.equal([{ field: 'methods[0]', message: 'The payment method "sb-qr" is not available. Available: card.' }]);
      }
    });

    it('Given a method that only pays out, When the session names it with its parameters, Then methods[i] is refused saying so, and it is never offered', () => {
      const parameters = { 'sb-momo': { mobile_money_operator: 'mtn-gh', mobile_number: '233241234567', customer_email: 'payee@example.com' } };
      const available = [...AVAILABLE, offer('sb-momo')];
      const result = sessionMethods(given({ available, requested: ['card', 'sb-momo'], parameters }));
      expect(result.problems).to.deep.equal([
        { field: 'methods[1]', message: 'The payment method "sb-momo" is not available: it only pays out. Available: card, sb-redirect, sb-qr, sb-bank, sb-otp.' },
      ]);
      expect(sessionMethods(given({ available, parameters })).methods).not.to.include('sb-momo');
    });

    it('Given a method named twice, Then it is offered once', () => {
      expect(sessionMethods(given({ requested: ['sb-qr', 'sb-qr'] })).methods).to.deep.equal(['sb-qr']);
    });
  });

  describe('methods not sent', () => {
    it('Given no methods, Then the session offers everything available that has what it needs, card first', () => {
      // sb-bank needs bank_code and bank_account_number from the merchant, which it did not send.
      expect(sessionMethods(given())).to.deep.equal({ methods: ['card', 'sb-redirect', 'sb-qr', 'sb-otp'], problems: [] });
    });

    it('Given no methods but the parameters a method needs, Then that method is offered too', () => {
      const parameters = { 'sb-bank': { bank_code: '001', bank_account_number: '1234567' } };
      expect(sessionMethods(given({ parameters })).methods).to.deep.equal(['card', 'sb-redirect', 'sb-qr', 'sb-bank', 'sb-otp']);
    });

    it('Given a debit, a credit or hosted payment fields, Then only the card is offered', () => {
      for (const over of [{ operation: 'debit' as const }, { operation: 'credit' as const }, { hostedFields: true }]) {
        expect(sessionMethods(given(over)).methods, JSON.stringify(over)).to.deep.equal(['card']);
      }
    });
  });

  describe('parameters.<method_id>, checked as S2S APM checks parameters[...]', () => {
    it('Given a named method without a field the merchant must send, Then parameters.<method>.<field> is refused', () => {
      const result = sessionMethods(given({ requested: ['sb-bank'], parameters: { 'sb-bank': { bank_code: '001' } } }));
      expect(result.problems).to.deep.equal([{ field: 'parameters.sb-bank.bank_account_number', message: 'This value should not be blank.' }]);
    });

    it('Given a field the method does not take, a field of the wrong shape, or a set that is not an object, Then each is refused in S2S APM\'s words', () => {
      const result = sessionMethods(
        given({ requested: ['sb-otp', 'sb-qr', 'sb-redirect'], parameters: { 'sb-otp': { phone: 'call me', colour: 'red' }, 'sb-qr': 7, 'sb-redirect': {} } }),
      );
      expect(result.problems).to.deep.equal([
        { field: 'parameters.sb-otp.colour', message: 'This field was not expected.' },
        { field: 'parameters.sb-otp.phone', message: 'This value is not valid.' },
        { field: 'parameters.sb-qr', message: 'This value should be of type object.' },
      ]);
    });

    it('Given parameters the merchant sent for a method it did not name, When methods are not sent, Then their problems are refused rather than the method quietly left out', () => {
      const result = sessionMethods(given({ parameters: { 'sb-bank': { bank_code: '001' } } }));
      expect(result.problems).to.deep.equal([{ field: 'parameters.sb-bank.bank_account_number', message: 'This value should not be blank.' }]);
    });

    it('Given a field collected from the payer when absent (the OTP phone), Then leaving it out is no problem: the hosted page asks', () => {
      expect(sessionMethods(given({ requested: ['sb-otp'] }))).to.deep.equal({ methods: ['sb-otp'], problems: [] });
    });

    it('Given parameters under a key that is no method of the session, Then they are none of this rule\'s business', () => {
      expect(sessionMethods(given({ requested: ['card'], parameters: { 'sb-bank': { nonsense: true }, other: 'x' } })).problems).to.deep.equal([]);
    });
  });
});

const spec = DeciderSpecification.for<CheckoutSessionCommand, SessionState, CheckoutSessionEvent>({
  decide: decideSession,
  evolve: evolveSession,
  initialState: initialSessionState,
});

const SESSION_ID = '2d5b1c8e-3f4a-4b6c-8d7e-9f0a1b2c3d4e';
const PAYMENT_ID = '8e000000-0000-4000-8000-000000000001';
const T0 = '2030-05-01T12:00:00.000Z';
const T1 = '2030-05-01T12:01:00.000Z';
const created = (methods: string[]): CheckoutSessionCreated => ({ type: 'CheckoutSessionCreated', data: sessionData({ sessionId: SESSION_ID, methods, createdAt: T0 }) });

describe('Checkout session decider: the method of an attempt', () => {
  it('Given a session offering sb-qr, When the payer pays with sb-qr, Then the attempt starts and records its method', () => {
    spec
      .given([created(['card', 'sb-qr'])])
      .when({ type: 'StartPayment', data: { paymentId: PAYMENT_ID, latestPhase: null, now: T1, method: 'sb-qr' } })
      .then([{ type: 'CheckoutPaymentStarted', data: { sessionId: SESSION_ID, paymentId: PAYMENT_ID, attempt: 1, method: 'sb-qr', startedAt: T1 } }]);
  });

  it('Given a session offering the card only, When the payer pays with sb-qr, Then the attempt is refused: method_not_offered', () => {
    spec
      .given([created(['card'])])
      .when({ type: 'StartPayment', data: { paymentId: PAYMENT_ID, latestPhase: null, now: T1, method: 'sb-qr' } })
      .thenThrows('method_not_offered');
  });

  it('Given a session offering sb-qr only, When an attempt names no method (the card), Then it is refused', () => {
    spec.given([created(['sb-qr'])]).when({ type: 'StartPayment', data: { paymentId: PAYMENT_ID, latestPhase: null, now: T1 } }).thenThrows('method_not_offered');
  });

  it('Given a card attempt, Then its record names no method, as before methods existed', () => {
    spec
      .given([created(['card', 'sb-qr'])])
      .when({ type: 'StartPayment', data: { paymentId: PAYMENT_ID, latestPhase: null, now: T1, method: 'card' } })
      .then([{ type: 'CheckoutPaymentStarted', data: { sessionId: SESSION_ID, paymentId: PAYMENT_ID, attempt: 1, startedAt: T1 } }]);
  });
});
