/**
 * The merchant-facing rules of a payment, written once in the domain: the deciders refuse a zero
 * amount that is not a card check and a kind of payment the MID's Payment Mode does not allow; the
 * use cases ask when a card is kept, when the payer is absent and which currency a chain charges in.
 */
import { expect } from 'chai';
import { sessionDecider } from '../../src/domain/checkout/session-decider';
import type { CreateSession } from '../../src/domain/checkout/session-decide';
import type { PaymentMode } from '../../src/domain/merchant/events';
import type { InitiatePayment } from '../../src/domain/payment/commands';
import { paymentDecider } from '../../src/domain/payment/decider';
import type { PaymentKind } from '../../src/domain/payment/events';
import { chainCurrencyAccepts, payerPresent, storesCard } from '../../src/domain/payment/policy';
import { DeciderSpecification } from '../support/decider-spec';
import { paymentInitiated, T0 } from '../support/payment-fixtures';
import { sessionData } from '../support/checkout-fixtures';

const payments = DeciderSpecification.for(paymentDecider);
const sessions = DeciderSpecification.for(sessionDecider);

function initiate(kind: PaymentKind, amount: number, extra: Partial<InitiatePayment['data']> = {}): InitiatePayment {
  const { initiatedAt: _at, ...data } = paymentInitiated({ kind, amount, amountText: (amount / 100).toFixed(2) }).data;
  return { type: 'InitiatePayment', data: { ...data, now: T0, ...extra } };
}

function withoutCreatedAt<T extends { createdAt: string }>(data: T): Omit<T, 'createdAt'> {
  const { createdAt: _created, ...rest } = data;
  return rest;
}

describe('Payment policy', () => {
  describe('zero amounts (a card check only)', () => {
    it('Given a sale of 0.00, then it is refused; with recurring_init it starts a chain', () => {
      payments.given([]).when(initiate('sale', 0)).thenThrows('amount_not_positive');
      payments.given([]).when(initiate('sale', 0, { recurringInit: true })).thenState({ phase: 'initiated', amount: 0 });
    });

    it('Given an authorization of 0.00, then it is a card check and is recorded', () => {
      payments.given([]).when(initiate('authorization', 0)).thenState({ phase: 'initiated', kind: 'authorization' });
    });

    it('Given a debit or a credit of 0.00, then it is refused', () => {
      payments.given([]).when(initiate('debit', 0)).thenThrows('amount_not_positive');
      payments.given([]).when(initiate('credit', 0)).thenThrows('amount_not_positive');
    });
  });

  describe("the MID's Payment Mode", () => {
    const table: Array<[PaymentMode, PaymentKind, boolean]> = [
      ['SMS', 'sale', true],
      ['SMS', 'authorization', false],
      ['DMS', 'sale', false],
      ['DMS', 'authorization', true],
      ['SMS/DMS', 'sale', true],
      ['SMS/DMS', 'authorization', true],
      ['DMS', 'debit', true],
      ['SMS', 'credit', true],
    ];
    for (const [mode, kind, allowed] of table) {
      it(`Given a ${mode} merchant, when a ${kind} is initiated, then it is ${allowed ? 'recorded' : 'refused'}`, () => {
        const when = payments.given([]).when(initiate(kind, 1000, { merchantPaymentMode: mode }));
        if (allowed) when.thenState({ phase: 'initiated' });
        else when.thenThrows('action_not_supported');
      });
    }

    it('Given a payment mode, then it is checked and not recorded with the payment', () => {
      const [event] = paymentDecider.decide(initiate('sale', 1000, { merchantPaymentMode: 'SMS' }), { exists: false });
      expect(event!.data).not.to.have.property('merchantPaymentMode');
    });
  });

  describe('Checkout sessions', () => {
    const create = (over: Partial<CreateSession['data']>): CreateSession => ({ type: 'CreateSession', data: { ...withoutCreatedAt(sessionData()), now: T0, ...over } });

    it('Given a session of 0.00, then it is refused unless it starts a chain', () => {
      const zero = { ...sessionData().order, amount: 0, amountText: '0.00' };
      sessions.given([]).when(create({ order: zero })).thenThrows('amount_not_positive');
      sessions.given([]).when(create({ order: zero, recurringInit: true })).thenState({ exists: true });
    });

    it('Given a DMS merchant, then a purchase session is refused and an authorization session recorded; an SMS merchant the reverse', () => {
      sessions.given([]).when(create({ operation: 'purchase', auth: false, merchantPaymentMode: 'DMS' })).thenThrows('action_not_supported');
      sessions.given([]).when(create({ operation: 'purchase', auth: true, merchantPaymentMode: 'DMS' })).thenState({ exists: true });
      sessions.given([]).when(create({ operation: 'purchase', auth: true, merchantPaymentMode: 'SMS' })).thenThrows('action_not_supported');
      sessions.given([]).when(create({ operation: 'debit', auth: false, merchantPaymentMode: 'DMS' })).thenState({ exists: true });
    });
  });

  describe('when a card is kept, when the payer is absent, which currency a chain charges in', () => {
    it('keeps a card number when a token is asked for, when it starts a chain, and for every debit; never a stored card again', () => {
      expect(storesCard({ cardSource: 'card_number', kind: 'sale', reqToken: false, recurringInit: false })).to.equal(false);
      expect(storesCard({ cardSource: 'card_number', kind: 'sale', reqToken: true, recurringInit: false })).to.equal(true);
      expect(storesCard({ cardSource: 'card_number', kind: 'sale', reqToken: false, recurringInit: true })).to.equal(true);
      expect(storesCard({ cardSource: 'card_number', kind: 'debit', reqToken: false, recurringInit: false })).to.equal(true);
      expect(storesCard({ cardSource: 'card_token', kind: 'debit', reqToken: true, recurringInit: true })).to.equal(false);
    });

    it('takes payer_present=N only with a stored card: a card number means the payer gave it', () => {
      expect(payerPresent({ cardSource: 'card_token', payerPresentSent: 'N' })).to.equal(false);
      expect(payerPresent({ cardSource: 'card_number', payerPresentSent: 'N' })).to.equal(true);
      expect(payerPresent({ cardSource: 'card_token', payerPresentSent: undefined })).to.equal(true);
      expect(payerPresent({ cardSource: 'card_token', payerPresentSent: 'Y' })).to.equal(true);
    });

    it("charges a chain in its first payment's currency: none sent, or the same", () => {
      expect(chainCurrencyAccepts('EUR', undefined)).to.equal(true);
      expect(chainCurrencyAccepts('EUR', 'EUR')).to.equal(true);
      expect(chainCurrencyAccepts('EUR', 'USD')).to.equal(false);
    });
  });
});
