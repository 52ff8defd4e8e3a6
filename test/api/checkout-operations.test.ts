/**
 * Checkout operations over HTTP (docs/reference/checkout.md#capture-void-refund): status, capture, void, refund, card credit.
 * Given a Checkout payment (a session created over HTTP and paid the way the hosted page pays),
 * when the merchant sends a signed operation, then the answer and where the payment stands.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { checkoutSessionStreamId } from '../../src/domain/checkout/session-events';
import { createSession, operationHash, postJson, type Json } from '../support/checkout-client';
import { PAYER_IP, checkoutPayment, payOnPage, storedCardToken } from '../support/checkout-payments';
import { TRANS_DATE, UUID_RE, forEachStore, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { expectError, expectFieldError } from '../support/api-errors';

/** A signed operation: `hashed` names the fields whose values are hash input, in order. */
function operation(t: TestGateway, merchant: TestMerchant, path: string, fields: Json, hashed: string[]): Promise<HttpResult> {
  const hash = operationHash(hashed.map((name) => String(fields[name] ?? '')), merchant.password);
  return postJson(t, `/api/v1/payment/${path}`, { merchant_key: merchant.merchant_key, ...fields, hash });
}

const statusById = (t: TestGateway, m: TestMerchant, paymentId: string) => operation(t, m, 'status', { payment_id: paymentId }, ['payment_id']);
const statusByOrder = (t: TestGateway, m: TestMerchant, orderId: string, size?: unknown) =>
  operation(t, m, 'status', { order_id: orderId, ...(size === undefined ? {} : { size }) }, ['order_id']);
const capture = (t: TestGateway, m: TestMerchant, paymentId: string, amount: string) =>
  operation(t, m, 'capture', { payment_id: paymentId, amount }, ['payment_id', 'amount']);
const voidPayment = (t: TestGateway, m: TestMerchant, paymentId: string) => operation(t, m, 'void', { payment_id: paymentId }, ['payment_id']);
const refund = (t: TestGateway, m: TestMerchant, paymentId: string, amount: string) =>
  operation(t, m, 'refund', { payment_id: paymentId, amount }, ['payment_id', 'amount']);

const CREDIT_HASHED = ['order_id', 'order_amount', 'order_currency', 'order_description'];
const creditFields = (token: string, overrides: Json = {}): Json => ({
  operation: 'credit',
  order_id: `cr-${randomUUID()}`,
  order_amount: '25.00',
  order_currency: 'USD',
  order_description: 'Payout to stored card',
  card_token: token,
  ...overrides,
});

forEachStore('Checkout API: payment operations', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  describe('POST /api/v1/payment/status', () => {
    it('reports a settled purchase by payment_id in the callback vocabulary', async () => {
      const { payment, body } = await checkoutPayment(h(), merchant, { custom_data: { basket: 'b-1' } });
      const res = await statusById(h(), merchant, payment.paymentId);

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({
        payment_id: payment.paymentId,
        status: 'settled',
        type: 'sale',
        order: { number: body.order.number, amount: '10.50', currency: 'USD', description: 'Checkout test order' },
        card: '411111******1111',
        card_expiration_date: '01/2038',
        custom_data: { basket: 'b-1' },
      });
      expect(res.body.date).to.match(TRANS_DATE);
      expect(res.body.customer).to.deep.include({ name: 'John Doe', email: 'doe@example.com', country: 'GB', city: 'London', ip: PAYER_IP });
      expect(res.body).not.to.have.property('reason');
      expect(res.body).not.to.have.property('card_token');
      expect(res.text).not.to.contain('4111111111111111');
    });

    it('reports a DMS authorization as a pending sale, and a debit with its card token', async () => {
      const auth = await checkoutPayment(h(), merchant, { auth: true });
      expect((await statusById(h(), merchant, auth.payment.paymentId)).body).to.include({ status: 'pending', type: 'sale' });

      const debit = await checkoutPayment(h(), merchant, { operation: 'debit' });
      const res = await statusById(h(), merchant, debit.payment.paymentId);
      expect(res.body).to.include({ status: 'settled', type: 'debit', card_token: debit.payment.card!.token! });
    });

    it('by order_id: an object without size, an array of the N most recent with size, newest first', async () => {
      const { sessionId, body } = await createSession(h(), merchant);
      const declined = await payOnPage(h(), sessionId, '02');
      const settled = await payOnPage(h(), sessionId, '01');
      const order = body.order.number;

      const latest = await statusByOrder(h(), merchant, order);
      expect(latest.status, latest.text).to.equal(200);
      expect(latest.body).to.include({ payment_id: settled.paymentId, status: 'settled' });

      const two = await statusByOrder(h(), merchant, order, 2);
      expect(two.body.map((s: Json) => s.payment_id)).to.deep.equal([settled.paymentId, declined.paymentId]);
      expect(two.body[1]).to.include({ status: 'decline', reason: declined.declineReason! });

      const one = await statusByOrder(h(), merchant, order, '1');
      expect(one.body).to.be.an('array').with.length(1);
      expect(one.body[0].payment_id).to.equal(settled.paymentId);

      const many = await statusByOrder(h(), merchant, order, '100');
      expect(many.body).to.have.length(2);

      for (const size of [0, 101, '0', '101', -1]) {
        expectError(await statusByOrder(h(), merchant, order, size), 100000, 'size should be within 1..100');
      }
      expectFieldError(await statusByOrder(h(), merchant, order, 'two'), 'size: This value should be an integer.');
      for (const size of [1.5, true]) {
        const res = await statusByOrder(h(), merchant, order, size);
        expectFieldError(res, 'size: This value should be of type string or integer.');
        expect(res.body.errors, 'one error per field').to.have.length(1);
      }
    });

    it('validates before it looks: a malformed payment_id, both ids, neither, size with payment_id', async () => {
      const wrongHash = { merchant_key: merchant.merchant_key, hash: 'f'.repeat(40) };
      expectFieldError(await postJson(h(), '/api/v1/payment/status', { ...wrongHash, payment_id: 'not-a-uuid' }), 'payment_id: This is not a valid UUID.');
      expectFieldError(
        await postJson(h(), '/api/v1/payment/status', { ...wrongHash, payment_id: randomUUID(), order_id: 'o-1' }),
        'order_id: Send either payment_id or order_id, not both.',
      );
      expectFieldError(await postJson(h(), '/api/v1/payment/status', wrongHash), 'payment_id: Send payment_id or order_id.');
      expectFieldError(
        await postJson(h(), '/api/v1/payment/status', { ...wrongHash, payment_id: randomUUID(), size: 2 }),
        'size: This field is only accepted with order_id.',
      );
      expectError(await postJson(h(), '/api/v1/payment/status', { ...wrongHash, payment_id: randomUUID() }), 100000, 'Hash is not valid');
    });

    it('answers 101000 for a payment or order that does not exist, or is another merchant\'s', async () => {
      expectError(await statusById(h(), merchant, randomUUID()), 101000, 'Payment does not exist.');
      expectError(await statusByOrder(h(), merchant, `no-such-${randomUUID()}`), 101000, 'Order does not exist.');
      expectError(await statusByOrder(h(), merchant, `no-such-${randomUUID()}`, 5), 101000, 'Order does not exist.');

      const { payment, body } = await checkoutPayment(h(), merchant);
      const other = await h().createMerchant();
      expectError(await statusById(h(), other, payment.paymentId), 101000, 'Payment does not exist.');
      expectError(await statusByOrder(h(), other, body.order.number), 101000, 'Order does not exist.');
    });

    it('adds the Protocol Mapping status fields the merchant switched on', async () => {
      const mapped = await h().createMerchant({ protocolMapping: { fields: ['brand', 'checkout_payment_method', 'payer_ip'] } });
      const { payment } = await checkoutPayment(h(), mapped);
      const res = await statusById(h(), mapped, payment.paymentId);
      expect(res.body).to.include({ brand: payment.card!.brand, checkout_payment_method: 'card', payer_ip: PAYER_IP });
      expect((await statusById(h(), merchant, (await checkoutPayment(h(), merchant)).payment.paymentId)).body).not.to.have.property('brand');
    });

    it('answers for the merchant\'s S2S payments too', async () => {
      const sale = await h().sale(merchant);
      const res = await statusById(h(), merchant, sale.body.trans_id);
      expect(res.body).to.include({ payment_id: sale.body.trans_id, status: 'settled', type: 'sale' });
    });
  });

  describe('POST /api/v1/payment/capture', () => {
    it('captures a DMS authorization in full, then refuses a second capture with 208003', async () => {
      const { payment } = await checkoutPayment(h(), merchant, { auth: true });
      const res = await capture(h(), merchant, payment.paymentId, '10.50');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ payment_id: payment.paymentId, result: 'success', status: 'settled', amount: '10.50' });
      expect((await statusById(h(), merchant, payment.paymentId)).body.status).to.equal('settled');

      expectError(
        await capture(h(), merchant, payment.paymentId, '10.50'),
        208003,
        'Not acceptable to request the capture for payment not in pending status',
      );
    });

    it('captures part of an authorization, and refuses more than was authorized', async () => {
      const { payment } = await checkoutPayment(h(), merchant, { auth: true });
      expectFieldError(await capture(h(), merchant, payment.paymentId, '10.51'), 'amount: The amount exceeds the authorized amount.');
      expectFieldError(await capture(h(), merchant, payment.paymentId, '1.234'), 'amount: Amount in USD can have at most 2 decimals');
      const res = await capture(h(), merchant, payment.paymentId, '4.00');
      expect(res.body).to.include({ result: 'success', status: 'settled', amount: '4.00' });
      expect((await h().gateway.payments.current(payment.paymentId)).settledAmount).to.equal(400);
    });

    it('refuses capture of a settled sale with 208003, and reports a declined capture (03/2038) as still pending', async () => {
      const sale = await checkoutPayment(h(), merchant);
      expectError(
        await capture(h(), merchant, sale.payment.paymentId, '10.50'),
        208003,
        'Not acceptable to request the capture for payment not in pending status',
      );

      const { payment } = await checkoutPayment(h(), merchant, { auth: true }, '03');
      const res = await capture(h(), merchant, payment.paymentId, '10.50');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ payment_id: payment.paymentId, result: 'decline', status: 'pending' });
      expect(res.body.reason).to.be.a('string').and.not.be.empty;
    });

    it('checks fields, then the hash (payment_id + amount), then existence', async () => {
      const { payment } = await checkoutPayment(h(), merchant, { auth: true });
      expectFieldError(await operation(h(), merchant, 'capture', { payment_id: payment.paymentId }, ['payment_id']), 'amount: This value should not be blank.');
      expectError(await operation(h(), merchant, 'capture', { payment_id: payment.paymentId, amount: '10.50' }, ['payment_id']), 100000, 'Hash is not valid');
      expectError(await capture(h(), merchant, randomUUID(), '1.00'), 100000, 'Payment not found.');
      expectError(await capture(h(), await h().createMerchant(), payment.paymentId, '1.00'), 100000, 'Payment not found.');
    });
  });

  describe('POST /api/v1/payment/void', () => {
    it('voids a settled sale and releases a pending authorization, each answered (and looked up) as status void', async () => {
      const sale = await checkoutPayment(h(), merchant);
      const voided = await voidPayment(h(), merchant, sale.payment.paymentId);
      expect(voided.status, voided.text).to.equal(200);
      expect(voided.body).to.deep.equal({ payment_id: sale.payment.paymentId, result: 'success', status: 'void', amount: '10.50' });

      const auth = await checkoutPayment(h(), merchant, { auth: true });
      const released = await voidPayment(h(), merchant, auth.payment.paymentId);
      expect(released.body).to.deep.equal({ payment_id: auth.payment.paymentId, result: 'success', status: 'void', amount: '10.50' });
      expect((await statusById(h(), merchant, auth.payment.paymentId)).body.status).to.equal('void');
    });

    it('refuses a refunded, a declined and an already voided payment with Void is not allowed.', async () => {
      const refunded = await checkoutPayment(h(), merchant);
      await refund(h(), merchant, refunded.payment.paymentId, '1.00');
      expectError(await voidPayment(h(), merchant, refunded.payment.paymentId), 100000, 'Void is not allowed.');

      const declined = await checkoutPayment(h(), merchant, {}, '02');
      expectError(await voidPayment(h(), merchant, declined.payment.paymentId), 100000, 'Void is not allowed.');

      const voided = await checkoutPayment(h(), merchant);
      await voidPayment(h(), merchant, voided.payment.paymentId);
      expectError(await voidPayment(h(), merchant, voided.payment.paymentId), 100000, 'Void is not allowed.');
    });

    it('refuses an unknown payment and a wrong hash', async () => {
      expectError(await voidPayment(h(), merchant, randomUUID()), 100000, 'Payment not found.');
      const { payment } = await checkoutPayment(h(), merchant);
      expectError(await operation(h(), merchant, 'void', { payment_id: payment.paymentId }, ['payment_id', 'payment_id']), 100000, 'Hash is not valid');
    });
  });

  describe('POST /api/v1/payment/refund', () => {
    it('refunds in full (status refund), or in part (stays settled) up to what is left', async () => {
      const full = await checkoutPayment(h(), merchant);
      const res = await refund(h(), merchant, full.payment.paymentId, '10.50');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ payment_id: full.payment.paymentId, result: 'success', status: 'refund', amount: '10.50' });

      const part = await checkoutPayment(h(), merchant);
      expect((await refund(h(), merchant, part.payment.paymentId, '3.00')).body).to.include({ result: 'success', status: 'settled', amount: '3.00' });
      expect((await statusById(h(), merchant, part.payment.paymentId)).body.status).to.equal('settled');
      expectFieldError(
        await refund(h(), merchant, part.payment.paymentId, '7.51'),
        'amount: The amount exceeds the amount that can still be refunded.',
      );
      expect((await refund(h(), merchant, part.payment.paymentId, '7.50')).body).to.include({ status: 'refund' });
    });

    it('refuses with Refund is not allowed where refunds are off, and a payment that is not settled, as S2S CREDITVOID does', async () => {
      const off = await h().createMerchant({ refundsEnabled: false });
      const sale = await checkoutPayment(h(), off);
      expectError(await refund(h(), off, sale.payment.paymentId, '1.00'), 100000, 'Refund is not allowed');

      const auth = await checkoutPayment(h(), merchant, { auth: true });
      expectError(await refund(h(), merchant, auth.payment.paymentId, '1.00'), 100000, 'Refund is not allowed');
      const declined = await checkoutPayment(h(), merchant, {}, '02');
      expectError(await refund(h(), merchant, declined.payment.paymentId, '1.00'), 100000, 'Refund is not allowed');
      // The same refusal, the same code, whichever API asks.
      const s2s = await h().creditVoid(merchant, declined.payment.paymentId, '1.00');
      expect(s2s.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Refund is not allowed' });
    });

    it('refuses a zero amount, an unknown payment and a hash without the amount', async () => {
      const { payment } = await checkoutPayment(h(), merchant);
      expectError(await refund(h(), merchant, payment.paymentId, '0.00'), 100000, 'amount: This value should be greater than 0.');
      expectError(await refund(h(), merchant, randomUUID(), '1.00'), 100000, 'Payment not found.');
      expectError(await operation(h(), merchant, 'refund', { payment_id: payment.paymentId, amount: '1.00' }, ['payment_id']), 100000, 'Hash is not valid');
    });
  });

  describe('POST /api/v1/payment/card/credit', () => {
    it('opens a credit session bound to the stored card, with the request\'s payee names, paid with the expiry only', async () => {
      const token = await storedCardToken(h(), merchant);
      const fields = creditFields(token, { name: 'Ann Payee', payee_first_name: 'Ann', payee_last_name: 'Payee' });
      const res = await operation(h(), merchant, 'card/credit', fields, CREDIT_HASHED);

      expect(res.status, res.text).to.equal(200);
      expect(res.body.redirect_method).to.equal('GET');
      const sessionId = String(res.body.redirect_url).replace(`${h().baseUrl}/checkout/`, '');
      expect(sessionId).to.match(UUID_RE);
      const [created] = await h().gateway.store.readStream(checkoutSessionStreamId(sessionId));
      expect(created.data).to.deep.include({
        operation: 'credit',
        cardToken: token,
        payee: { firstName: 'Ann', lastName: 'Payee', name: 'Ann Payee' },
        order: { number: fields.order_id, amount: 2500, amountText: '25.00', currency: 'USD', description: 'Payout to stored card' },
      });

      const outcome = await h().gateway.checkout.pay(sessionId, { card: { expMonth: '01', expYear: '2038' }, payerIp: PAYER_IP }, 'test');
      expect(outcome?.kind).to.equal('done');
      const payout = (outcome as { payment: { paymentId: string } }).payment;
      expect((await statusById(h(), merchant, payout.paymentId)).body).to.include({ type: 'credit', card: '411111******1111' });
    });

    it('refuses the nested order shape with Request data is invalid. naming it', async () => {
      const token = await storedCardToken(h(), merchant);
      const nested = { operation: 'credit', card_token: token, order: { number: 'o-1', amount: '1.00', currency: 'USD', description: 'Payout' } };
      const res = await operation(h(), merchant, 'card/credit', nested, []);
      expectFieldError(res, 'order: Use the flat fields order_id, order_amount, order_currency and order_description.');
      expect(res.body.errors).to.deep.include({ error_code: 100000, error_message: 'order_id: This value should not be blank.' });

      const dotted = await operation(h(), merchant, 'card/credit', { ...creditFields(token), 'order.number': 'o-2' }, CREDIT_HASHED);
      expectFieldError(dotted, 'order.number: Use the flat fields order_id, order_amount, order_currency and order_description.');
    });

    it('refuses a card_token array, an unknown token (205005), another operation and a wrong hash', async () => {
      const token = await storedCardToken(h(), merchant);
      expectFieldError(await operation(h(), merchant, 'card/credit', creditFields(token, { card_token: [token, token] }), CREDIT_HASHED), 'card_token: This value should be of type string.');
      expectError(await operation(h(), merchant, 'card/credit', creditFields('no-such-token'), CREDIT_HASHED), 205005, 'Card token is invalid or not found.');
      expectFieldError(
        await operation(h(), merchant, 'card/credit', creditFields(token, { operation: 'debit' }), CREDIT_HASHED),
        'operation: The value you selected is not a valid choice. Allowed: credit.',
      );
      expectFieldError(await operation(h(), merchant, 'card/credit', creditFields(token, { order_currency: 'ZZZ' }), CREDIT_HASHED), 'order_currency: This value is not a valid currency.');
      expectError(await operation(h(), merchant, 'card/credit', creditFields(token), ['order_id']), 100000, 'Hash is not valid');
    });
  });

  it('answers unknown paths under /api/v1 with 404 Route or parameters is not supported', async () => {
    const res = await postJson(h(), '/api/v1/payment/reverse', { merchant_key: merchant.merchant_key });
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' });
  });
});
