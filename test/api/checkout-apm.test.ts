/**
 * Alternative methods on the hosted Checkout page, over plain HTTP as a browser without script goes
 * (spec, Checkout method catalogue; docs/checkout.md): the session offers the merchant's methods,
 * the payer picks one, the page collects what the merchant did not send, shows the method's step
 * itself (a QR code with its minute, a one-time code's entry, payment details, an app confirmation or
 * a crypto deposit) or sends the payer to the provider's page, and the payer comes back to the shop
 * with the return parameters; the callback and the status name the method.
 */
import { expect } from 'chai';
import { expireAbandonedPayerActions } from '../../src/workers/payer-action-expiry';
import { CallbackReceiver } from '../support/callback-receiver';
import { createSession, operationHash, postJson, sessionBody, sessionHash, type Json } from '../support/checkout-client';
import { expectFieldError } from '../support/api-errors';
import { decideOnPage } from '../support/apm-client';
import { forEachStore, type HttpResult, type TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const SUCCESS_URL = 'https://shop.example/success';

const pageOf = (t: TestGateway, sessionId: string, query = ''): Promise<HttpResult> => t.request(`/checkout/${sessionId}${query}`);
const pay = (t: TestGateway, sessionId: string, fields: Record<string, string>): Promise<HttpResult> => t.postForm(`${t.baseUrl}/checkout/${sessionId}/pay`, fields);
const statusOf = async (t: TestGateway, sessionId: string): Promise<Json> => (await t.request(`/checkout/${sessionId}/status`)).body;

/** The latest attempt of the session, as the payment service has it. */
async function latestPayment(t: TestGateway, sessionId: string) {
  const model = await t.gateway.checkout.pageModel(sessionId);
  const id = model!.session.attempts.at(-1)!;
  return (await t.gateway.payments.current(id))!;
}

const merchantStatus = (t: TestGateway, m: TestMerchant, paymentId: string) =>
  postJson(t, '/api/v1/payment/status', { merchant_key: m.merchant_key, payment_id: paymentId, hash: operationHash([paymentId], m.password) });

forEachStore('Checkout: alternative methods on the hosted page', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant({ name: 'Corner Bookshop' });
  });

  /** sb-crypto needs its crypto_type from the merchant: every session here sends it. */
  const session = (overrides: Json = {}) =>
    createSession(h(), merchant, {
      methods: ['card', 'sb-redirect', 'sb-qr', 'sb-otp', 'sb-details', 'sb-app', 'sb-crypto'],
      ...overrides,
      parameters: { 'sb-crypto': { crypto_type: 'USDT', network_type: 'tron' }, ...(overrides.parameters ?? {}) },
    });

  describe('choosing a method', () => {
    it('Given a session with the card and five methods, When the page opens, Then it lists each as a link and shows the card form first', async () => {
      const { sessionId } = await session();
      const page = await pageOf(h(), sessionId);
      expect(page.status).to.equal(200);
      for (const method of ['card', 'sb-redirect', 'sb-qr', 'sb-otp', 'sb-details', 'sb-app', 'sb-crypto']) {
        expect(page.text).to.include(`href="/checkout/${sessionId}?method=${method}"`);
      }
      expect(page.text).to.match(/aria-current="true" data-method="card"/);
      expect(page.text).to.include('id="card_number"');
    });

    it('Given ?method=sb-otp without a phone in the session, Then the page asks for the phone number, and no card field', async () => {
      const { sessionId } = await session({ billing_address: { country: 'GB' } });
      const page = await pageOf(h(), sessionId, '?method=sb-otp');
      expect(page.text).to.match(/aria-current="true" data-method="sb-otp"/);
      expect(page.text).to.include('<label for="method-phone">Phone number</label>');
      expect(page.text).to.include('name="method" value="sb-otp"');
      expect(page.text).not.to.include('id="card_number"');
    });

    it('Given the merchant sent the phone in parameters.sb-otp, Then the page asks nothing for it', async () => {
      const { sessionId } = await session({ parameters: { 'sb-otp': { phone: '+447700900123' } } });
      const page = await pageOf(h(), sessionId, '?method=sb-otp');
      expect(page.text).not.to.include('method-phone');
      expect(page.text).to.include('Select Pay to continue with the payment provider.');
    });

    it('Given a session without methods, Then it offers the card and every method the merchant takes; a merchant limited to sb-qr gets the card and sb-qr', async () => {
      const limited = await h().createMerchant({ methods: ['sb-qr'] });
      const { body } = await createSession(h(), limited, {});
      const all = sessionBody(limited);
      delete all.methods;
      const res = await postJson(h(), '/api/v1/session', all);
      expect(res.status, res.text).to.equal(200);
      const sessionId = String(res.body.redirect_url).split('/').pop()!;
      const model = await h().gateway.checkout.pageModel(sessionId);
      expect(model!.methods.map((m) => m.method)).to.deep.equal(['card', 'sb-qr']);
      expect(body.methods).to.deep.equal(['card']);
    });

    it('Given a merchant taking mobile-money payout methods, Then a session in their currency never offers them: a payer does not pay with a payout', async () => {
      const payouts = await h().createMerchant({ methods: ['sb-qr', 'sb-momo', 'sb-payout-email'] });
      const body = sessionBody(payouts, { order: { amount: '10.00', currency: 'GHS' } });
      delete body.methods;
      body.hash = sessionHash(body, payouts.password);
      const res = await postJson(h(), '/api/v1/session', body);
      expect(res.status, res.text).to.equal(200);
      const model = await h().gateway.checkout.pageModel(String(res.body.redirect_url).split('/').pop()!);
      const offered = model!.methods.map((m) => m.method);
      expect(offered).to.include('sb-qr');
      expect(offered).to.not.include('sb-momo');
      expect(offered).to.not.include('sb-payout-email');
    });

    it('Given methods naming a payout-only method with its parameters, Then the session is refused at methods[i]: no payer would be declined on the page', async () => {
      const payouts = await h().createMerchant({ methods: ['sb-qr', 'sb-momo'] });
      const parameters = { 'sb-momo': { mobile_money_operator: 'mtn-gh', mobile_number: '233241234567', customer_email: 'payee@example.com' } };
      const res = await postJson(h(), '/api/v1/session', sessionBody(payouts, { methods: ['card', 'sb-momo'], parameters, order: { amount: '10.00', currency: 'GHS' } }));
      expectFieldError(res, 'methods[1]: The payment method "sb-momo" is not available: it only pays out. Available: card, sb-qr.');
    });

    it('Given methods naming one the merchant does not take, Then the session is refused naming it and what is available', async () => {
      const limited = await h().createMerchant({ methods: ['sb-qr'] });
      const res = await postJson(h(), '/api/v1/session', sessionBody(limited, { methods: ['card', 'sb-otp'] }));
      expectFieldError(res, 'methods[1]: The payment method "sb-otp" is not available. Available: card, sb-qr.');
    });

    it('Given parameters.sb-bank without its required fields, Then the session is refused with each field named', async () => {
      const res = await postJson(h(), '/api/v1/session', sessionBody(merchant, { methods: ['sb-bank'], parameters: { 'sb-bank': { bank_code: 'X1' } } }));
      expectFieldError(res, 'parameters.sb-bank.bank_account_number: This value should not be blank.');
    });

    it('Given a method the session does not offer, When the payer posts it, Then 422 and the method is unavailable, with no attempt', async () => {
      const { sessionId } = await createSession(h(), merchant, { methods: ['card', 'sb-qr'] });
      const res = await pay(h(), sessionId, { method: 'sb-otp', 'method.phone': '+447700900123' });
      expect(res.status).to.equal(422);
      expect(res.text).to.include('This payment method is not available any more. Please choose another one.');
      expect((await h().gateway.checkout.pageModel(sessionId))!.session.attempts).to.have.length(0);
    });
  });

  describe('fields collected from the payer', () => {
    it('Given sb-otp without a phone, When the payer posts none, Then 422 "Enter the Phone number." and no attempt', async () => {
      const { sessionId } = await session();
      const res = await pay(h(), sessionId, { method: 'sb-otp' });
      expect(res.status).to.equal(422);
      expect(res.text).to.include('Enter the Phone number.');
      expect(res.text).to.include('aria-invalid="true"');
      expect((await h().gateway.checkout.pageModel(sessionId))!.session.attempts).to.have.length(0);
    });

    it('Given sb-otp, When the payer posts a phone that breaks the method\'s rule, Then 422 with the rule and what was typed kept', async () => {
      const { sessionId } = await session();
      const res = await pay(h(), sessionId, { method: 'sb-otp', 'method.phone': 'call me' });
      expect(res.status).to.equal(422);
      expect(res.text).to.include('Check the Phone number: This value is not valid.');
      expect(res.text).to.include('value="call me"');
    });
  });

  describe('the one-time code (sb-otp)', () => {
    it('Given a phone typed on the page, Then the page asks for the code sent there (the sandbox shows it); a wrong code is refused and decides nothing; the right one returns the payer with the return parameters', async () => {
      await h().gateway.merchants.update(merchant.merchant_id, {
        protocolMapping: { fields: ['brand', 'checkout_payment_method'], returnParameters: ['payment_method', 'brand'], requiredFields: [] },
      });
      const { sessionId } = await session();
      const paid = await pay(h(), sessionId, { method: 'sb-otp', 'method.phone': '+447700900123' });
      expect(paid.status).to.equal(303);
      expect(paid.headers.get('location')).to.equal(`${h().baseUrl}/checkout/${sessionId}`);
      const payment = await latestPayment(h(), sessionId);
      expect(payment.method).to.deep.include({ brand: 'sb-otp', parameters: { phone: '+447700900123' } });
      expect(payment.phase).to.equal('awaiting_redirect');

      const step = await pageOf(h(), sessionId);
      expect(step.text).to.include('data-method-step="otp"');
      expect(step.text).to.include('A one-time code was sent by SMS to +447700900123.');
      expect(step.text).to.include('In the sandbox the code is <strong>123456</strong>');
      expect(await statusOf(h(), sessionId)).to.deep.equal({ waiting: true });

      const wrong = await h().postForm(`${h().baseUrl}/checkout/${sessionId}/otp`, { otp: '000000' });
      expect(wrong.status).to.equal(422);
      expect(wrong.text).to.include('This code is not correct. Check the code in the message and try again.');
      expect((await h().gateway.payments.current(payment.paymentId))!.phase).to.equal('awaiting_redirect');

      const right = await h().postForm(`${h().baseUrl}/checkout/${sessionId}/otp`, { otp: '123456' });
      expect(right.status).to.equal(303);
      const back = new URL(right.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).to.equal(SUCCESS_URL);
      expect(back.searchParams.get('payment_id')).to.equal(payment.paymentId);
      expect(back.searchParams.get('payment_method')).to.equal('sb-otp');
      expect(back.searchParams.get('brand')).to.equal('sb-otp');
      expect((await h().gateway.payments.current(payment.paymentId))!.phase).to.equal('settled');

      await h().gateway.readModels.catchUpToHead(5000);
      const status = await merchantStatus(h(), merchant, payment.paymentId);
      expect(status.body, status.text).to.include({ status: 'settled', checkout_payment_method: 'sb-otp', brand: 'sb-otp' });
    });
  });

  describe('the QR code (sb-qr)', () => {
    it('Given sb-qr chosen, Then the page draws the code as SVG with its 60 s countdown; when the minute is gone the payment is declined (QR code expired) and the page offers the methods again', async () => {
      // The countdown is checked to the second (60, then 15 after 45 s): the gateway's clock stands
      // still while the test runs, however slow the machine, and moves only as the test advances it.
      const clock = h().clock as TestClock;
      clock.freeze();
      try {
        const { sessionId } = await session();
        const paid = await pay(h(), sessionId, { method: 'sb-qr' });
        expect(paid.status).to.equal(303);
        expect(paid.headers.get('location')).to.equal(`${h().baseUrl}/checkout/${sessionId}`);

        const step = await pageOf(h(), sessionId);
        expect(step.text).to.include('data-method-step="qr"');
        expect(step.text).to.match(/<figure class="qr"><svg role="img" aria-label="QR code to pay [^"]+"/);
        expect(step.text).to.include('data-expires-in="60"').and.include('<time data-countdown>1:00</time>');
        expect(step.headers.get('content-security-policy')).to.include("script-src 'self'").and.include("connect-src 'self'");
        expect(step.text).not.to.match(/<script>(?!<)/);
        expect(await statusOf(h(), sessionId)).to.deep.equal({ waiting: true, expires_in: 60 });

        clock.advance(45_000);
        expect(await statusOf(h(), sessionId)).to.deep.equal({ waiting: true, expires_in: 15 });
        clock.advance(16_000);
        expect(await statusOf(h(), sessionId)).to.deep.equal({ waiting: false });

        const payment = await latestPayment(h(), sessionId);
        expect(payment).to.include({ phase: 'declined', declineReason: 'QR code expired' });
        const again = await pageOf(h(), sessionId);
        expect(again.status).to.equal(200);
        expect(again.text).to.include('QR code expired');
        expect(again.text).to.match(/aria-current="true" data-method="sb-qr"/);
      } finally {
        clock.resume();
      }
    });

    it('Given sb-qr paid on the provider\'s side, Then the status says the payer no longer waits, and the page returns them to the shop', async () => {
      const { sessionId } = await session();
      await pay(h(), sessionId, { method: 'sb-qr' });
      const payment = await latestPayment(h(), sessionId);
      const decided = await decideOnPage(h(), payment.paymentId, { decision: 'approve' });
      expect(decided.status).to.be.oneOf([302, 303]);
      expect(await statusOf(h(), sessionId)).to.deep.equal({ waiting: false });
      const page = await pageOf(h(), sessionId);
      expect(page.status).to.equal(303);
      expect(page.headers.get('location')).to.match(/^https:\/\/shop\.example\/success\?payment_id=/);
    });
  });

  describe('payment details, app confirmation and crypto deposit', () => {
    it('Given sb-details, Then the page shows the beneficiary, IBAN, reference and amount, and the provider\'s page', async () => {
      const { sessionId } = await session();
      await pay(h(), sessionId, { method: 'sb-details' });
      const payment = await latestPayment(h(), sessionId);
      const step = await pageOf(h(), sessionId);
      expect(step.text).to.include('data-method-step="details"').and.include('Pay by bank transfer');
      expect(step.text).to.include('<dt>IBAN</dt>').and.include(`<dd data-detail="reference">${payment.paymentId}</dd>`);
      expect(step.text).to.include('<dd data-detail="amount">10.50 USD</dd>');
      expect(step.text).to.match(new RegExp(`data-provider-link`));
    });

    it('Given sb-app, Then the payment waits on the provider and the page asks the payer to confirm in the app', async () => {
      const { sessionId } = await session();
      await pay(h(), sessionId, { method: 'sb-app' });
      expect((await latestPayment(h(), sessionId)).phase).to.equal('awaiting_provider');
      const step = await pageOf(h(), sessionId);
      expect(step.text).to.include('data-method-step="confirm"').and.include('Confirm the payment');
      expect((await statusOf(h(), sessionId)).waiting).to.equal(true);
    });

    it('Given sb-crypto with its crypto_type, Then the page shows the deposit address and the network', async () => {
      const { sessionId } = await session();
      await pay(h(), sessionId, { method: 'sb-crypto' });
      const step = await pageOf(h(), sessionId);
      expect(step.text).to.include('Send the deposit');
      expect(step.text).to.include('<dt>Address</dt>').and.include('<dt>Network</dt>');
    });
  });

  describe('redirect methods (sb-redirect)', () => {
    it('Given sb-redirect, Then the payer goes to the provider\'s page; Approve there returns them to the shop with the ids; the callback names the method', async () => {
      const receiver = await new CallbackReceiver().start();
      try {
        await h().gateway.notifier.start();
        const m = await h().createMerchant({
          notificationUrl: receiver.url,
          protocolMapping: { fields: ['brand', 'checkout_payment_method'], returnParameters: ['payment_method'], requiredFields: [] },
        });
        const { sessionId } = await createSession(h(), m, { methods: ['card', 'sb-redirect'] });
        const paid = await pay(h(), sessionId, { method: 'sb-redirect' });
        expect(paid.status).to.equal(303);
        const payment = await latestPayment(h(), sessionId);
        expect(paid.headers.get('location')).to.match(new RegExp(`/sandbox/provider/${payment.paymentId}\\?return=`));

        const decided = await decideOnPage(h(), payment.paymentId, { decision: 'approve' });
        const returned = await h().request(decided.headers.get('location')!);
        const shop = returned.headers.get('location') ?? '';
        expect(shop).to.match(/^https:\/\/shop\.example\/success\?/);
        expect(new URL(shop).searchParams.get('payment_method')).to.equal('sb-redirect');

        await h().gateway.notifier.catchUp();
        const callback = receiver.received.find((r) => r.fields.get('id') === payment.paymentId && r.fields.get('order_status') === 'settled');
        expect(callback, 'settled callback').to.not.equal(undefined);
        expect(callback!.fields.get('checkout_payment_method')).to.equal('sb-redirect');
        expect(callback!.fields.get('brand')).to.equal('sb-redirect');
      } finally {
        await receiver.stop();
      }
    });
  });

  describe('the payer timeout', () => {
    it('Given a one-time code never typed, When the expiry worker passes after the timeout, Then the payment is declined and the page offers the methods again', async () => {
      const { sessionId } = await session({ parameters: { 'sb-otp': { phone: '+447700900123' } } });
      await pay(h(), sessionId, { method: 'sb-otp' });
      const payment = await latestPayment(h(), sessionId);
      await h().gateway.readModels.catchUpToHead(5000);
      (h().clock as TestClock).advance(16 * 60_000);
      await expireAbandonedPayerActions({ candidates: h().gateway.readModels, payments: h().gateway.payments, clock: h().clock, logger: h().gateway.logger, timeoutMinutes: 15 });
      expect(await h().gateway.payments.current(payment.paymentId)).to.include({ phase: 'declined', declineReason: 'The payer did not return from the redirect in time' });
      const page = await pageOf(h(), sessionId);
      expect(page.status).to.equal(200);
      expect(page.text).to.include('The payer did not return from the redirect in time');
      expect(page.text).to.match(/aria-current="true" data-method="sb-otp"/);
    });
  });
});

