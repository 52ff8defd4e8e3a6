/**
 * The payer's trips away from the hosted payment page and back: the card issuer's verification
 * (3DS), the acquirer's redirect page, a session that ran out of time, and the way back to the shop
 * when the shop asked for another browsing context (url_target). Headless Chromium, one gateway.
 */
import { expect } from 'chai';
import type { Json } from '../support/checkout-client';
import type { TestClock, TestGateway, TestMerchant } from '../support/gateway-harness';
import { SHOP, checkoutBrowserSuite, expectSignedReturn, landedOnShop, payWith, revisit, type OpenOptions } from './checkout-payer';

describe('Hosted payment page: verification, redirects, expiry and the way back', function () {
  this.timeout(60_000);
  const suite = checkoutBrowserSuite('Harbour Tea Rooms');
  let t: TestGateway;
  let merchant: TestMerchant;
  beforeEach(() => {
    t = suite.t;
    merchant = suite.merchant;
  });
  const checkout = (overrides: Json = {}, options: OpenOptions = {}) => suite.checkout(overrides, options);

  describe('3-D Secure', () => {
    it('05/2038: the page takes the payer to the verification page; approving lands on success_url', async () => {
      const payer = await checkout();

      await payWith(payer.page, { expiry: '05/38' });
      await payer.page.getByRole('heading', { name: '3-D Secure verification (sandbox)' }).waitFor();
      expect(await payer.page.getByText('10.50 USD').isVisible()).to.equal(true);
      await payer.page.getByRole('button', { name: 'Approve' }).click();

      const visit = await landedOnShop(payer, '/success');
      const paymentId = expectSignedReturn(visit, payer, merchant);
      expect((await t.gateway.payments.current(paymentId)).phase).to.equal('settled');
    });

    it('06/2038: the verification ends in a decline; the payer is back on the hosted page with the decline shown', async () => {
      const payer = await checkout();

      await payWith(payer.page, { expiry: '06/38' });
      await payer.page.getByRole('button', { name: 'Approve' }).click();

      const notice = payer.page.getByRole('alert');
      await notice.waitFor();
      expect(payer.page.url()).to.equal(payer.redirectUrl);
      expect(await notice.innerText()).to.match(/^Your payment was declined: .+\. Please try again or use another card\./);
      expect(payer.shopVisits).to.deep.equal([]);

      await payWith(payer.page, { expiry: '01/38' });
      expectSignedReturn(await landedOnShop(payer, '/success'), payer, merchant);
    });

    it('opening the page again during the verification leads back to it, not to a second payment', async () => {
      const payer = await checkout();
      await payWith(payer.page, { expiry: '05/38' });
      await payer.page.getByRole('heading', { name: '3-D Secure verification (sandbox)' }).waitFor();

      await payer.page.goto(payer.redirectUrl);

      await payer.page.getByRole('heading', { name: '3-D Secure verification (sandbox)' }).waitFor();
      expect(await t.initiatedForOrder(merchant, payer.body.order.number)).to.have.length(1);
    });
  });

  describe('redirect to the payment provider', () => {
    it('12/2038: the payer continues on the provider\'s page and lands on success_url', async () => {
      const payer = await checkout();

      await payWith(payer.page, { expiry: '12/38' });
      await payer.page.getByRole('heading', { name: 'Payment provider redirect (sandbox)' }).waitFor();
      await payer.page.getByRole('button', { name: 'Continue' }).click();

      const visit = await landedOnShop(payer, '/success');
      const paymentId = expectSignedReturn(visit, payer, merchant);
      expect((await t.gateway.payments.current(paymentId)).phase).to.equal('settled');
    });
  });

  describe('a session that ran out of time', () => {
    it('lands on expiry_url', async () => {
      const payer = await checkout({ session_expiry: 1, expiry_url: `${SHOP}/expired` });

      (t.clock as TestClock).advance(61_000);
      await revisit(payer);

      const visit = await landedOnShop(payer, '/expired');
      expect(visit.searchParams.get('order_id')).to.equal(payer.body.order.number);
    });

    it('lands on cancel_url when the shop gave no expiry_url', async () => {
      const payer = await checkout({ session_expiry: 1 });

      (t.clock as TestClock).advance(61_000);
      await revisit(payer);

      await landedOnShop(payer, '/cancel');
    });

    it('a form submitted after the time ran out pays nothing and lands on expiry_url', async () => {
      const payer = await checkout({ session_expiry: 1, expiry_url: `${SHOP}/expired` });

      (t.clock as TestClock).advance(61_000);
      await payWith(payer.page, { expiry: '01/38' });

      await landedOnShop(payer, '/expired');
      expect(await t.initiatedForOrder(merchant, payer.body.order.number)).to.have.length(0);
    });
  });

  describe('the way back to the shop (url_target)', () => {
    it('_top: a page saying where the payer goes, which sends the payer on with every return parameter', async () => {
      const payer = await checkout({ url_target: '_top', success_url: `${SHOP}/success?route=checkout/success&basket=42&lang=en` });
      // The page sends itself on at once: keep a copy of what the gateway answered on the way.
      const answered: { status: number; body: string }[] = [];
      await payer.page.route('**/pay', async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        const body = await response.text();
        answered.push({ status: response.status(), body });
        await route.fulfill({ response, body });
      });

      await payWith(payer.page, { expiry: '01/38' });

      const visit = await landedOnShop(payer, '/success');
      // The shop's own query arrives as the shop wrote it, the gateway's parameters after it.
      expect(visit.search.startsWith('?route=checkout/success&basket=42&lang=en&payment_id=')).to.equal(true);
      expect(visit.searchParams.get('basket')).to.equal('42');
      expect(visit.searchParams.get('lang')).to.equal('en');
      expectSignedReturn(visit, payer, merchant);
      expect(answered).to.have.length(1);
      expect(answered[0].status).to.equal(200);
      expect(answered[0].body).to.include('<h1 id="title">Returning to Harbour Tea Rooms…</h1>');
      expect(answered[0].body).to.include('target="_top"');
    });

    it('_blank: the shop opens in a new tab, from the page or from its Continue button', async () => {
      const payer = await checkout({ url_target: '_blank' });
      const newTab = payer.context.waitForEvent('page');

      await payWith(payer.page, { expiry: '01/38' });
      await payer.page.getByRole('heading', { name: 'Returning to Harbour Tea Rooms…' }).waitFor();
      const continueButton = payer.page.getByRole('link', { name: 'Continue' });
      expect(await continueButton.isVisible()).to.equal(true);
      // Browsers may block a tab the page opens by itself; the payer's click always works.
      const opened = await Promise.race([newTab, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1500))]);
      const tab = opened ?? (await Promise.all([payer.context.waitForEvent('page'), continueButton.click()]))[0];

      await tab.waitForURL((url) => url.origin === SHOP && url.pathname === '/success');
      expectSignedReturn(new URL(tab.url()), payer, merchant);
    });
  });
});
