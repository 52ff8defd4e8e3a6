/**
 * Hosted payment fields over HTTP: the card frame hands the card to `/hosted-fields/card-data`,
 * then the merchant's server pays with `POST /api/v1/processing/{purchase,debit}/card` and the
 * `Token` header. Refusals come in the spec's error shape; the card number never reaches an event
 * or a log line.
 */
import { expect } from 'chai';
import { createSessionToken, postJson, type Json } from '../support/checkout-client';
import { forEachStore, UUID_RE, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { browserOf } from '../../src/api/hosted-fields/processing';

const PAN = '4111111111111111';
const CVV = '739';
const MASK = '411111******1111';
const PURCHASE = '/api/v1/processing/purchase/card';
const DEBIT = '/api/v1/processing/debit/card';

const invalid = (...messages: string[]) => ({
  result: 'ERROR',
  error_code: 100000,
  error_message: 'Request data is invalid.',
  errors: messages.map((error_message) => ({ error_code: 100000, error_message })),
});

/** What the card frame posts once the payer pressed Pay on the merchant's page (a browser names the frame's origin). */
function postCardData(t: TestGateway, token: string, expiry: string, extra: { number?: string; headers?: Record<string, string> } = {}) {
  const headers = { Origin: t.baseUrl, 'Sec-Fetch-Site': 'same-origin', ...extra.headers };
  return postJson(t, '/hosted-fields/card-data', { token, number: extra.number ?? PAN, expiry, cvv: CVV }, headers);
}

function processing(t: TestGateway, path: string, token: string | undefined, body: Json = {}, headers: Record<string, string> = {}) {
  return postJson(t, path, { name: 'John Doe', with_hosted_fields: true, ...body }, { ...(token === undefined ? {} : { Token: token }), ...headers });
}

forEachStore(
  'Hosted payment fields processing',
  (h) => {
    let t: TestGateway;
    let merchant: TestMerchant;
    beforeEach(async () => {
      t = h();
      merchant = await t.createMerchant();
    });

    /** A session token whose payer already typed a sandbox card expiring `expiry`. */
    async function tokenWithCard(expiry: string, overrides: Json = {}): Promise<string> {
      const { token } = await createSessionToken(t, merchant, overrides);
      const held = await postCardData(t, token, expiry);
      expect(held.status).to.equal(200);
      expect(held.body).to.deep.equal({ result: 'success', message: 'Card data saved.' });
      return token;
    }

    describe('authentication by the Token header', () => {
      it('refuses a request without a Token header, naming the header', async () => {
        const res = await processing(t, PURCHASE, undefined);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(invalid('Token: This value should not be blank.'));
      });

      it('refuses a forged token, and a token of a real session whose signature was altered', async () => {
        const { token } = await createSessionToken(t, merchant);
        const [sessionId, sig] = token.split('.');
        const altered = `${sessionId}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
        for (const forged of ['not-a-token', altered]) {
          const res = await processing(t, PURCHASE, forged);
          expect(res.status, forged).to.equal(400);
          expect(res.body, forged).to.deep.equal(invalid('Token: The session token is not valid.'));
        }
      });

      it('lists every shape problem of the request together, before looking at the token', async () => {
        const res = await postJson(t, PURCHASE, { with_hosted_fields: 'yes', email: 'nope', birth_day: '2038-13-45' });
        expect(res.status).to.equal(400);
        expect(res.body.error_message).to.equal('Request data is invalid.');
        expect(res.body.errors.map((e: Json) => e.error_message)).to.have.members([
          'Token: This value should not be blank.',
          'name: This value should not be blank.',
          'with_hosted_fields: This value should be of type boolean.',
          'email: This value is not a valid email address.',
          'birth_day: This value is not a valid date (YYYY-MM-DD).',
        ]);
      });
    });

    describe('field rules', () => {
      it('refuses with_hosted_fields false and a missing or blank name', async () => {
        const token = await tokenWithCard('01 / 38');
        const notTrue = await processing(t, PURCHASE, token, { with_hosted_fields: false });
        expect(notTrue.body).to.deep.equal(invalid('with_hosted_fields: The value you selected is not a valid choice. Allowed: true.'));
        const noName = await postJson(t, PURCHASE, { with_hosted_fields: true }, { Token: token });
        expect(noName.body).to.deep.equal(invalid('name: This value should not be blank.'));
        const blankName = await processing(t, PURCHASE, token, { name: '   ' });
        expect(blankName.body).to.deep.equal(invalid('name: This value should not be blank.'));
        // None of the refusals used up the card the payer typed.
        const paid = await processing(t, PURCHASE, token);
        expect(paid.body.result).to.equal('success');
      });

      it('checks the browser_info and billing_address shapes', async () => {
        const token = await tokenWithCard('01 / 38');
        const res = await processing(t, PURCHASE, token, {
          browser_info: { color_depth: 'deep', screen_width: '200000', java_enabled: 'maybe' },
          billing_address: { country: 'Germany' },
        });
        expect(res.status).to.equal(400);
        expect(res.body.errors.map((e: Json) => e.error_message)).to.have.members([
          'browser_info[color_depth]: This value is not valid.',
          'browser_info[java_enabled]: This value is not valid.',
          'browser_info[screen_width]: This value should be between 1 and 100000.',
          'billing_address[country]: This value is not valid.',
        ]);
      });
    });

    describe('paying with the card the iframes handed over', () => {
      it('refuses to pay before any card data was collected', async () => {
        const { token } = await createSessionToken(t, merchant);
        const res = await processing(t, PURCHASE, token);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(invalid('card: No card data was collected for this session: call collectIframesData() first.'));
      });

      it('settles with 01/2038: public_id names a payment whose events carry only the card mask', async () => {
        const token = await tokenWithCard('01 / 38');
        const res = await processing(t, PURCHASE, token);
        expect(res.status).to.equal(200);
        expect(res.body).to.have.keys('result', 'public_id');
        expect(res.body.result).to.equal('success');
        expect(res.body.public_id).to.match(UUID_RE);

        const events = await t.paymentEvents(res.body.public_id);
        expect(events.map((e) => e.type)).to.include('PaymentInitiated');
        const initiated = events.find((e) => e.type === 'PaymentInitiated')!;
        expect(initiated.data.card).to.include({ mask: MASK, expMonth: '01', expYear: '2038' });
        expect(initiated.data.checkout).to.include({ hostedFields: true });

        const stored = JSON.stringify(await t.gateway.store.readAll(), (_k, v) => (typeof v === 'bigint' ? String(v) : v));
        expect(stored).not.to.include(PAN);
        expect(stored).not.to.match(/"(cvv|cvv2|card_cvv2)"\s*:/i);
        expect(stored).not.to.include(`"${CVV}"`);
      });

      it('declines with 02/2038 and says why', async () => {
        const token = await tokenWithCard('02/2038');
        const res = await processing(t, PURCHASE, token);
        expect(res.status).to.equal(200);
        expect(res.body.result).to.equal('decline');
        expect(res.body.decline_message).to.be.a('string').and.not.be.empty;
        expect(res.body.public_id).to.match(UUID_RE);
      });

      it('answers redirect with the 3DS v1 parameters for 05/2038', async () => {
        const token = await tokenWithCard('0538');
        const res = await processing(t, PURCHASE, token);
        expect(res.status).to.equal(200);
        expect(res.body.result).to.equal('redirect');
        expect(res.body.redirect_url).to.be.a('string').and.satisfy((u: string) => u.startsWith(t.baseUrl));
        expect(res.body.redirect_params).to.have.keys('PaReq', 'MD', 'TermUrl');
        expect(res.body.redirect_params.MD).to.equal(res.body.public_id);
      });

      it('takes the card data once: a second processing request has nothing to pay with', async () => {
        const token = await tokenWithCard('02 / 38');
        expect((await processing(t, PURCHASE, token)).body.result).to.equal('decline');
        const again = await processing(t, PURCHASE, token);
        expect(again.body).to.deep.equal(invalid('card: No card data was collected for this session: call collectIframesData() first.'));
      });

      it('refuses a paid session', async () => {
        const token = await tokenWithCard('01 / 38');
        expect((await processing(t, PURCHASE, token)).body.result).to.equal('success');
        const retyped = await postCardData(t, token, '01 / 38');
        expect(retyped.body).to.deep.equal({ result: 'undefined', message: 'This order has already been paid.' });
        const res = await processing(t, PURCHASE, token);
        expect(res.body).to.deep.equal(invalid('Token: This order has already been paid.'));
      });
    });

    describe('purchase and debit endpoints', () => {
      it('refuses a debit session on the purchase endpoint and pays it on the debit endpoint', async () => {
        const token = await tokenWithCard('01 / 38', { operation: 'debit' });
        const wrong = await processing(t, PURCHASE, token);
        expect(wrong.status).to.equal(400);
        expect(wrong.body).to.deep.equal(invalid('operation: This session is for the debit operation; use /api/v1/processing/debit/card.'));
        const res = await processing(t, DEBIT, token);
        expect(res.body.result).to.equal('success');
        const initiated = (await t.paymentEvents(res.body.public_id)).find((e) => e.type === 'PaymentInitiated')!;
        expect(initiated.data.kind).to.equal('debit');
      });

      it('refuses a purchase session on the debit endpoint', async () => {
        const token = await tokenWithCard('01 / 38');
        const res = await processing(t, DEBIT, token);
        expect(res.body).to.deep.equal(invalid('operation: This session is for the purchase operation; use /api/v1/processing/purchase/card.'));
      });
    });

    describe('the payer recorded with the payment', () => {
      async function payerOf(publicId: string): Promise<Json> {
        const initiated = (await t.paymentEvents(publicId)).find((e) => e.type === 'PaymentInitiated')!;
        return initiated.data.payer as Json;
      }

      it('uses customer.ip of the token request rather than the address of the caller', async () => {
        const token = await tokenWithCard('01 / 38', { customer: { name: 'John Doe', ip: '198.51.100.23' } });
        const res = await processing(t, PURCHASE, token);
        expect((await payerOf(res.body.public_id)).ip).to.equal('198.51.100.23');
      });

      it('uses the address of the caller when the token request gave no customer.ip', async () => {
        const token = await tokenWithCard('01 / 38', { customer: { name: 'John Doe' } });
        const res = await processing(t, PURCHASE, token);
        expect((await payerOf(res.body.public_id)).ip).to.equal('127.0.0.1');
      });

      it("records the payer's Accept header, forwarded on the request, when browser_info has no accept_header", async () => {
        const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
        const token = await tokenWithCard('01 / 38');
        const res = await processing(
          t,
          PURCHASE,
          token,
          { browser_info: { language: 'de-DE', screen_width: 1280, screen_height: '800', java_script_enabled: true, time_zone_offset: -60 } },
          { Accept: accept },
        );
        const initiated = (await t.paymentEvents(res.body.public_id)).find((e) => e.type === 'PaymentInitiated')!;
        expect(initiated.data.browser).to.deep.include({
          acceptHeaders: accept,
          language: 'de-DE',
          screenWidth: 1280,
          screenHeight: 800,
          javascriptEnabled: true,
          timezoneOffset: -60,
        });
      });

      it('with the payer\'s browser but no Accept header (accept_header empty, none on the request), Then the sandbox acquirer refuses it as a connector does: INVALID_REQUEST', async () => {
        for (const browser_info of [{ language: 'de-DE', user_agent: 'Mozilla/5.0' }, { language: 'de-DE', accept_header: '' }]) {
          const token = await tokenWithCard('01 / 38');
          const res = await processing(t, PURCHASE, token, { browser_info }, { Accept: '' });
          expect(res.body, JSON.stringify(browser_info)).to.include({ result: 'decline', decline_message: 'INVALID_REQUEST: accept_header is empty' });
          const payment = await t.gateway.payments.current(res.body.public_id);
          expect(payment.phase).to.equal('declined');
        }
      });

      it('keeps the accept_header the merchant sent in browser_info', async () => {
        const token = await tokenWithCard('01 / 38');
        const res = await processing(t, PURCHASE, token, { browser_info: { accept_header: 'text/html' } }, { Accept: 'application/json' });
        const initiated = (await t.paymentEvents(res.body.public_id)).find((e) => e.type === 'PaymentInitiated')!;
        expect((initiated.data.browser as Json).acceptHeaders).to.equal('text/html');
      });

      it('records the email and billing address of the processing request when the session had none', async () => {
        const token = await tokenWithCard('01 / 38', { customer: { name: 'John Doe' }, billing_address: undefined });
        const res = await processing(t, PURCHASE, token, {
          email: 'payer@example.com',
          billing_address: { country: 'de', city: 'Berlin', zip: '10115', house_number: '7' },
        });
        expect(res.body.result).to.equal('success');
        expect(await payerOf(res.body.public_id)).to.include({
          email: 'payer@example.com',
          country: 'DE',
          city: 'Berlin',
          zip: '10115',
          houseNumber: '7',
        });
      });
    });

    describe('the card frame endpoint', () => {
      it('says what is wrong with the card without keeping it', async () => {
        const { token } = await createSessionToken(t, merchant);
        const badNumber = await postCardData(t, token, '01 / 38', { number: '4111111111111112' });
        expect(badNumber.body).to.deep.equal({ result: 'undefined', message: 'Enter a valid card number.' });
        const past = await postCardData(t, token, '01 / 20');
        expect(past.body).to.deep.equal({ result: 'undefined', message: 'Enter a valid expiry date (MM / YY) that has not passed.' });
        const res = await processing(t, PURCHASE, token);
        expect(res.body.errors[0].error_message).to.match(/^card: No card data was collected/);
      });

      it('refuses a token of no session', async () => {
        const res = await postCardData(t, 'forged.token', '01 / 38');
        expect(res.body).to.deep.equal({ result: 'undefined', message: 'The session token is not valid.' });
      });

      it('refuses card data posted from another site', async () => {
        const { token } = await createSessionToken(t, merchant);
        const res = await postCardData(t, token, '01 / 38', { headers: { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' } });
        expect(res.status).to.equal(403);
        expect(res.body.result).to.equal('undefined');
        expect((await processing(t, PURCHASE, token)).body.errors[0].error_message).to.match(/^card: No card data/);
      });

      // A client that sends no fetch metadata is judged by its Origin alone, and only the gateway's
      // public origin will do: not a foreign one, not an opaque one, not one whose Host it also forged.
      for (const [name, headers] of [
        ['a foreign Origin', { Origin: 'https://evil.example' }],
        ['a foreign Origin with a Host to match', { Origin: 'http://evil.example', Host: 'evil.example' }],
        ['an opaque Origin', { Origin: 'null' }],
        ['no Origin', {}],
      ] as Array<[string, Record<string, string>]>) {
        it(`refuses card data with ${name} and no fetch metadata`, async () => {
          const { token } = await createSessionToken(t, merchant);
          const res = await postJson(t, '/hosted-fields/card-data', { token, number: PAN, expiry: '01 / 38', cvv: CVV }, headers);
          expect(res.status, res.text).to.equal(403);
          expect((await processing(t, PURCHASE, token)).body.errors[0].error_message).to.match(/^card: No card data/);
        });
      }

      it('never writes the card number to the log', async () => {
        const token = await tokenWithCard('01 / 38');
        await processing(t, PURCHASE, token);
        expect(t.logLines.length, 'request log lines').to.be.greaterThan(0);
        expect(t.logLines.join('\n')).not.to.include(PAN);
      });
    });

    describe('the SDK and the field frames', () => {
      it('serves the SDK as cacheable JavaScript', async () => {
        const res = await t.request('/sdk/hosted-fields.js');
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/javascript/);
        expect(res.headers.get('cache-control')).to.match(/public/);
        expect(res.text).to.include('window.HostedFields');
      });

      it('serves each field frame under a strict CSP that any merchant may embed', async () => {
        const expected = { card: 'cc-number', expiry: 'cc-exp', cvv: 'cc-csc' };
        for (const [field, autocomplete] of Object.entries(expected)) {
          const res = await t.request(`/hosted-fields/frame?field=${field}&token=abc&placeholder=${encodeURIComponent('<b>x</b>')}`);
          expect(res.status).to.equal(200);
          const csp = res.headers.get('content-security-policy')!;
          expect(csp).to.include("default-src 'none'").and.include("script-src 'self'").and.include('frame-ancestors *');
          expect(csp).not.to.include('unsafe-inline');
          expect(res.headers.get('x-frame-options')).to.equal(null);
          expect(res.text).to.include(`autocomplete="${autocomplete}"`).and.include('inputmode="numeric"').and.include('aria-label=');
          expect(res.text).to.include('&lt;b&gt;x&lt;/b&gt;').and.not.include('<b>x</b>');
          expect(res.text).not.to.match(/<script>/);
        }
      });

      it('refuses an unknown field', async () => {
        const res = await t.request('/hosted-fields/frame?field=pin&token=abc');
        expect(res.status).to.equal(400);
      });
    });
  },
  { captureLogs: true },
);

describe('Hosted payment fields browser data', () => {
  it('takes accept_header from the Accept header of the request when browser_info lacks it', () => {
    expect(browserOf({ language: 'de-DE', screen_width: 1280 }, 'text/html,application/xhtml+xml')).to.deep.include({
      acceptHeaders: 'text/html,application/xhtml+xml',
      language: 'de-DE',
      screenWidth: 1280,
    });
    expect(browserOf(undefined, 'text/html')).to.deep.equal({ acceptHeaders: 'text/html' });
    expect(browserOf({ accept_header: 'application/json' }, 'text/html')!.acceptHeaders).to.equal('application/json');
    expect(browserOf({ accept_header: '' }, 'text/html')!.acceptHeaders).to.equal('text/html');
  });
});
