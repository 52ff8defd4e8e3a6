/**
 * S2S CARD SALE over HTTP, one sandbox expiry at a time, including the payer's trip through the
 * ACS simulator and the non-3DS redirect page. Each test: given a merchant (and a payment made
 * through the API), when a request, then the response and the new events of the payment stream.
 */
import { expect } from 'chai';
import {
  TEST_PAN,
  TRANS_DATE,
  UUID_RE,
  forEachStore,
  type HttpResult,
  type TestGateway,
  type TestMerchant,
} from '../support/gateway-harness';

const TERM_URL = 'https://merchant.example/3ds-return';

/** Opens the redirect_url the way the response says: the params as query (GET) or body (POST). */
async function openAcs(h: TestGateway, body: Record<string, unknown>, method: 'GET' | 'POST'): Promise<HttpResult> {
  const params = body.redirect_params as Record<string, string>;
  if (method === 'GET') {
    const url = new URL(body.redirect_url as string);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return h.request(url.toString());
  }
  return h.postForm(body.redirect_url as string, params);
}

/** The payer presses a button on the ACS page: posts PaRes with the page's PaReq and MD to TermUrl. */
function answerAcs(h: TestGateway, body: Record<string, unknown>, paRes: 'approve' | 'decline', tamper?: Partial<Record<'PaReq' | 'MD', string>>) {
  const params = body.redirect_params as Record<string, string>;
  return h.postForm(params.TermUrl, { PaRes: paRes, PaReq: tamper?.PaReq ?? params.PaReq, MD: tamper?.MD ?? params.MD });
}

/** What a person reads on a page: its text without markup, spaces folded. */
const visibleText = (html: string): string =>
  html.replace(/<(style|script)\b[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

function expectStrictCsp(page: HttpResult): void {
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp, 'Content-Security-Policy').to.include("default-src 'none'");
  expect(csp).to.include("script-src 'self'");
  expect(csp).to.include("base-uri 'none'");
  expect(csp).not.to.match(/unsafe-eval/);
  expect(csp).not.to.match(/script-src[^;]*unsafe-inline/);
}

forEachStore('S2S CARD SALE', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  describe('sandbox outcomes by expiry', () => {
    it('01/2038 settles: SUCCESS/SETTLED with descriptor, amount echoed byte for byte, currency, trans_date, UUID trans_id', async () => {
      const res = await h().sale(merchant, { order_amount: '10.50' });

      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        action: 'SALE',
        result: 'SUCCESS',
        status: 'SETTLED',
        order_id: res.fields.order_id,
        descriptor: 'SANDBOX*GATEWAY',
        amount: '10.50',
        currency: 'USD',
      });
      expect(res.body.trans_id).to.match(UUID_RE);
      expect(res.body.trans_date).to.match(TRANS_DATE);
      expect(res.body).not.to.have.property('card_token');
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
    });

    it('01/2038 with auth=Y authorizes: SUCCESS/PENDING', async () => {
      const res = await h().sale(merchant, { auth: 'Y' });

      expect(res.status).to.equal(200);
      expect(res.body).to.include({ result: 'SUCCESS', status: 'PENDING', amount: '10.50', currency: 'USD' });
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentAuthorized']);
    });

    it('02/2038 declines with a decline_reason', async () => {
      const res = await h().sale(merchant, { card_exp_month: '02' });

      expect(res.status).to.equal(200);
      expect(res.body).to.include({ action: 'SALE', result: 'DECLINED', status: 'DECLINED', order_id: res.fields.order_id });
      expect(res.body.decline_reason).to.be.a('string').that.is.not.empty;
      expect(res.body.trans_id).to.match(UUID_RE);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentDeclined']);
    });

    it('any other future expiry settles', async () => {
      const res = await h().sale(merchant, { card_exp_month: '07', card_exp_year: '2040' });
      expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    });
  });

  describe('3-D Secure (05/2038 and 06/2038)', () => {
    it('05/2038 answers REDIRECT/3DS with the ACS url, PaReq/MD/TermUrl and method POST', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });

      expect(res.status).to.equal(200);
      expect(res.body).to.include({ result: 'REDIRECT', status: '3DS', redirect_method: 'POST', amount: '10.50', currency: 'USD' });
      // The ACS address carries its fields as a query too, so the link also works opened as it is.
      const acs = new URL(res.body.redirect_url);
      expect(`${acs.origin}${acs.pathname}`).to.equal(`${h().baseUrl}/sandbox/acs`);
      expect(Object.fromEntries(acs.searchParams)).to.deep.equal(res.body.redirect_params);
      expect(res.body.redirect_params).to.have.all.keys('PaReq', 'MD', 'TermUrl');
      expect(res.body.redirect_params.MD).to.equal(res.body.trans_id);
      expect(res.body.redirect_params.TermUrl).to.equal(`${h().baseUrl}/payments/${res.body.trans_id}/3ds-return`);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'ThreeDSChallengeRequired']);
    });

    it('the ACS page (GET with the params as query, or POST) offers Approve and Decline under a strict CSP', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });

      for (const method of ['GET', 'POST'] as const) {
        const page = await openAcs(h(), res.body, method);
        expect(page.status, method).to.equal(200);
        expect(page.headers.get('content-type')).to.match(/^text\/html/);
        expectStrictCsp(page);
        expect(page.text).to.include('value="approve"').and.to.include('value="decline"');
        expect(page.text).to.include('Approve').and.to.include('Decline');
        expect(page.text).to.include(`action="${res.body.redirect_params.TermUrl}"`);
        expect(page.text).to.include('411111******1111');
        expect(page.text).not.to.include(TEST_PAN);
      }
    });

    it('the redirect_url opened as a plain link (GET, no body) shows the ACS page, and approving there settles and sends the payer to term_url_3ds', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });
      const transId = res.body.trans_id;

      const page = await h().request(res.body.redirect_url);

      expect(page.status).to.equal(200);
      expect(page.text).to.match(/<button type="submit" name="PaRes" value="approve">Approve<\/button>/);
      // The payer presses Approve: the page's own form, with its hidden fields, goes to its action.
      const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.text)!;
      const hidden = Object.fromEntries([...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
      const back = await h().postForm(form[1].replace(/&amp;/g, '&'), { ...hidden, PaRes: 'approve' });

      expect(back.status).to.equal(303);
      const location = new URL(back.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).to.equal(TERM_URL);
      expect(location.searchParams.get('trans_id')).to.equal(transId);
      expect(await h().paymentEventTypes(transId)).to.deep.equal(['PaymentInitiated', 'ThreeDSChallengeRequired', 'PaymentSettled']);
    });

    it('the ACS page names the shop being paid and the amount, as an issuer\'s page does', async () => {
      const shop = await h().createMerchant({ name: 'Corner Bookshop' });
      const res = await h().sale(shop, { card_exp_month: '05' });

      const page = await h().request(res.body.redirect_url);

      expect(visibleText(page.text)).to.include('Paying Corner Bookshop 10.50 USD');
    });

    it('a merchant POSTing redirect_params to the redirect_url still gets the ACS page, the posted fields deciding', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });
      const other = await h().sale(merchant, { card_exp_month: '05' });

      const page = await h().postForm(res.body.redirect_url, res.body.redirect_params);
      // The fields posted win over the link's own: another payment's PaReq posted to this link is that payment's page.
      const mixed = await h().postForm(res.body.redirect_url, { PaReq: other.body.redirect_params.PaReq, TermUrl: other.body.redirect_params.TermUrl });

      expect(page.status).to.equal(200);
      expect(page.text).to.include(`action="${res.body.redirect_params.TermUrl}"`);
      expect(mixed.status).to.equal(200);
      expect(mixed.text).to.include(`action="${other.body.redirect_params.TermUrl}"`);
    });

    it('approving on the ACS settles the payment and sends the payer to term_url_3ds with trans_id and order_id', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });
      const transId = res.body.trans_id;

      const back = await answerAcs(h(), res.body, 'approve');

      expect(back.status).to.equal(303);
      const location = new URL(back.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).to.equal(TERM_URL);
      expect(location.searchParams.get('trans_id')).to.equal(transId);
      expect(location.searchParams.get('order_id')).to.equal(res.fields.order_id);
      expect(await h().paymentEventTypes(transId)).to.deep.equal([
        'PaymentInitiated',
        'ThreeDSChallengeRequired',
        'PaymentSettled',
      ]);
      const status = await h().status(merchant, transId);
      expect(status.body).to.include({ result: 'SUCCESS', status: 'SETTLED', trans_id: transId, descriptor: 'SANDBOX*GATEWAY' });
    });

    it('a second answer from the payer changes nothing (the first one decided)', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });
      await answerAcs(h(), res.body, 'approve');

      const again = await answerAcs(h(), res.body, 'decline');

      expect(again.status).to.equal(303);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.have.length(3);
      expect((await h().status(merchant, res.body.trans_id)).body.status).to.equal('SETTLED');
    });

    it('declining on the ACS declines the payment', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });

      const back = await answerAcs(h(), res.body, 'decline');

      expect(back.status).to.equal(303);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal([
        'PaymentInitiated',
        'ThreeDSChallengeRequired',
        'PaymentDeclined',
      ]);
      const status = await h().status(merchant, res.body.trans_id);
      expect(status.body).to.include({ status: 'DECLINED' });
      expect(status.body.decline_reason).to.be.a('string').that.is.not.empty;
    });

    it('06/2038 is declined even when the payer approves', async () => {
      const res = await h().sale(merchant, { card_exp_month: '06' });
      expect(res.body).to.include({ result: 'REDIRECT', status: '3DS' });

      const back = await answerAcs(h(), res.body, 'approve');

      expect(back.status).to.equal(303);
      expect((await h().paymentEventTypes(res.body.trans_id)).at(-1)).to.equal('PaymentDeclined');
      expect((await h().status(merchant, res.body.trans_id)).body.status).to.equal('DECLINED');
    });

    it('a tampered PaReq gets a 400 page and changes nothing', async () => {
      const res = await h().sale(merchant, { card_exp_month: '05' });
      const transId = res.body.trans_id;
      const paReq: string = res.body.redirect_params.PaReq;
      const [payload, mac] = paReq.split('.');
      const forged = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      forged.amount = 1;
      const tampered = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;

      const page = await openAcs(h(), { ...res.body, redirect_params: { ...res.body.redirect_params, PaReq: tampered } }, 'GET');
      const answer = await answerAcs(h(), res.body, 'approve', { PaReq: tampered });
      // A character of the MAC changed (not one of its last two, whose spare bits base64 ignores).
      const macChar = mac[4] === 'A' ? 'B' : 'A';
      const flipped = await answerAcs(h(), res.body, 'approve', { PaReq: `${payload}.${mac.slice(0, 4)}${macChar}${mac.slice(5)}` });

      for (const r of [page, answer, flipped]) {
        expect(r.status).to.equal(400);
        expect(r.headers.get('content-type')).to.match(/^text\/html/);
        expectStrictCsp(r);
      }
      expect(await h().paymentEventTypes(transId)).to.deep.equal(['PaymentInitiated', 'ThreeDSChallengeRequired']);
      expect((await h().status(merchant, transId)).body.status).to.equal('3DS');
    });

    it('a PaReq of one payment cannot answer for another', async () => {
      const first = await h().sale(merchant, { card_exp_month: '05' });
      const second = await h().sale(merchant, { card_exp_month: '05' });

      const answer = await h().postForm(second.body.redirect_params.TermUrl, {
        PaRes: 'approve',
        PaReq: first.body.redirect_params.PaReq,
        MD: second.body.trans_id,
      });

      expect(answer.status).to.equal(400);
      expect(await h().paymentEventTypes(second.body.trans_id)).to.have.length(2);
      expect(await h().paymentEventTypes(first.body.trans_id)).to.have.length(2);
    });
  });

  describe('non-3DS redirect (12/2038 and 12/2039)', () => {
    async function openRedirect(body: Record<string, unknown>): Promise<HttpResult> {
      return h().request(body.redirect_url as string);
    }

    /** Submits the page's form as a browser would: its hidden fields and the button pressed. */
    function continueFrom(page: HttpResult, decision: 'continue' | 'cancel') {
      const unescape = (text: string) => text.replace(/&amp;/g, '&');
      const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1];
      const hidden = Object.fromEntries([...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescape(m[2])]));
      expect(action, 'form action').to.be.a('string');
      expect(hidden.sig, 'sig').to.be.a('string');
      return h().postForm(unescape(action!), { ...hidden, decision });
    }

    it('12/2038 answers REDIRECT/REDIRECT; the page continues to SETTLED', async () => {
      const res = await h().sale(merchant, { card_exp_month: '12' });
      expect(res.body).to.include({ result: 'REDIRECT', status: 'REDIRECT', redirect_method: 'POST' });
      expect(res.body.redirect_url).to.match(new RegExp(`^${h().baseUrl}/sandbox/redirect/${res.body.trans_id}\\?sig=`));
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PayerRedirectRequired']);

      const page = await openRedirect(res.body);
      expect(page.status).to.equal(200);
      expectStrictCsp(page);
      const back = await continueFrom(page, 'continue');

      expect(back.status).to.equal(303);
      expect(new URL(back.headers.get('location')!).searchParams.get('trans_id')).to.equal(res.body.trans_id);
      expect((await h().paymentEventTypes(res.body.trans_id)).at(-1)).to.equal('PaymentSettled');
      expect((await h().status(merchant, res.body.trans_id)).body.status).to.equal('SETTLED');
    });

    it('the redirect page names the shop being paid and the amount', async () => {
      const shop = await h().createMerchant({ name: 'Corner Bookshop' });
      const res = await h().sale(shop, { card_exp_month: '12' });

      const page = await openRedirect(res.body);

      expect(visibleText(page.text)).to.include('Paying Corner Bookshop 10.50 USD');
    });

    it('the redirect page also opens with the declared redirect_method (POST, no params)', async () => {
      const res = await h().sale(merchant, { card_exp_month: '12' });

      const page = await h().request(res.body.redirect_url, { method: res.body.redirect_method });

      expect(page.status).to.equal(200);
      expect(page.text).to.include('value="continue"');
    });

    it('12/2039 is declined after the redirect', async () => {
      const res = await h().sale(merchant, { card_exp_month: '12', card_exp_year: '2039' });
      expect(res.body).to.include({ result: 'REDIRECT', status: 'REDIRECT' });

      const back = await continueFrom(await openRedirect(res.body), 'continue');

      expect(back.status).to.equal(303);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal([
        'PaymentInitiated',
        'PayerRedirectRequired',
        'PaymentDeclined',
      ]);
      expect((await h().status(merchant, res.body.trans_id)).body.status).to.equal('DECLINED');
    });

    it('a forged redirect signature gets a 400 page', async () => {
      const res = await h().sale(merchant, { card_exp_month: '12' });
      const url = new URL(res.body.redirect_url);
      url.searchParams.set('sig', 'AAAA');

      const page = await h().request(url.toString());

      expect(page.status).to.equal(400);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.have.length(2);
    });
  });

  describe('card_token', () => {
    it('req_token=Y returns a card_token; a SALE with that token (token formula) succeeds', async () => {
      const first = await h().sale(merchant, { req_token: 'Y' });
      expect(first.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      const token: string = first.body.card_token;
      expect(token).to.be.a('string').that.is.not.empty;
      expect(token).not.to.include('4111111111');

      const second = await h().sale(merchant, {
        card_number: undefined,
        card_exp_month: undefined,
        card_exp_year: undefined,
        card_cvv2: undefined,
        card_token: token,
      });

      expect(second.status).to.equal(200);
      expect(second.body).to.include({ result: 'SUCCESS', status: 'SETTLED', card_token: token });
      expect(second.body.trans_id).not.to.equal(first.body.trans_id);
      const events = await h().paymentEvents(second.body.trans_id);
      expect(events.map((e) => e.type)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
      expect((events[0].data.card as { mask: string; token: string })).to.include({ mask: '411111******1111', token });
    });

    it('a token SALE signed with the card formula is refused', async () => {
      const first = await h().sale(merchant, { req_token: 'Y' });
      const fields = h().saleFields(merchant, { card_token: first.body.card_token });
      const res = await h().post({ ...fields, card_number: undefined, card_exp_month: undefined, card_exp_year: undefined, card_cvv2: undefined });
      expect(res.body).to.include({ error_code: 100000, error_message: 'Hash is not valid' });
    });

    it('an unknown token is 205005 and burns no order id', async () => {
      const orderId = `ord-unknown-token-${Date.now()}`;
      const res = await h().sale(merchant, {
        order_id: orderId,
        card_number: undefined,
        card_exp_month: undefined,
        card_exp_year: undefined,
        card_cvv2: undefined,
        card_token: 'no-such-token',
      });

      expect(res.status).to.equal(400);
      expect(res.body).to.deep.include({ result: 'ERROR', error_code: 205005, error_message: 'Card token is invalid or not found.' });
      const retry = await h().sale(merchant, { order_id: orderId });
      expect(retry.body).to.include({ result: 'SUCCESS' });
    });
  });

  describe('amounts', () => {
    it("'10.500' USD is accepted and echoed as sent", async () => {
      const res = await h().sale(merchant, { order_amount: '10.500' });
      expect(res.body).to.include({ result: 'SUCCESS', amount: '10.500' });
      const initiated = (await h().paymentEvents(res.body.trans_id))[0];
      expect(initiated.data).to.include({ amount: 1050, amountText: '10.500' });
    });

    it("'100' JPY is accepted", async () => {
      const res = await h().sale(merchant, { order_amount: '100', order_currency: 'JPY' });
      expect(res.body).to.include({ result: 'SUCCESS', amount: '100', currency: 'JPY' });
      expect((await h().paymentEvents(res.body.trans_id))[0].data).to.include({ amount: 100 });
    });

    it("'0.00' with auth=Y is accepted as a card check (PENDING)", async () => {
      const res = await h().sale(merchant, { order_amount: '0.00', auth: 'Y' });
      expect(res.body).to.include({ result: 'SUCCESS', status: 'PENDING', amount: '0.00' });
    });
  });

  it('ids are time-ordered: a later SALE\'s trans_id sorts after an earlier one\'s, and so do the ids of its events', async () => {
    // What keeps the store's and the read models' indexes taking new rows at their right edge.
    const first = await h().sale(merchant);
    const second = await h().sale(merchant);
    const version7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

    expect(first.body.trans_id).to.match(version7);
    expect(second.body.trans_id).to.match(version7);
    expect(second.body.trans_id > first.body.trans_id, `${second.body.trans_id} after ${first.body.trans_id}`).to.equal(true);
    const eventIds = [...(await h().paymentEvents(first.body.trans_id)), ...(await h().paymentEvents(second.body.trans_id))].map((e) => e.id);
    for (const id of eventIds) expect(id).to.match(version7);
    expect(eventIds).to.deep.equal([...eventIds].sort());
  });

  it('a SALE sent as multipart/form-data behaves like url-encoded', async () => {
    const res = await h().sale(merchant, { card_exp_month: '05' }, { multipart: true });

    expect(res.status).to.equal(200);
    expect(res.body).to.include({ result: 'REDIRECT', status: '3DS' });
    expect(res.body.redirect_params).to.have.all.keys('PaReq', 'MD', 'TermUrl');
  });

  it('a merchant registered while the gateway runs can pay at once', async () => {
    await h().sale(merchant);
    const newcomer = await h().createMerchant({ name: 'Newcomer' });

    const res = await h().sale(newcomer);

    expect(res.status).to.equal(200);
    expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    expect((await h().paymentEvents(res.body.trans_id))[0].data.merchantId).to.equal(newcomer.merchant_id);
  });
});
