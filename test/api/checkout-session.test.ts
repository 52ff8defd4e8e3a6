/**
 * Checkout session creation over HTTP: `POST /api/v1/session` and `/api/v1/session/token`. Given a
 * merchant, when it sends a session request, then the answer (redirect or token, or the spec's
 * error with the exact field message) and what was recorded.
 */
import { expect } from 'chai';
import { checkoutSessionStreamId } from '../../src/domain/checkout/session-events';
import { orderStreamId } from '../../src/domain/order/order-reservation';
import { addInterval } from '../../src/domain/schedule/due-dates';
import { postJson, sessionBody, sessionHash, type Json } from '../support/checkout-client';
import { storedCardToken } from '../support/checkout-payments';
import { UUID_RE, forEachStore, type TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { expectError, expectFieldError } from '../support/api-errors';

/** Shape checks only: refused before any schedule is looked up. */
const SCHEDULE_ID = '4e1f5c1c-8f0a-4c8e-9a43-1b6d3c1f0a11';

/** A live schedule of the merchant's, as a session's `schedule_id` must name. */
async function merchantSchedule(h: () => TestGateway, merchant: TestMerchant): Promise<string> {
  const rule = { intervalLength: 1, intervalUnit: 'month' as const, paymentsCount: 12, delayedFirstPayment: { kind: 'none' as const } };
  return (await h().gateway.schedules.create(merchant.merchant_id, { name: 'Monthly', rule }, 'test')).scheduleId;
}

/** How long a recorded session stays open. */
const lifetimeMs = (data: Json): number => Date.parse(String(data.expiresAt)) - Date.parse(String(data.createdAt));

async function sessionEvents(t: TestGateway, redirectUrl: string) {
  const sessionId = redirectUrl.split('/').pop()!;
  return t.gateway.store.readStream(checkoutSessionStreamId(sessionId));
}

/** A body re-signed after `change` edits it (so only the rule under test can fail). */
function signed(merchant: TestMerchant, change: (body: Json) => void, overrides: Json = {}): Json {
  const body = sessionBody(merchant, overrides);
  change(body);
  body.hash = sessionHash(body, merchant.password);
  return body;
}

forEachStore('Checkout API: session creation', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  describe('POST /api/v1/session', () => {
    it('answers a redirect to the hosted page and records the session and its order number', async () => {
      const body = sessionBody(merchant);
      const res = await postJson(h(), '/api/v1/session', body);

      expect(res.status, res.text).to.equal(200);
      expect(res.body.redirect_method).to.equal('GET');
      const match = new RegExp(`^${h().baseUrl}/checkout/(.+)$`).exec(res.body.redirect_url);
      expect(match, res.body.redirect_url).to.not.equal(null);
      expect(match![1]).to.match(UUID_RE);
      expect(Object.keys(res.body).sort()).to.deep.equal(['redirect_method', 'redirect_url']);

      const events = await sessionEvents(h(), res.body.redirect_url);
      expect(events.map((e) => e.type)).to.deep.equal(['CheckoutSessionCreated']);
      const data = events[0].data;
      expect(data).to.deep.include({
        merchantId: merchant.merchant_id,
        operation: 'purchase',
        auth: false,
        hostedFields: false,
        cardToken: null,
        payee: null,
      });
      expect(data.order).to.deep.equal({ number: body.order.number, amount: 1050, amountText: '10.50', currency: 'USD', description: 'Checkout test order' });
      expect(data.urls).to.deep.equal({ success: 'https://shop.example/success', cancel: 'https://shop.example/cancel', expiry: null, error: null, return: null });
      expect(lifetimeMs(data), 'default session_expiry').to.equal(60 * 60_000);

      const reserved = await h().gateway.store.readStream(orderStreamId(merchant.merchant_id, body.order.number));
      expect(reserved.map((e) => e.type)).to.deep.equal(['OrderIdReserved']);
      expect(reserved[0].data).to.include({ orderId: body.order.number, sessionId: match![1] });
    });

    it('records every optional field as sent, and echoes the schedule values', async () => {
      const SCHEDULE_ID = await merchantSchedule(h, merchant);
      const body = sessionBody(merchant, {
        methods: ['card'],
        parameters: { card: { descriptor: 'SHOP*ORDER' } },
        expiry_url: 'https://shop.example/expired',
        error_url: 'https://shop.example/error',
        url_target: '_parent',
        session_expiry: 720,
        req_token: true,
        recurring_init: true,
        vat_calc: true,
        auth: true,
        customer: { name: 'Jane Roe', email: 'jane@example.com', birth_date: '1990-04-01' },
        billing_address: { country: 'us', state: 'CA', city: 'Springfield', address: '1 Main St', zip: '12345', phone: '+15551234567', house_number: '1', district: 'North' },
        custom_data: { basket: 'b-17', tags: ['a', 'b'] },
        schedule_id: SCHEDULE_ID,
        schedule_start_date: '2030-01-15',
        payment_schedule_amount: '5.25',
      });
      const res = await postJson(h(), '/api/v1/session', body);

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({
        redirect_method: 'GET',
        schedule_id: SCHEDULE_ID,
        schedule_start_date: '2030-01-15',
        payment_schedule_amount: '5.25',
        // schedule_start_date is the first automatic payment's date.
        first_recurring_date: '2030-01-15',
      });
      const [created] = await sessionEvents(h(), res.body.redirect_url);
      expect(created.data).to.deep.include({
        auth: true,
        urlTarget: '_parent',
        methods: ['card'],
        parameters: { card: { descriptor: 'SHOP*ORDER' } },
        customer: { name: 'Jane Roe', email: 'jane@example.com', birthDate: '1990-04-01' },
        billingAddress: { country: 'US', state: 'CA', city: 'Springfield', address: '1 Main St', zip: '12345', phone: '+15551234567', houseNumber: '1', district: 'North' },
        customData: { basket: 'b-17', tags: ['a', 'b'] },
        recurringInit: true,
        reqToken: true,
        vatCalc: true,
        schedule: { scheduleId: SCHEDULE_ID, startDate: '2030-01-15', paymentAmountText: '5.25' },
      });
      expect(created.data.urls).to.include({ expiry: 'https://shop.example/expired', error: 'https://shop.example/error' });
      expect(lifetimeMs(created.data)).to.equal(720 * 60_000);
    });

    describe('field rules, each with its message', () => {
      const long = (n: number) => 'x'.repeat(n);
      const cases: Array<[string, (b: Json) => void, string]> = [
        ['operation missing', (b) => delete b.operation, 'operation: This value should not be blank.'],
        ['operation unknown', (b) => (b.operation = 'refund'), 'operation: The value you selected is not a valid choice. Allowed: purchase, debit, credit.'],
        ['order missing', (b) => delete b.order, 'order: This value should not be blank.'],
        ['order.number missing', (b) => delete b.order.number, 'order.number: This value should not be blank.'],
        ['order.number over 255', (b) => (b.order.number = long(256)), 'order.number: This value is too long. It should have 255 characters or less.'],
        ['order.description of 1', (b) => (b.order.description = 'x'), 'order.description: This value is too short. It should have 2 characters or more.'],
        ['order.description over 1024', (b) => (b.order.description = long(1025)), 'order.description: This value is too long. It should have 1024 characters or less.'],
        ['order.amount a number', (b) => (b.order.amount = 10.5), 'order.amount: This value should be of type string.'],
        ['order.amount not decimal', (b) => (b.order.amount = '10,50'), 'order.amount: Amount must be a decimal number like 10.50'],
        ['order.amount beyond the exponent', (b) => (b.order.amount = '10.505'), 'order.amount: Amount in USD can have at most 2 decimals'],
        ['order.amount with decimals in JPY', (b) => Object.assign(b.order, { currency: 'JPY', amount: '100.5' }), 'order.amount: Amount in JPY cannot have decimals'],
        ['order.currency unknown', (b) => (b.order.currency = 'XYZ'), 'order.currency: This value is not a valid currency.'],
        ['order.currency lower case', (b) => (b.order.currency = 'usd'), 'order.currency: This value is not a valid currency.'],
        ['success_url missing', (b) => delete b.success_url, 'success_url: This value should not be blank.'],
        ['success_url not http(s)', (b) => (b.success_url = 'ftp://shop.example/ok'), 'success_url: This value is not a valid URL.'],
        ['cancel_url over 1024', (b) => (b.cancel_url = `https://shop.example/${long(1010)}`), 'cancel_url: This value is too long. It should have 1024 characters or less.'],
        ['expiry_url not a URL', (b) => (b.expiry_url = 'later'), 'expiry_url: This value is not a valid URL.'],
        ['error_url not a URL', (b) => (b.error_url = 'shop.example/error'), 'error_url: This value is not a valid URL.'],
        ['return_url not a URL', (b) => (b.return_url = 'javascript:alert(1)'), 'return_url: This value is not a valid URL.'],
        ['url_target unknown', (b) => (b.url_target = '_new'), 'url_target: The value you selected is not a valid choice. Allowed: _blank, _self, _parent, _top.'],
        ['session_expiry 0', (b) => (b.session_expiry = 0), 'session_expiry: This value should be 1 or more.'],
        ['session_expiry 721', (b) => (b.session_expiry = 721), 'session_expiry: This value should be 720 or less.'],
        ['session_expiry a string', (b) => (b.session_expiry = '60'), 'session_expiry: This value should be of type integer.'],
        ['session_expiry a fraction', (b) => (b.session_expiry = 1.5), 'session_expiry: This value should be of type integer.'],
        // A debit is paid by card only (alternative methods pay hosted purchases): what is available is short.
        ['methods not offered', (b) => ((b.operation = 'debit'), (b.methods = ['card', 'voucher'])), 'methods[1]: The payment method "voucher" is not available. Available: card.'],
        ['methods a string', (b) => (b.methods = 'card'), 'methods: This value should be of type array.'],
        ['methods empty', (b) => (b.methods = []), 'methods: This collection should contain 1 element or more.'],
        ['parameters an array', (b) => (b.parameters = ['card']), 'parameters: This value should be of type object.'],
        ['customer.email malformed', (b) => (b.customer.email = 'doe-at-example'), 'customer.email: This value is not a valid email address.'],
        ['customer.birth_date not a date', (b) => (b.customer.birth_date = '1990-13-01'), 'customer.birth_date: This value is not a valid date (YYYY-MM-DD).'],
        ['billing_address.country of 3 letters', (b) => (b.billing_address.country = 'GBR'), 'billing_address.country: This value should be a 2-letter country code.'],
        ['custom_data a string', (b) => (b.custom_data = 'x'), 'custom_data: This value should be of type object.'],
        ['notification_url not a URL', (b) => (b.notification_url = 'ftp://shop.example/cb'), 'notification_url: This value is not a valid URL.'],
        ['req_token not boolean', (b) => (b.req_token = 'Y'), 'req_token: This value should be of type boolean.'],
        ['recurring_init not boolean', (b) => (b.recurring_init = 1), 'recurring_init: This value should be of type boolean.'],
        ['vat_calc not boolean', (b) => (b.vat_calc = 'true'), 'vat_calc: This value should be of type boolean.'],
        ['auth not boolean', (b) => (b.auth = 'N'), 'auth: This value should be of type boolean.'],
        ['auth on debit', (b) => Object.assign(b, { operation: 'debit', auth: true }), 'auth: This field is only accepted with operation purchase.'],
        ['auth on credit', (b) => Object.assign(b, { operation: 'credit', auth: true }), 'auth: This field is only accepted with operation purchase.'],
        ['schedule_id not a UUID', (b) => (b.schedule_id = 'sched-1'), 'schedule_id: This is not a valid UUID.'],
        ['schedule_start_date without schedule_id', (b) => (b.schedule_start_date = '2030-01-01'), 'schedule_id: This value should not be blank.'],
        ['payment_schedule_amount without schedule_id', (b) => (b.payment_schedule_amount = '5.00'), 'schedule_id: This value should not be blank.'],
        ['schedule_start_date not a date', (b) => Object.assign(b, { schedule_id: SCHEDULE_ID, schedule_start_date: '15.01.2030' }), 'schedule_start_date: This value is not a valid date (YYYY-MM-DD).'],
        ['payment_schedule_amount beyond the exponent', (b) => Object.assign(b, { schedule_id: SCHEDULE_ID, payment_schedule_amount: '5.001' }), 'payment_schedule_amount: Amount in USD can have at most 2 decimals'],
        ['card_token on purchase', (b) => (b.card_token = 'tok'), 'card_token: This field is only accepted with operation credit.'],
        ['card_token on debit', (b) => Object.assign(b, { operation: 'debit', card_token: 'tok' }), 'card_token: This field is only accepted with operation credit.'],
        ['card_token an array', (b) => Object.assign(b, { operation: 'credit', card_token: ['a', 'b'] }), 'card_token: This value should be of type string.'],
        ['payee_first_name on purchase', (b) => (b.payee_first_name = 'Ann'), 'payee_first_name: This field is only accepted with operation credit.'],
        ['payee_billing_address on debit', (b) => Object.assign(b, { operation: 'debit', payee_billing_address: { country: 'GB' } }), 'payee_billing_address: This field is only accepted with operation credit.'],
        ['payee neither string nor object', (b) => Object.assign(b, { operation: 'credit', payee: 7 }), 'payee: This value should be of type string or object.'],
        ['hash a number', (b) => (b.hash = 1234), 'hash: This value should be of type string.'],
      ];
      for (const [title, change, message] of cases) {
        it(`refuses ${title}: "${message}"`, async () => {
          const body = signed(merchant, change);
          if (title.startsWith('hash')) change(body);
          const res = await postJson(h(), '/api/v1/session', body);
          expectFieldError(res, message);
        });
      }

      it('lists every problem of one request together', async () => {
        const body = signed(merchant, (b) => Object.assign(b, { url_target: 'top', session_expiry: 0, customer: { email: 'x' } }));
        const res = await postJson(h(), '/api/v1/session', body);
        expect(res.status).to.equal(400);
        expect(res.body.errors.map((e: { error_message: string }) => e.error_message.split(':')[0]).sort()).to.deep.equal([
          'customer.email',
          'session_expiry',
          'url_target',
        ]);
      });

      it('refuses a missing merchant_key, an unknown one, and a body that is not JSON', async () => {
        const body = sessionBody(merchant);
        delete body.merchant_key;
        expectFieldError(await postJson(h(), '/api/v1/session', body), 'merchant_key: This value should not be blank.');
        expectFieldError(
          await postJson(h(), '/api/v1/session', { ...sessionBody(merchant), merchant_key: 'test_mk_00000000000000000000000000000000' }),
          'merchant_key: Merchant not found.',
        );
        const form = await h().postForm(`${h().baseUrl}/api/v1/session`, { merchant_key: merchant.merchant_key, operation: 'purchase' });
        expectFieldError(form, 'body: The request body must be a JSON object (Content-Type: application/json).');
        expectFieldError(await postJson(h(), '/api/v1/session', '[1,2]'), 'body: The request body must be a JSON object (Content-Type: application/json).');
      });

      it('answers malformed JSON with Request data is invalid., not a 500', async () => {
        const res = await postJson(h(), '/api/v1/session', '{"merchant_key": "x", ');
        expectError(res, 100000, 'Request data is invalid.');
      });
    });

    describe('authentication', () => {
      it('refuses a hash that does not match, after field validation', async () => {
        const wrong = sessionBody(merchant, { hash: sessionHash(sessionBody(merchant), 'not-the-password') });
        expectError(await postJson(h(), '/api/v1/session', wrong), 100000, 'Hash is not valid');

        // The amount is hashed as sent: a reformatted amount is another input.
        const reformatted = sessionBody(merchant);
        reformatted.order.amount = '10.5';
        expectError(await postJson(h(), '/api/v1/session', reformatted), 100000, 'Hash is not valid');

        // A field error wins over a wrong hash (spec Errors rule 2).
        const both = sessionBody(merchant, { hash: 'f'.repeat(40), url_target: 'nowhere' });
        expectFieldError(await postJson(h(), '/api/v1/session', both), 'url_target: The value you selected is not a valid choice. Allowed: _blank, _self, _parent, _top.');
      });

      it('takes the hash in upper-case hex too, and upper-cases non-ASCII input the way the spec does (ASCII only)', async () => {
        const body = sessionBody(merchant, { order: { description: 'Größe ß Bestellung' } });
        body.hash = body.hash.toUpperCase();
        const res = await postJson(h(), '/api/v1/session', body);
        expect(res.status, res.text).to.equal(200);
      });

      it('refuses a key of the other environment with 220002', async () => {
        const body = sessionBody(merchant, { merchant_key: merchant.merchant_key.replace(/^test_/, 'live_') });
        expectError(await postJson(h(), '/api/v1/session', body), 220002, 'Use merchant test key.');
      });

      it('refuses a caller outside the merchant IP allowlist, and serves one inside it', async () => {
        const fenced = await h().createMerchant({ ipAllowlist: ['203.0.113.0/24'] });
        expectError(await postJson(h(), '/api/v1/session', sessionBody(fenced)), 100000, 'Request from this ip is not allowed.');
        const local = await h().createMerchant({ ipAllowlist: ['127.0.0.0/8'] });
        expect((await postJson(h(), '/api/v1/session', sessionBody(local))).status).to.equal(200);
      });
    });

    describe('business rules', () => {
      it('refuses a notification_url callbacks could never reach with HTTP 400, and records a reachable one', async () => {
        for (const [url, message] of [
          ['https://user:secret@shop.example/cb', 'notification_url: The URL must not contain credentials.'],
          ['https://no-such-host.invalid/cb', 'notification_url: The host of the URL does not resolve.'],
        ]) {
          expectFieldError(await postJson(h(), '/api/v1/session', sessionBody(merchant, { notification_url: url })), message);
        }
        // Reachable: something listens there (the gateway itself will do).
        const reachable = `${h().baseUrl}/cb`;
        const ok = await postJson(h(), '/api/v1/session', sessionBody(merchant, { notification_url: reachable }));
        expect(ok.status, ok.text).to.equal(200);
        const [created] = await sessionEvents(h(), ok.body.redirect_url);
        expect(created.data.notificationUrl).to.equal(reachable);
      });

      it('answers a repeat within 15 s with the same session, and a later reuse with Duplicate payment', async () => {
        const body = sessionBody(merchant);
        const first = await postJson(h(), '/api/v1/session', body);
        const repeat = await postJson(h(), '/api/v1/session', body);
        expect(repeat.status).to.equal(200);
        expect(repeat.body.redirect_url).to.equal(first.body.redirect_url);

        (h().clock as TestClock).advance(16_000);
        expectError(await postJson(h(), '/api/v1/session', body), 100000, 'order_id: Duplicate payment.');
        const all = await h().gateway.store.readAll();
        const sessions = all.filter((e) => e.type === 'CheckoutSessionCreated' && (e.data.order as Json).number === body.order.number);
        expect(sessions).to.have.length(1);
      });

      it('refuses an order number a SALE already used, and one used for a hosted payment fields session', async () => {
        const sale = await h().sale(merchant);
        const body = sessionBody(merchant, { order: { number: sale.fields.order_id } });
        expectError(await postJson(h(), '/api/v1/session', body), 100000, 'order_id: Duplicate payment.');

        const tokenBody = sessionBody(merchant, { return_url: 'https://shop.example/return' });
        expect((await postJson(h(), '/api/v1/session/token', tokenBody)).status).to.equal(200);
        const again = sessionBody(merchant, { order: tokenBody.order });
        expectError(await postJson(h(), '/api/v1/session', again), 100000, 'order_id: Duplicate payment.');
      });

      it('follows the MID Payment Mode: SMS refuses auth, DMS refuses a plain purchase, SMS/DMS takes both', async () => {
        const sms = await h().createMerchant({ paymentMode: 'SMS' });
        const dms = await h().createMerchant({ paymentMode: 'DMS' });
        const both = await h().createMerchant({ paymentMode: 'SMS/DMS' });
        expectError(await postJson(h(), '/api/v1/session', sessionBody(sms, { auth: true })), 204005, 'Payment action not supported');
        expectError(await postJson(h(), '/api/v1/session', sessionBody(dms)), 204005, 'Payment action not supported');
        expectError(await postJson(h(), '/api/v1/session', sessionBody(dms, { auth: false })), 204005, 'Payment action not supported');
        expect((await postJson(h(), '/api/v1/session', sessionBody(sms))).status).to.equal(200);
        expect((await postJson(h(), '/api/v1/session', sessionBody(dms, { auth: true }))).status).to.equal(200);
        expect((await postJson(h(), '/api/v1/session', sessionBody(dms, { operation: 'debit' }))).status, 'debit is no sale').to.equal(200);
        expect((await postJson(h(), '/api/v1/session', sessionBody(both))).status).to.equal(200);
        expect((await postJson(h(), '/api/v1/session', sessionBody(both, { auth: true }))).status).to.equal(200);
      });

      it('refuses a zero amount unless the session starts a recurring chain', async () => {
        expectError(
          await postJson(h(), '/api/v1/session', sessionBody(merchant, { order: { amount: '0.00' } })),
          100000,
          'amount: This value should be greater than 0.',
        );
        expectError(
          await postJson(h(), '/api/v1/session', sessionBody(merchant, { auth: true, order: { amount: '0' } })),
          100000,
          'amount: This value should be greater than 0.',
        );
        const res = await postJson(h(), '/api/v1/session', sessionBody(merchant, { recurring_init: true, order: { amount: '0.00' } }));
        expect(res.status, res.text).to.equal(200);
      });

      it('takes session_expiry at its bounds, 1 and 720 minutes', async () => {
        for (const minutes of [1, 720]) {
          const res = await postJson(h(), '/api/v1/session', sessionBody(merchant, { session_expiry: minutes }));
          expect(res.status, res.text).to.equal(200);
          const [created] = await sessionEvents(h(), res.body.redirect_url);
          expect(lifetimeMs(created.data)).to.equal(minutes * 60_000);
        }
      });

      it('credits a stored card: the token and payee are recorded; an unknown token is 205005', async () => {
        const token = await storedCardToken(h(), merchant);
        const res = await postJson(
          h(),
          '/api/v1/session',
          sessionBody(merchant, {
            operation: 'credit',
            card_token: token,
            payee: { name: 'Ann Payee' },
            payee_first_name: 'Ann',
            payee_last_name: 'Payee',
            payee_billing_address: { country: 'gb', city: 'London' },
          }),
        );
        expect(res.status, res.text).to.equal(200);
        const [created] = await sessionEvents(h(), res.body.redirect_url);
        expect(created.data).to.deep.include({
          operation: 'credit',
          cardToken: token,
          payee: { firstName: 'Ann', lastName: 'Payee', name: 'Ann Payee', billingAddress: { country: 'GB', city: 'London' } },
        });

        const unknown = sessionBody(merchant, { operation: 'credit', card_token: 'no-such-token' });
        expectError(await postJson(h(), '/api/v1/session', unknown), 205005, 'Card token is invalid or not found.');
        // The refused request did not take the order number.
        const retry = await postJson(h(), '/api/v1/session', sessionBody(merchant, { operation: 'credit', order: unknown.order, card_token: token }));
        expect(retry.status, retry.text).to.equal(200);
      });
    });
  });

  describe('POST /api/v1/session/token', () => {
    const tokenBody = (m: TestMerchant, overrides: Json = {}) => sessionBody(m, { return_url: 'https://shop.example/return', ...overrides });

    it('answers a token for a hosted payment fields session', async () => {
      const SCHEDULE_ID = await merchantSchedule(h, merchant);
      const body = tokenBody(merchant, { success_url: undefined, cancel_url: undefined, recurring_init: true, schedule_id: SCHEDULE_ID });
      const res = await postJson(h(), '/api/v1/session/token', JSON.parse(JSON.stringify(body)));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.token).to.be.a('string').and.not.be.empty;
      // Monthly, no delay: a month after today, if the payer pays today.
      const today = h().gateway.clock.now().toISOString().slice(0, 10);
      expect(res.body).to.include({ schedule_id: SCHEDULE_ID, first_recurring_date: addInterval(today, 1, 'month') });
      expect(res.body).not.to.have.property('redirect_url');
      const session = await h().gateway.checkout.sessionByToken(res.body.token);
      expect(session).to.deep.include({ hostedFields: true, operation: 'purchase', merchantId: merchant.merchant_id });
      expect(session!.urls).to.deep.include({ return: 'https://shop.example/return', success: null });
      expect(session!.customer).not.to.have.property('ip');
    });

    it('requires return_url; success_url is optional there', async () => {
      const body = tokenBody(merchant, { success_url: undefined });
      delete body.return_url;
      expectFieldError(await postJson(h(), '/api/v1/session/token', JSON.parse(JSON.stringify(body))), 'return_url: This value should not be blank.');
    });

    it('records customer.ip when it is an IPv4 or IPv6 address and refuses anything else', async () => {
      for (const ip of ['198.51.100.23', '2001:db8::17']) {
        const res = await postJson(h(), '/api/v1/session/token', tokenBody(merchant, { customer: { name: 'John Doe', ip } }));
        expect(res.status, res.text).to.equal(200);
        expect((await h().gateway.checkout.sessionByToken(res.body.token))!.customer.ip).to.equal(ip);
      }
      for (const ip of ['300.1.2.3', 'localhost', '']) {
        const res = await postJson(h(), '/api/v1/session/token', tokenBody(merchant, { customer: { ip } }));
        expectFieldError(res, 'customer.ip: This value is not a valid IP address.');
      }
    });

    it('offers purchase and debit only, and applies the session rules', async () => {
      expectFieldError(
        await postJson(h(), '/api/v1/session/token', tokenBody(merchant, { operation: 'credit' })),
        'operation: The value you selected is not a valid choice. Allowed: purchase, debit.',
      );
      const debit = await postJson(h(), '/api/v1/session/token', tokenBody(merchant, { operation: 'debit' }));
      expect(debit.status, debit.text).to.equal(200);
      expect((await h().gateway.checkout.sessionByToken(debit.body.token))!.operation).to.equal('debit');
      expectFieldError(await postJson(h(), '/api/v1/session/token', tokenBody(merchant, { session_expiry: 721 })), 'session_expiry: This value should be 720 or less.');
      expectError(await postJson(h(), '/api/v1/session/token', tokenBody(merchant, { hash: 'a'.repeat(40) })), 100000, 'Hash is not valid');
    });

    it('answers a repeat within 15 s with the same token', async () => {
      const body = tokenBody(merchant);
      const first = await postJson(h(), '/api/v1/session/token', body);
      const repeat = await postJson(h(), '/api/v1/session/token', body);
      expect(repeat.body.token).to.equal(first.body.token);
    });
  });
});
