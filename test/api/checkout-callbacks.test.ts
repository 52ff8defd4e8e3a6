/**
 * Checkout callbacks end to end: a session created over HTTP, paid, and the merchant's endpoint (a
 * real receiver on loopback) told about it in the Checkout vocabulary (docs/reference/callbacks.md#checkout-callbacks), signed
 * with the Checkout callback hash.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { verifyCallbackSignature } from '../../src/domain/callback/callback-encoding';
import { checkoutCallbackHash } from '../../src/domain/signatures';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { operationHash, postJson } from '../support/checkout-client';
import { PAYER_IP, checkoutPayment, storedCardToken } from '../support/checkout-payments';
import { TRANS_DATE, forEachStore, type TestGateway, type TestMerchant } from '../support/gateway-harness';

async function callbacksOf(t: TestGateway, receiver: CallbackReceiver, paymentId: string): Promise<ReceivedCallback[]> {
  await t.gateway.notifier.catchUp();
  await t.gateway.readModels.catchUpToHead(5000);
  return receiver.received.filter((r) => r.fields.get('id') === paymentId);
}

function expectSignedFor(callback: ReceivedCallback, merchant: TestMerchant, t: TestGateway): void {
  const f = callback.fields;
  expect(f.get('hash')).to.equal(
    checkoutCallbackHash({
      id: f.get('id')!,
      orderNumber: f.get('order_number')!,
      orderAmount: f.get('order_amount')!,
      orderCurrency: f.get('order_currency')!,
      orderDescription: f.get('order_description')!,
      password: merchant.password,
    }),
  );
  const now = Math.floor(t.clock.now().getTime() / 1000);
  expect(verifyCallbackSignature(merchant.password, callback.body, String(callback.headers['x-signature']), now)).to.equal(true);
}

forEachStore(
  'Checkout API: callbacks',
  (h) => {
    let receiver: CallbackReceiver;
    let merchant: TestMerchant;
    before(async () => {
      await h().gateway.notifier.start();
    });
    beforeEach(async () => {
      receiver = await new CallbackReceiver().start();
      merchant = await h().createMerchant({ notificationUrl: receiver.url });
    });
    afterEach(async () => {
      await receiver.stop();
    });

    it('tells the merchant of a settled purchase: order fields, order_status, type, status, masked card, customer, date, hash', async () => {
      const { payment, body } = await checkoutPayment(h(), merchant, { custom_data: { basket: 'b-9' } });
      const [callback, ...more] = await callbacksOf(h(), receiver, payment.paymentId);
      expect(more).to.have.length(0);

      const f = Object.fromEntries(callback.fields);
      expect(callback.headers['content-type']).to.equal('application/x-www-form-urlencoded');
      expect(f).to.include({
        id: payment.paymentId,
        order_number: body.order.number,
        order_amount: '10.50',
        order_currency: 'USD',
        order_description: 'Checkout test order',
        order_status: 'settled',
        type: 'sale',
        status: 'success',
        card: '411111******1111',
        card_expiration_date: '01/2038',
        customer_name: 'John Doe',
        customer_email: 'doe@example.com',
        customer_ip: PAYER_IP,
        'custom_data[basket]': 'b-9',
      });
      expect(f.date).to.match(TRANS_DATE);
      expect(f).not.to.have.property('card_token');
      expect(callback.body).not.to.contain('4111111111111111');
      expectSignedFor(callback, merchant, h());
    });

    it('sends a session\'s notification_url the callback instead of the merchant default', async () => {
      const other = await new CallbackReceiver().start();
      try {
        const { payment } = await checkoutPayment(h(), merchant, { notification_url: other.url });
        expect(await callbacksOf(h(), other, payment.paymentId)).to.have.length(1);
        expect(receiver.received.filter((r) => r.fields.get('id') === payment.paymentId)).to.have.length(0);
      } finally {
        await other.stop();
      }
    });

    it('reports a debit with type=debit and its card_token', async () => {
      const { payment } = await checkoutPayment(h(), merchant, { operation: 'debit' });
      const [callback] = await callbacksOf(h(), receiver, payment.paymentId);
      expect(Object.fromEntries(callback.fields)).to.include({ type: 'debit', status: 'success', order_status: 'settled', card_token: payment.card!.token! });
      expectSignedFor(callback, merchant, h());
    });

    it('reports a card credit payout with type=credit', async () => {
      const token = await storedCardToken(h(), merchant);
      const fields = { operation: 'credit', order_id: `cr-${randomUUID()}`, order_amount: '5.00', order_currency: 'USD', order_description: 'Payout', card_token: token };
      const res = await postJson(h(), '/api/v1/payment/card/credit', {
        merchant_key: merchant.merchant_key,
        ...fields,
        hash: operationHash([fields.order_id, fields.order_amount, fields.order_currency, fields.order_description], merchant.password),
      });
      expect(res.status, res.text).to.equal(200);
      const sessionId = String(res.body.redirect_url).split('/').pop()!;
      const outcome = await h().gateway.checkout.pay(sessionId, { card: { expMonth: '01', expYear: '2038' }, payerIp: PAYER_IP }, 'test');
      const payout = (outcome as { payment: { paymentId: string } }).payment;

      const [callback] = await callbacksOf(h(), receiver, payout.paymentId);
      expect(Object.fromEntries(callback.fields)).to.include({ type: 'credit', order_number: fields.order_id, order_amount: '5.00', card: '411111******1111' });
      expectSignedFor(callback, merchant, h());
    });

    it('adds checkout_payment_method=card when the merchant switched it on', async () => {
      const mapped = await h().createMerchant({ notificationUrl: receiver.url, protocolMapping: { fields: ['checkout_payment_method'] } });
      const { payment } = await checkoutPayment(h(), mapped);
      const [callback] = await callbacksOf(h(), receiver, payment.paymentId);
      expect(callback.fields.get('checkout_payment_method')).to.equal('card');
      expectSignedFor(callback, mapped, h());

      const { payment: plain } = await checkoutPayment(h(), merchant);
      const [unmapped] = await callbacksOf(h(), receiver, plain.paymentId);
      expect(unmapped.fields.has('checkout_payment_method')).to.equal(false);
    });
  },
  { env: { CALLBACK_TIMEOUT: '300ms', NOTIFIER_POLL_MS: '600000' } },
);
