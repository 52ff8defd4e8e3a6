/**
 * What the public merchant clients of the protocol family (an Odoo module, a Laravel package, an
 * OpenCart extension, an Android SDK and a Flutter SDK) rely on where the spec leaves the choice
 * open: given a merchant as those clients drive it, when they do what they do, then what they see.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import type { PaymentRequest } from '../../src/application/ports/connector';
import { SandboxConnector } from '../../src/adapters/connectors/sandbox';
import { connectorRegistry } from '../../src/adapters/connectors/registry';
import { PaymentService } from '../../src/application/payments';
import type { PaymentDeps } from '../../src/application/payments/deps';
import { CheckoutService, type CheckoutServiceDeps } from '../../src/application/checkout/checkout-service';
import { paymentHistory } from '../../src/application/payment-history';
import { CallbackReceiver } from '../support/callback-receiver';
import { createSession, operationHash, postJson, sessionBody } from '../support/checkout-client';
import { PAYER_IP, checkoutPayment, storedCardToken } from '../support/checkout-payments';
import { expectError, expectFieldError } from '../support/api-errors';
import { forEachStore, type TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { checkoutHash } from '../../src/domain/signatures';

/** A signed Checkout operation (`/api/v1/payment/<path>`); `hashed` names the hash input fields in order. */
function operation(t: TestGateway, merchant: TestMerchant, path: string, fields: Record<string, unknown>, hashed: string[]) {
  const hash = operationHash(hashed.map((name) => String(fields[name] ?? '')), merchant.password);
  return postJson(t, `/api/v1/payment/${path}`, { merchant_key: merchant.merchant_key, ...fields, hash });
}

async function callbacksOf(t: TestGateway, receiver: CallbackReceiver, paymentId: string): Promise<Record<string, string>[]> {
  await t.gateway.notifier.catchUp();
  await t.gateway.readModels.catchUpToHead(5000);
  return receiver.received.filter((r) => r.fields.get('id') === paymentId || r.fields.get('trans_id') === paymentId).map((r) => Object.fromEntries(r.fields));
}

forEachStore('Merchant clients of the protocol family', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  describe('return URLs are appended to, never rebuilt', () => {
    it('a shop route in success_url comes back as the shop wrote it, the gateway\'s parameters after it', async () => {
      const { payment } = await checkoutPayment(h(), merchant, { success_url: 'https://shop.example/index.php?route=checkout/success&x=1' });
      const next = await h().gateway.checkout.afterPayerAction(payment);

      expect(next.kind).to.equal('merchant');
      const url = (next as { url: string }).url;
      expect(url.startsWith(`https://shop.example/index.php?route=checkout/success&x=1&payment_id=${payment.paymentId}&trans_id=`)).to.equal(true);
    });
  });

  describe('a cancel before any attempt', () => {
    it('appends all four the spec always appends: payment_id and trans_id empty (no payment exists), order_id, and the hash of those very values', async () => {
      const { sessionId, body } = await createSession(h(), merchant, { cancel_url: 'https://shop.example/index.php?route=checkout/cart' });

      const next = await h().gateway.checkout.cancel(sessionId, 'test');

      const o = body.order;
      // The hash a client recomputes from the query: the empty payment_id first, as for any payment.
      const hash = checkoutHash(['', o.number, o.amount, o.currency, o.description], merchant.password);
      expect(next).to.deep.include({ kind: 'merchant', url: `https://shop.example/index.php?route=checkout/cart&payment_id=&trans_id=&order_id=${o.number}&hash=${hash}` });
    });
  });

  describe('the sandbox ACS as the vendor\'s sample app drives it', () => {
    it('takes PaReq and TermUrl without MD, and the TermUrl takes PaReq and PaRes without MD', async () => {
      const sale = await h().sale(merchant, { card_exp_month: '05', term_url_3ds: 'https://shop.example/index.php?route=payment/return' });
      expect(sale.body).to.include({ result: 'REDIRECT', status: '3DS' });
      const { PaReq, TermUrl } = sale.body.redirect_params;

      const acs = await h().postForm(sale.body.redirect_url, { PaReq, TermUrl });
      expect(acs.status, acs.text).to.equal(200);
      expect(acs.text).to.include(`action="${TermUrl}"`);

      const back = await h().postForm(TermUrl, { PaReq, PaRes: 'approve' });
      expect(back.status, back.text).to.equal(303);
      expect(back.headers.get('location')).to.match(/^https:\/\/shop\.example\/index\.php\?route=payment\/return&payment_id=/);
      expect((await h().status(merchant, sale.body.trans_id)).body.status).to.equal('SETTLED');
    });

    it('reads an empty MD as one not sent', async () => {
      const sale = await h().sale(merchant, { card_exp_month: '05' });
      const { PaReq, TermUrl } = sale.body.redirect_params;

      expect((await h().postForm(sale.body.redirect_url, { PaReq, MD: '', TermUrl })).status).to.equal(200);
      const back = await h().postForm(TermUrl, { PaReq, MD: '', PaRes: 'approve' });

      expect(back.status, back.text).to.equal(303);
      expect((await h().status(merchant, sale.body.trans_id)).body.status).to.equal('SETTLED');
    });
  });

  describe('a notification_url that refuses connections', () => {
    const REFUSED = 'notification_url: The URL cannot be reached: its host refuses connections on that port.';

    it('makes Checkout session creation HTTP 400, while one that accepts them is recorded', async () => {
      expectFieldError(await postJson(h(), '/api/v1/session', sessionBody(merchant, { notification_url: 'http://127.0.0.1:1/cb' })), REFUSED);
      const ok = await postJson(h(), '/api/v1/session', sessionBody(merchant, { notification_url: `${h().baseUrl}/cb` }));
      expect(ok.status, ok.text).to.equal(200);
    });

    it('makes an S2S SALE HTTP 400 and starts no payment', async () => {
      const sale = await h().sale(merchant, { notification_url: 'http://127.0.0.1:1/cb' });
      expectFieldError(sale, REFUSED);
      expect(await h().initiatedForOrder(merchant, sale.fields.order_id!)).to.have.length(0);
    });
  });

  describe('S2S term_url_target and Override Link Target', () => {
    const TERM = 'https://shop.example/index.php?route=payment/return';

    async function throughAcs(m: TestMerchant, fields: Record<string, string>) {
      const sale = await h().sale(m, { card_exp_month: '05', term_url_3ds: TERM, ...fields });
      const { PaReq, TermUrl } = sale.body.redirect_params;
      return { sale, back: await h().postForm(TermUrl, { PaReq, PaRes: 'approve' }) };
    }

    it('_top: the payer gets the Returning page whose Continue link leaves the shop\'s iframe for term_url_3ds', async () => {
      const { sale, back } = await throughAcs(merchant, { term_url_target: '_top' });

      expect(back.status, back.text).to.equal(200);
      expect(back.text).to.include('Returning to ');
      const link = /<a class="button primary" href="([^"]+)" target="([^"]+)" data-auto-follow/.exec(back.text);
      expect(link?.[2]).to.equal('_top');
      expect(link![1].replace(/&amp;/g, '&').startsWith(`${TERM}&payment_id=${sale.body.trans_id}&trans_id=`)).to.equal(true);
      const [initiated] = await h().paymentEvents(sale.body.trans_id);
      expect(initiated.data.termUrlTarget).to.equal('_top');
    });

    it('the MID\'s Override Link Target wins over term_url_target, either way', async () => {
      const self = await h().createMerchant({ overrideLinkTarget: '_self' });
      const plain = await throughAcs(self, { term_url_target: '_top' });
      expect(plain.back.status).to.equal(303);
      expect(plain.back.headers.get('location')!.startsWith(`${TERM}&payment_id=`)).to.equal(true);

      const parent = await h().createMerchant({ overrideLinkTarget: '_parent' });
      const framed = await throughAcs(parent, {});
      expect(framed.back.status).to.equal(200);
      expect(framed.back.text).to.include('target="_parent"');
    });

    it('without either the payer is redirected to term_url_3ds as before', async () => {
      const { back } = await throughAcs(merchant, {});
      expect(back.status).to.equal(303);
    });
  });

  describe('Checkout parameters: the card catalogue', () => {
    it('refuses a session whose card parameters do not fit, naming each field by its path', async () => {
      const res = await postJson(
        h(),
        '/api/v1/session',
        sessionBody(merchant, { parameters: { card: { descriptor: 'A descriptor that is too long', cart: { items: [{ quantity: 'two' }] } }, 'sb-bank': { anything: 1 } } }),
      );
      expectFieldError(res, 'parameters.card.descriptor: This value is too long. It should have 20 characters or less.');
      expectFieldError(res, 'parameters.card.cart.items[0].quantity: This value should be a number of at most 5 digits.');
      expect(res.body.errors).to.have.length(2);
    });

    it('stores them with the payment, shows them in history, and the payment is known by their descriptor', async () => {
      const parameters = { card: { descriptor: 'TEA*ROOMS', shipping: { city: 'London', country: 'GB' } } };
      const { payment } = await checkoutPayment(h(), merchant, { parameters });

      const [initiated] = await h().paymentEvents(payment.paymentId);
      expect(initiated.data.parameters).to.deep.equal(parameters);
      const history = await paymentHistory(h().gateway.store, payment.paymentId);
      expect(history!.state!.parameters).to.deep.equal(parameters);
      expect(history!.state!.descriptor).to.equal('TEA*ROOMS');
      expect((await h().status(merchant, payment.paymentId)).body.descriptor).to.equal('TEA*ROOMS');
    });

    it('hands them to the connector with the payment', async () => {
      const seen: PaymentRequest[] = [];
      class Recording extends SandboxConnector {
        override authorize(request: PaymentRequest) {
          seen.push(request);
          return super.authorize(request);
        }
      }
      const live = h().gateway as unknown as { payments: { deps: PaymentDeps }; checkout: { deps: CheckoutServiceDeps } };
      const recording = new Recording({ secret: randomBytes(32), simulatorBaseUrl: h().baseUrl });
      const payments = new PaymentService({ ...live.payments.deps, connectors: connectorRegistry([recording]) });
      const checkout = new CheckoutService({ ...live.checkout.deps, payments });
      const parameters = { card: { descriptor: 'TEA*ROOMS', cart: { items: [{ name: 'Tea', quantity: '2' }] } } };
      const { sessionId } = await createSession(h(), merchant, { parameters });

      await checkout.pay(sessionId, { card: { number: '4111111111111111', expMonth: '01', expYear: '2038', cvv: '123', holder: 'J D' }, payerIp: PAYER_IP }, 'test');

      expect(seen.map((r) => r.parameters)).to.deep.equal([parameters]);
    });

    it('hosted payment fields sessions are held to the same catalogue', async () => {
      const res = await postJson(h(), '/api/v1/session/token', sessionBody(merchant, { return_url: 'https://shop.example/return', parameters: { card: { shipping_country: 'GBR' } } }));
      expectFieldError(res, 'parameters.card.shipping_country: This value should be exactly 3 digits.');
    });
  });

  describe('card credit', () => {
    const creditFields = (token: string, extra: Record<string, unknown> = {}) => ({
      order_id: `cr-${randomUUID()}`,
      order_amount: '5.00',
      order_currency: 'USD',
      order_description: 'Payout to stored card',
      card_token: token,
      ...extra,
    });
    const CREDIT_HASHED = ['order_id', 'order_amount', 'order_currency', 'order_description'];

    it('takes a request without operation: the endpoint is the operation', async () => {
      const token = await storedCardToken(h(), merchant);
      const res = await operation(h(), merchant, 'card/credit', creditFields(token), CREDIT_HASHED);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.redirect_url).to.match(/\/checkout\/[0-9a-f-]{36}$/);
    });

    it('the payer is asked only for the expiry: no billing country, and the expiry alone pays out', async () => {
      const token = await storedCardToken(h(), merchant);
      const res = await operation(h(), merchant, 'card/credit', creditFields(token, { success_url: 'https://shop.example/paid-out' }), CREDIT_HASHED);
      const page = await h().request(res.body.redirect_url);
      expect(page.status).to.equal(200);
      expect(page.text).to.include('name="card_expiry"');
      expect(page.text).not.to.include('billing_country');

      const paid = await h().postForm(`${res.body.redirect_url}/pay`, { card_expiry: '01 / 38' });

      expect(paid.status, paid.text).to.equal(303);
      expect(paid.headers.get('location')).to.match(/^https:\/\/shop\.example\/paid-out\?payment_id=/);
    });

    it('refuses any operation other than credit', async () => {
      const token = await storedCardToken(h(), merchant);
      for (const other of ['purchase', 'debit', '']) {
        expectFieldError(
          await operation(h(), merchant, 'card/credit', creditFields(token, { operation: other }), CREDIT_HASHED),
          'operation: The value you selected is not a valid choice. Allowed: credit.',
        );
      }
    });
  });

  describe('Checkout refund: the spec\'s code for each refusal', () => {
    const refund = (m: TestMerchant, paymentId: string, amount: string) =>
      operation(h(), m, 'refund', { payment_id: paymentId, amount }, ['payment_id', 'amount']);

    it('a payment that is not settled: 100000 Refund is not allowed, as S2S CREDITVOID answers it', async () => {
      const auth = await checkoutPayment(h(), merchant, { auth: true });
      expectError(await refund(merchant, auth.payment.paymentId, '1.00'), 100000, 'Refund is not allowed');
      const whole = await checkoutPayment(h(), merchant);
      expect((await refund(merchant, whole.payment.paymentId, '10.50')).body).to.include({ status: 'refund' });
      expectError(await refund(merchant, whole.payment.paymentId, '1.00'), 100000, 'Refund is not allowed');
    });

    it('a payout, which nothing can refund: 204005 Payment action not supported', async () => {
      const token = await storedCardToken(h(), merchant);
      const fields = { order_id: `cr-${randomUUID()}`, order_amount: '5.00', order_currency: 'USD', order_description: 'Payout', card_token: token };
      const res = await operation(h(), merchant, 'card/credit', fields, ['order_id', 'order_amount', 'order_currency', 'order_description']);
      const outcome = await h().gateway.checkout.pay(String(res.body.redirect_url).split('/').pop()!, { card: { expMonth: '01', expYear: '2038' }, payerIp: PAYER_IP }, 'test');
      const payout = (outcome as { payment: { paymentId: string } }).payment;

      expectError(await refund(merchant, payout.paymentId, '1.00'), 204005, 'Payment action not supported');
    });

    it('refunds switched off for the MID: 100000 Refund is not allowed, whatever the payment', async () => {
      const off = await h().createMerchant({ refundsEnabled: false });
      const auth = await checkoutPayment(h(), off, { auth: true });
      expectError(await refund(off, auth.payment.paymentId, '1.00'), 100000, 'Refund is not allowed');
    });

    it('an acquirer that takes refunds in its portal only: 210002, and it is never asked', async () => {
      const only = await h().createMerchant({ connectors: ['sandbox-b'] });
      const { payment } = await checkoutPayment(h(), only);
      expect(payment.phase).to.equal('settled');

      expectError(await refund(only, payment.paymentId, '1.00'), 210002, 'Refund via API is not supported. Only from the connector admin portal.');
      expect(await h().paymentEventTypes(payment.paymentId)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
    });
  });

  describe('POST /api/v1/payment/retry', () => {
    const retry = (m: TestMerchant, paymentId: string) => operation(h(), m, 'retry', { payment_id: paymentId }, ['payment_id']);

    it('retries a declined payment whose card was stored: accepted, as the session\'s next attempt, charged without the payer', async () => {
      const { payment, body } = await checkoutPayment(h(), merchant, { operation: 'debit' }, '02');
      expect(payment.phase).to.equal('declined');

      const res = await retry(merchant, payment.paymentId);

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ payment_id: payment.paymentId, result: 'accepted' });
      const byOrder = await operation(h(), merchant, 'status', { order_id: body.order.number, size: 2 }, ['order_id']);
      expect(byOrder.body.map((p: { status: string }) => p.status)).to.deep.equal(['settled', 'decline']);
      const retried = await h().gateway.payments.current(byOrder.body[0].payment_id);
      expect(retried).to.deep.include({ payerPresent: false, cardSource: 'card_token' });
      expect(retried.checkout).to.include({ attempt: 2 });
      expectError(await retry(merchant, payment.paymentId), 100000, 'Payment cannot be retried: its order has already been paid.');
    });

    it('refuses an unknown payment (101000), one that did not decline, and one whose card was not stored', async () => {
      expectError(await retry(merchant, randomUUID()), 101000, 'Payment does not exist.');
      const other = await h().createMerchant();
      const { payment: theirs } = await checkoutPayment(h(), other, { operation: 'debit' }, '02');
      expectError(await retry(merchant, theirs.paymentId), 101000, 'Payment does not exist.');

      const { payment: settled } = await checkoutPayment(h(), merchant);
      expectError(await retry(merchant, settled.paymentId), 100000, 'Payment cannot be retried: it was not declined.');
      const { payment: unstored } = await checkoutPayment(h(), merchant, {}, '02');
      expectError(
        await retry(merchant, unstored.paymentId),
        100000,
        'Payment cannot be retried: its card was not stored (a debit, or a session with req_token or recurring_init, stores it).',
      );
    });

    it('refuses once the session is over, and an S2S payment, and a wrong hash', async () => {
      const { payment } = await checkoutPayment(h(), merchant, { operation: 'debit', session_expiry: 1 }, '02');
      (h().clock as TestClock).advance(61_000);
      expectError(await retry(merchant, payment.paymentId), 100000, 'Payment cannot be retried: its session has expired.');

      const sale = await h().sale(merchant, { card_exp_month: '02' });
      expectError(await retry(merchant, sale.body.trans_id), 100000, 'Payment cannot be retried: it was not made in a Checkout session.');
      expectError(await operation(h(), merchant, 'retry', { payment_id: payment.paymentId }, []), 100000, 'Hash is not valid');
    });
  });

  describe('with callbacks', () => {
    let receiver: CallbackReceiver;
    let notified: TestMerchant;
    before(async () => {
      await h().gateway.notifier.start();
    });
    beforeEach(async () => {
      receiver = await new CallbackReceiver().start();
      notified = await h().createMerchant({ notificationUrl: receiver.url });
    });
    afterEach(async () => {
      await receiver.stop();
    });

    it('a card settled in another currency (sandbox 09/2038): S2S callback and status carry exchange_* and extended_data', async () => {
      const sale = await h().sale(notified, { card_exp_month: '09', card_exp_year: '2038', order_amount: '10.50', order_currency: 'USD' });
      expect(sale.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });

      const [callback] = await callbacksOf(h(), receiver, sale.body.trans_id);
      expect(callback).to.include({ exchange_rate: '0.9', exchange_rate_base: 'USD', exchange_currency: 'EUR', exchange_amount: '9.45', 'extended_data[fx_provider]': 'SANDBOX-FX' });
      const status = await h().status(notified, sale.body.trans_id);
      expect(status.body).to.include({ exchange_rate: '0.9', exchange_rate_base: 'USD', exchange_currency: 'EUR', exchange_amount: '9.45' });
      expect(status.body.extended_data).to.include({ fx_provider: 'SANDBOX-FX' });

      const plain = await h().sale(notified);
      const [plainCallback] = await callbacksOf(h(), receiver, plain.body.trans_id);
      expect(Object.keys(plainCallback).filter((k) => k.startsWith('exchange_') || k.startsWith('extended_data'))).to.deep.equal([]);
    });

    it('a Checkout payment settled in another currency: its callback and status carry them too', async () => {
      const { sessionId } = await createSession(h(), notified, { order: { amount: '1000', currency: 'JPY' } });
      const outcome = await h().gateway.checkout.pay(
        sessionId,
        { card: { number: '4111111111111111', expMonth: '09', expYear: '2038', cvv: '123', holder: 'John Doe' }, payerIp: PAYER_IP },
        'test',
      );
      const payment = (outcome as { payment: { paymentId: string } }).payment;

      const [callback] = await callbacksOf(h(), receiver, payment.paymentId);
      expect(callback).to.include({ order_status: 'settled', exchange_rate: '0.9', exchange_rate_base: 'JPY', exchange_currency: 'EUR', exchange_amount: '900.00' });
      const status = await operation(h(), notified, 'status', { payment_id: payment.paymentId }, ['payment_id']);
      expect(status.body).to.include({ exchange_currency: 'EUR', exchange_amount: '900.00', exchange_rate: '0.9', exchange_rate_base: 'JPY' });
    });

    it('voiding a Checkout authorization answers status void and calls back type=void, order_status=void', async () => {
      const { payment } = await checkoutPayment(h(), notified, { auth: true });

      const res = await operation(h(), notified, 'void', { payment_id: payment.paymentId }, ['payment_id']);

      expect(res.body).to.deep.equal({ payment_id: payment.paymentId, result: 'success', status: 'void', amount: '10.50' });
      const callbacks = await callbacksOf(h(), receiver, payment.paymentId);
      expect(callbacks.map((c) => [c.type, c.status, c.order_status])).to.deep.equal([
        ['sale', 'success', 'pending'],
        ['void', 'success', 'void'],
      ]);
    });
  });
});
