/** What a merchant is told about Checkout payment events (decisions.md §3), from the pure builder. */
import { expect } from 'chai';
import { callbackFieldsFor } from '../../src/domain/callback/callback-content';
import { noProtocolMapping, protocolMapping } from '../../src/domain/merchant/protocol-mapping';
import type { PaymentEvent, PaymentInitiated, PaymentKind } from '../../src/domain/payment/events';
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
});
