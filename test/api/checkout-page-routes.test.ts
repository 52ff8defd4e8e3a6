/**
 * The hosted payment page's HTTP surface with the Checkout service stubbed: status codes, headers,
 * where the payer's browser is sent, and what a refused form may print. The whole gateway is
 * exercised by the browser tests; these pin the edges that a browser does not show.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import { createApp } from '../../src/api/app';
import { registerCheckoutPageRoutes } from '../../src/api/checkout-page/routes';
import type { CheckoutPageModel, CheckoutService, PayInput, PayOutcome, PayerDestination } from '../../src/application/checkout/checkout-service';
import { DomainError } from '../../src/domain/errors';
import { SESSION_ID, modelOf } from './checkout-page-fixtures';

interface Stub {
  model: CheckoutPageModel | null | Error;
  pay: PayOutcome | null;
  cancel: PayerDestination | null;
  paid: PayInput[];
}

describe('hosted payment page routes', () => {
  let server: http.Server;
  let base: string;
  const stub: Stub = { model: null, pay: null, cancel: null, paid: [] };

  before(async () => {
    const checkout = {
      async pageModel() {
        if (stub.model instanceof Error) throw stub.model;
        return stub.model;
      },
      async pay(_id: string, input: PayInput) {
        stub.paid.push(input);
        return stub.pay;
      },
      async cancel() {
        return stub.cancel;
      },
    } as unknown as CheckoutService;
    const app = createApp({
      logger: createJsonLogger('silent'),
      routes: [(router) => registerCheckoutPageRoutes(router, { checkout, baseUrl: 'https://pay.example' })],
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    stub.model = modelOf();
    stub.pay = null;
    stub.cancel = null;
    stub.paid = [];
  });

  const get = (path: string) => fetch(`${base}${path}`, { redirect: 'manual' });
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(fields) });

  function expectPageHeaders(res: Response): void {
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'none'");
    expect(csp).to.include("script-src 'self'");
    expect(csp).to.include("base-uri 'none'");
    expect(csp).to.not.match(/unsafe-(inline|eval)/);
    expect(res.headers.get('cache-control')).to.equal('no-store');
  }

  describe('GET /checkout/:sessionId', () => {
    it('the form, as HTML under the strict policy', async () => {
      const res = await get(`/checkout/${SESSION_ID}`);

      expect(res.status).to.equal(200);
      expectPageHeaders(res);
      expect(await res.text()).to.include('Pay 10.50 USD');
    });

    it('a friendly 404 page for an id that is not a UUID, an unknown session, or one whose shop is gone', async () => {
      const notUuid = await get('/checkout/not-a-session');
      stub.model = null;
      const unknown = await get(`/checkout/${SESSION_ID}`);
      stub.model = new DomainError('merchant_not_found', 'Merchant m not found');
      const shopGone = await get(`/checkout/${SESSION_ID}`);

      for (const res of [notUuid, unknown, shopGone]) {
        expect(res.status).to.equal(404);
        expectPageHeaders(res);
        expect(await res.text()).to.include('<h1 id="title">Payment page not found</h1>');
      }
    });

    it('a payment being confirmed: a page that reloads itself', async () => {
      stub.model = modelOf({ view: 'processing' });
      const res = await get(`/checkout/${SESSION_ID}`);

      expect(res.status).to.equal(200);
      expect(await res.text()).to.include('<meta http-equiv="refresh" content="3">');
    });

    it('a session that is over: straight to where it says (303)', async () => {
      stub.model = modelOf({ view: 'elsewhere', next: { kind: 'merchant', url: 'https://shop.example/expired?order_id=ORDER-7', target: null } });
      const res = await get(`/checkout/${SESSION_ID}`);

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('https://shop.example/expired?order_id=ORDER-7');
    });

    it('a session with nowhere to go back to: a page saying how it ended', async () => {
      stub.model = modelOf({ view: 'elsewhere', next: { kind: 'closed', ending: 'cancelled' } });
      const res = await get(`/checkout/${SESSION_ID}`);

      expect(res.status).to.equal(200);
      expectPageHeaders(res);
      const html = await res.text();
      expect(html).to.include('<h1 id="title">Payment cancelled</h1>');
      expect(html).to.include('The payment was cancelled. You can close this page.');
    });

    it('a verification the payer has not finished: the page posts its fields to the issuer\'s page again', async () => {
      stub.model = modelOf({
        view: 'elsewhere',
        next: { kind: 'payer_action', action: { kind: '3ds', url: 'https://pay.example/sandbox/acs', params: { PaReq: 'p.q', MD: 'm', TermUrl: 'https://pay.example/t' } } },
      });
      const res = await get(`/checkout/${SESSION_ID}`);

      expect(res.status).to.equal(200);
      expect(res.headers.get('content-security-policy')).to.include("script-src 'self'");
      const html = await res.text();
      expect(html).to.include('<form method="post" action="https://pay.example/sandbox/acs"');
      expect(html).to.include('<input type="hidden" name="PaReq" value="p.q">');
    });

    it('a hosted payment fields session has no form here: its card data comes through the shop\'s page', async () => {
      stub.model = modelOf({}, { hostedFields: true });
      const res = await get(`/checkout/${SESSION_ID}`);
      expect(res.status).to.equal(404);
    });
  });

  describe('POST /checkout/:sessionId/pay', () => {
    const fields = {
      card_number: '4111 1111 1111 1111',
      card_expiry: '01 / 38',
      card_cvv: '737',
      card_holder: 'Jane Payer',
      browser_screen_width: '1280',
      browser_javascript_enabled: 'true',
    };

    it('hands the service the card with the expiry split, the payer\'s address and browser', async () => {
      stub.pay = { kind: 'done', payment: null, next: { kind: 'merchant', url: 'https://shop.example/success?payment_id=p', target: null } };
      const res = await post(`/checkout/${SESSION_ID}/pay`, fields);

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('https://shop.example/success?payment_id=p');
      expect(stub.paid).to.have.length(1);
      expect(stub.paid[0].card).to.deep.equal({ number: '4111 1111 1111 1111', expMonth: '01', expYear: '38', cvv: '737', holder: 'Jane Payer' });
      expect(stub.paid[0].payerIp).to.equal('127.0.0.1');
      expect(stub.paid[0].browser).to.include({ screenWidth: 1280, javascriptEnabled: true });
    });

    it('a refused form: HTTP 422, the problems shown, the card number and CVV nowhere in the page', async () => {
      stub.pay = { kind: 'invalid', problems: [{ field: 'card_expiry', problem: 'invalid' }] };
      const res = await post(`/checkout/${SESSION_ID}/pay`, { ...fields, card_number: '4111111111111111' });

      expect(res.status).to.equal(422);
      expectPageHeaders(res);
      const html = await res.text();
      expect(html).to.include('Enter a valid expiry date (MM / YY) that has not passed.');
      expect(html.replace(/\s/g, '')).to.not.include('4111111111111111');
      expect(html).to.not.match(/\b737\b/);
      expect(html).to.include('value="Jane Payer"');
    });

    it('a decline with attempts left: back to the page (Post/Redirect/Get)', async () => {
      stub.pay = { kind: 'done', payment: null, next: { kind: 'page', url: `https://pay.example/checkout/${SESSION_ID}` } };
      const res = await post(`/checkout/${SESSION_ID}/pay`, fields);

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal(`https://pay.example/checkout/${SESSION_ID}`);
    });

    it('a redirect payment: straight to the provider\'s page', async () => {
      stub.pay = { kind: 'done', payment: null, next: { kind: 'payer_action', action: { kind: 'redirect', url: 'https://pay.example/sandbox/redirect/x?sig=s', params: {} } } };
      const res = await post(`/checkout/${SESSION_ID}/pay`, fields);

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('https://pay.example/sandbox/redirect/x?sig=s');
    });

    it('a session that cannot take a payment any more pays nothing and sends the payer where it says', async () => {
      stub.model = modelOf({ view: 'elsewhere', next: { kind: 'merchant', url: 'https://shop.example/success?payment_id=p', target: null } });
      const res = await post(`/checkout/${SESSION_ID}/pay`, fields);

      expect(res.status).to.equal(303);
      expect(stub.paid).to.deep.equal([]);
    });

    it('a session without a billing country: no country chosen is refused before anything is paid', async () => {
      stub.model = modelOf({}, { billingAddress: {} });
      const res = await post(`/checkout/${SESSION_ID}/pay`, fields);

      expect(res.status).to.equal(422);
      expect(await res.text()).to.include('Select the country of your billing address.');
      expect(stub.paid).to.deep.equal([]);
    });

    it('an unknown session or a non-UUID id: the 404 page', async () => {
      const notUuid = await post('/checkout/x/pay', fields);
      stub.model = null;
      const unknown = await post(`/checkout/${SESSION_ID}/pay`, fields);
      expect([notUuid.status, unknown.status]).to.deep.equal([404, 404]);
      expect(stub.paid).to.deep.equal([]);
    });
  });

  describe('POST /checkout/:sessionId/cancel', () => {
    it('to the shop\'s cancel_url', async () => {
      stub.cancel = { kind: 'merchant', url: 'https://shop.example/cancel?order_id=ORDER-7', target: null };
      const res = await post(`/checkout/${SESSION_ID}/cancel`, {});

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('https://shop.example/cancel?order_id=ORDER-7');
    });

    it('with url_target _top: the Continue page that leaves the shop\'s frame', async () => {
      stub.cancel = { kind: 'merchant', url: 'https://shop.example/cancel?order_id=ORDER-7', target: '_top' };
      const res = await post(`/checkout/${SESSION_ID}/cancel`, {});

      expect(res.status).to.equal(200);
      expectPageHeaders(res);
      const html = await res.text();
      expect(html).to.include('<a class="button primary" href="https://shop.example/cancel?order_id=ORDER-7" target="_top" data-auto-follow');
    });
  });

  describe('the page\'s script and stylesheet', () => {
    for (const [path, type] of [
      ['/checkout/assets/checkout.js', 'text/javascript; charset=utf-8'],
      ['/checkout/assets/checkout.css', 'text/css; charset=utf-8'],
    ]) {
      it(`${path}: served by the gateway, cacheable for a year`, async () => {
        const res = await get(`${path}?v=1`);

        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal(type);
        expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
        expect((await res.text()).length).to.be.greaterThan(1000);
      });
    }
  });
});
