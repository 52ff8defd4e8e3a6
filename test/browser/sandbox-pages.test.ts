/**
 * The sandbox's own payer pages in headless Chromium, as a person trying the sandbox uses them: the
 * S2S answer's 3-D Secure `redirect_url` opened as a plain link, the page naming the shop, and the
 * way on to the merchant's term_url_3ds.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext } from 'playwright-core';
import { PHONE, launchBrowser, screenshot } from '../support/browser';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const MERCHANT_SITE = 'https://merchant.example';

describe('Sandbox payer pages in a browser', function () {
  this.timeout(60_000);
  let browser: Browser;
  let t: TestGateway;
  let merchant: TestMerchant;
  let context: BrowserContext | undefined;
  /** Every URL of the merchant's site the browser went to. */
  let merchantVisits: URL[];
  before(async function () {
    browser = await launchBrowser(this);
    t = await startTestGateway({ kind: 'sqlite' });
    merchant = await t.createMerchant({ name: 'Corner Bookshop' });
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function newPage(options: { colorScheme?: 'light' | 'dark' } = {}) {
    context = await browser.newContext({ viewport: PHONE, locale: 'en-GB', colorScheme: options.colorScheme ?? 'light' });
    merchantVisits = [];
    await context.route(`${MERCHANT_SITE}/**`, (route) => {
      merchantVisits.push(new URL(route.request().url()));
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Shop</title><h1>Back at the shop</h1>' });
    });
    return context.newPage();
  }

  /** Waits until the browser asked the merchant's site for `path`. */
  async function reached(path: string): Promise<URL> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const visit = merchantVisits.find((u) => u.pathname === path);
      if (visit) return visit;
      if (Date.now() > deadline) throw new Error(`the payer did not reach ${MERCHANT_SITE}${path}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('the 3-D Secure redirect_url opened as a plain link shows the ACS naming the shop; Approve settles and lands on term_url_3ds', async () => {
    const sale = await t.sale(merchant, { card_exp_month: '05' });
    const page = await newPage({ colorScheme: 'dark' });

    const response = await page.goto(sale.body.redirect_url);

    expect(response?.status()).to.equal(200);
    expect(await page.locator('[data-paying]').innerText()).to.equal('Paying Corner Bookshop 10.50 USD');
    await screenshot(page, 'sandbox-acs-link-dark-phone');
    await page.getByRole('button', { name: 'Approve' }).click();

    const visit = await reached('/3ds-return');
    expect(visit.searchParams.get('trans_id')).to.equal(sale.body.trans_id);
    expect((await t.gateway.payments.current(sale.body.trans_id)).phase).to.equal('settled');
  });

  it('the provider redirect page names the shop too', async () => {
    const sale = await t.sale(merchant, { card_exp_month: '12' });
    const page = await newPage();

    await page.goto(sale.body.redirect_url);

    expect(await page.locator('[data-paying]').innerText()).to.equal('Paying Corner Bookshop 10.50 USD');
    await screenshot(page, 'sandbox-redirect-phone');
  });
});
