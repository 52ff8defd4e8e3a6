/** What a merchant is told about Checkout payment events (docs/reference/callbacks.md#checkout-callbacks), from the pure builder. */
import { expect } from 'chai';
import { callbackFieldsFor } from '../../src/domain/callback/callback-content';
import { noProtocolMapping, protocolMapping } from '../../src/domain/merchant/protocol-mapping';
import type { PaymentEvent, PaymentInitiated, PaymentKind, RecurringLink } from '../../src/domain/payment/events';
import { evolvePayment, foldPayment, type ExistingPayment } from '../../src/domain/payment/state';
import { checkoutCallbackHash } from '../../src/domain/signatures';

const ID = '9d2f1a3b-4c5d-4e6f-8a7b-1c2d3e4f5a6b';
const PASSWORD = 'p4ssw0rd-of-the-merchant';
const T0 = '2026-04-01T10:00:00.000Z';
const T1 = '2026-04-01T10:00:01.000Z';
const T2 = '2026-04-01T11:30:00.000Z';

function initiated(kind: PaymentKind, token: string | null = null): PaymentInitiated {
  return {
    type: 'PaymentInitiated',
    data: {
      paymentId: ID,
      merchantId: 'm-1',
      channel: 'checkout',
      kind,
      orderId: 'order-7',
      orderDescription: 'Checkout order',
      currency: 'EUR',
      amount: 2500,
      amountText: '25.00',
      card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token },
      payer: { email: 'doe@example.com', country: 'US', state: 'NY', ip: '203.0.113.9' },
      termUrl3ds: null,
      notificationUrl: 'https://shop.example/cb',
      customData: { cart: 'c-1' },
      parameters: null,
      recurringInit: false,
      connector: 'sandbox',
      checkout: {
        sessionId: '5b0c8f3e-2d1a-4c7b-9e6f-0a1b2c3d4e5f',
        operation: kind === 'credit' ? 'credit' : kind === 'debit' ? 'debit' : 'purchase',
        attempt: 1,
        hostedFields: false,
        customerName: 'John Doe',
      },
      initiatedAt: T0,
    },
  };
}

const INIT_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const SCHEDULE_ID = 'f0e1d2c3-b4a5-4697-8888-999999999999';

/** A Checkout payment with a place in a recurring chain. */
function inChain(kind: PaymentKind, recurring: RecurringLink): PaymentInitiated {
  const base = initiated(kind, 'tok-chain');
  return { ...base, data: { ...base.data, recurringInit: recurring.role === 'initial', recurring } };
}

const insufficientFunds: PaymentEvent = {
  type: 'PaymentDeclined',
  data: { paymentId: ID, reason: 'Insufficient funds', code: 'insufficient_funds', stage: 'authorization', declinedAt: T1 },
};

function told(history: PaymentEvent[], mapping = noProtocolMapping()): Record<string, string> | null {
  const before = foldPayment(history.slice(0, -1));
  const event = history[history.length - 1];
  const after = evolvePayment(before, event) as ExistingPayment;
  const fields = callbackFieldsFor(event, after, { password: PASSWORD, protocolMapping: mapping });
  return fields && Object.fromEntries(fields);
}

const settled: PaymentEvent = { type: 'PaymentSettled', data: { paymentId: ID, amount: 2500, descriptor: 'SHOP', settledAt: T1 } };

describe('Checkout callbacks', () => {
  it('report a settled purchase with the order, customer, card, date and the Checkout hash', () => {
    const f = told([initiated('sale'), settled])!;
    expect(f).to.include({
      id: ID,
      order_number: 'order-7',
      order_amount: '25.00',
      order_currency: 'EUR',
      order_description: 'Checkout order',
      order_status: 'settled',
      type: 'sale',
      status: 'success',
      card: '411111******1111',
      card_expiration_date: '01/2038',
      customer_name: 'John Doe',
      customer_email: 'doe@example.com',
      customer_ip: '203.0.113.9',
      date: '2026-04-01 10:00:01',
      'custom_data[cart]': 'c-1',
    });
    expect(f.hash).to.equal(
      checkoutCallbackHash({ id: ID, orderNumber: 'order-7', orderAmount: '25.00', orderCurrency: 'EUR', orderDescription: 'Checkout order', password: PASSWORD }),
    );
    expect(f).not.to.have.property('action');
  });

  it('carry card_token in every debit callback and report type=debit', () => {
    const f = told([initiated('debit', 'tok-abc'), settled])!;
    expect(f).to.include({ type: 'debit', status: 'success', order_status: 'settled', card_token: 'tok-abc' });
  });

  it('report a credit as type=credit', () => {
    expect(told([initiated('credit'), settled])).to.include({ type: 'credit', status: 'success', order_status: 'settled' });
  });

  it('report a DMS authorization as a successful sale whose order is pending', () => {
    const authorized: PaymentEvent = { type: 'PaymentAuthorized', data: { paymentId: ID, amount: 2500, descriptor: 'SHOP', authorizedAt: T1 } };
    expect(told([initiated('authorization'), authorized])).to.include({ type: 'sale', status: 'success', order_status: 'pending' });
  });

  it('report a decline with its reason, and a 3DS challenge as waiting', () => {
    const declined: PaymentEvent = {
      type: 'PaymentDeclined',
      data: { paymentId: ID, reason: 'Insufficient funds', code: 'insufficient_funds', stage: 'authorization', declinedAt: T1 },
    };
    expect(told([initiated('sale'), declined])).to.include({ type: 'sale', status: 'fail', order_status: 'decline', reason: 'Insufficient funds' });
    const challenge: PaymentEvent = {
      type: 'ThreeDSChallengeRequired',
      data: { paymentId: ID, acsUrl: 'https://gw/acs', params: { PaReq: 'x', MD: ID, TermUrl: 'https://gw/t' }, requiredAt: T1 },
    };
    expect(told([initiated('sale'), challenge])).to.include({ type: '3ds', status: 'waiting', order_status: '3ds' });
  });

  it('keep order_status settled after a partial refund and report refund after a full one', () => {
    const op = 'a1000000-0000-4000-8000-000000000001';
    const requested = (amount: number): PaymentEvent => ({
      type: 'CreditVoidRequested',
      data: { paymentId: ID, operationId: op, kind: 'refund', amount, amountText: '', requestedAt: T2 },
    });
    const refunded = (amount: number): PaymentEvent => ({ type: 'RefundSucceeded', data: { paymentId: ID, operationId: op, amount, refundedAt: T2 } });
    expect(told([initiated('sale'), settled, requested(1000), refunded(1000)])).to.include({ type: 'refund', status: 'success', order_status: 'settled' });
    expect(told([initiated('sale'), settled, requested(2500), refunded(2500)])).to.include({ type: 'refund', status: 'success', order_status: 'refund' });
  });

  it('add checkout_payment_method=card under Protocol Mapping only', () => {
    expect(told([initiated('sale'), settled])).not.to.have.property('checkout_payment_method');
    const mapping = protocolMapping({ fields: ['checkout_payment_method'] });
    expect(told([initiated('sale'), settled], mapping)).to.include({ checkout_payment_method: 'card' });
  });

  it('say nothing about the payment being recorded', () => {
    expect(told([initiated('sale')])).to.equal(null);
  });

  describe('of recurring chains', () => {
    const initial: RecurringLink = { role: 'initial', initPaymentId: ID, token: 'rt-own' };

    it('give a successful initial payment its own id as recurring_init_trans_id and its recurring_token, after date and before custom_data', () => {
      const fields = callbackFieldsFor(settled, evolvePayment(foldPayment([inChain('sale', initial)]), settled) as ExistingPayment, {
        password: PASSWORD,
        protocolMapping: noProtocolMapping(),
      })!;
      const names = fields.map(([name]) => name);
      expect(names.slice(names.indexOf('date'), names.indexOf('date') + 4)).to.deep.equal([
        'date',
        'recurring_init_trans_id',
        'recurring_token',
        'custom_data[cart]',
      ]);
      const f = Object.fromEntries(fields);
      expect(f).to.include({ type: 'sale', status: 'success', recurring_init_trans_id: ID, recurring_token: 'rt-own' });
      // The chain fields are not hash input.
      expect(f.hash).to.equal(
        checkoutCallbackHash({ id: ID, orderNumber: 'order-7', orderAmount: '25.00', orderCurrency: 'EUR', orderDescription: 'Checkout order', password: PASSWORD }),
      );
    });

    it('give a debit chain the same fields', () => {
      expect(told([inChain('debit', initial), settled])).to.include({ type: 'debit', recurring_init_trans_id: ID, recurring_token: 'rt-own' });
    });

    it('hand out no token for an initial payment that was declined', () => {
      const f = told([inChain('sale', initial), insufficientFunds])!;
      expect(f).to.include({ type: 'sale', status: 'fail' });
      expect(f).not.to.have.property('recurring_token');
      expect(f).not.to.have.property('recurring_init_trans_id');
    });

    it('report a later charge as type=recurring naming the chain\'s first payment, success or fail', () => {
      const link: RecurringLink = { role: 'recurring', initPaymentId: INIT_ID };
      const ok = told([inChain('sale', link), settled])!;
      expect(ok).to.include({ type: 'recurring', status: 'success', order_status: 'settled', recurring_init_trans_id: INIT_ID });
      expect(ok).not.to.have.property('recurring_token');
      expect(told([inChain('debit', link), insufficientFunds])).to.include({ type: 'recurring', status: 'fail', order_status: 'decline', reason: 'Insufficient funds' });
    });

    it('keep the operation\'s own type for a refund of a later charge', () => {
      const op = 'a1000000-0000-4000-8000-000000000002';
      const requested: PaymentEvent = { type: 'CreditVoidRequested', data: { paymentId: ID, operationId: op, kind: 'refund', amount: 2500, amountText: '', requestedAt: T2 } };
      const refunded: PaymentEvent = { type: 'RefundSucceeded', data: { paymentId: ID, operationId: op, amount: 2500, refundedAt: T2 } };
      const link: RecurringLink = { role: 'recurring', initPaymentId: INIT_ID };
      expect(told([inChain('sale', link), settled, requested, refunded])).to.include({ type: 'refund', status: 'success', order_status: 'refund' });
    });

    it('name the schedule a payment started, with first_recurring_date, and the start date and amount only when sent', () => {
      const schedule = { scheduleId: SCHEDULE_ID, firstDueDate: '2026-05-01', anchorDay: 1, amount: 2500, amountText: '25.00', amountSent: false };
      const plain = told([inChain('sale', { ...initial, schedule }), settled])!;
      expect(plain).to.include({ schedule_id: SCHEDULE_ID, first_recurring_date: '2026-05-01' });
      expect(plain).not.to.have.property('schedule_start_date');
      expect(plain).not.to.have.property('payment_schedule_amount');
      const sent = { ...schedule, startDate: '2026-05-01', amount: 990, amountText: '9.90', amountSent: true };
      expect(told([inChain('sale', { ...initial, schedule: sent }), settled])).to.include({
        schedule_start_date: '2026-05-01',
        payment_schedule_amount: '9.90',
      });
    });

    it('report a scheduled payment as type=recurring with its schedule_id', () => {
      const link: RecurringLink = { role: 'scheduled', initPaymentId: INIT_ID, scheduleId: SCHEDULE_ID, sequence: 2, dueDate: '2026-05-01' };
      expect(told([inChain('sale', link), settled])).to.include({ type: 'recurring', recurring_init_trans_id: INIT_ID, schedule_id: SCHEDULE_ID });
    });
  });
});
