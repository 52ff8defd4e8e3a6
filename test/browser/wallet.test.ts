/**
 * Wallets in a real browser (Debian's Chromium):
 * - the Checkout SDK on a merchant's own page under a strict Content-Security-Policy that names
 *   only the gateway: `getAvailableBrands()` gives the sandbox's simulated wallets in the session's
 *   order, and `[]` from a production gateway, whose wallets plain Chromium cannot use (no Apple
 *   Pay, no Google Pay payment handler), although the gateway named them;
 * - the hosted page's wallet button opening the sandbox's simulated wallet sheet, the payer
 *   approving there and landing on the shop's success page; screenshots of each.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, PHONE, launchBrowser, screenshot } from '../support/browser';
import { createSession } from '../support/checkout-client';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { giveWalletKeys } from '../support/wallet-payments';
import { landedOnShop, openCheckout } from './checkout-payer';

/** The merchant page's own script: asks the SDK and writes the answer into the page. */
const PAGE_JS = `(function () {
  var out = document.getElementById('brands');
  var session = new PaySession({ sessionId: document.body.getAttribute('data-session') });
  session.getAvailableBrands().then(function (brands) {
    out.textContent = JSON.stringify(brands);
    out.setAttribute('data-done', 'yes');
  });
})();`;

/**
 * A merchant's page on another origin: loads the SDK from the gateway and its own script, under a
 * policy allowing scripts and requests to the gateway and itself only (no inline script).
 */
async function merchantPage(): Promise<{ url(gateway: string, sessionId: string): string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/page.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      return res.end(PAGE_JS);
    }
    const gateway = url.searchParams.get('gateway') ?? '';
    const session = url.searchParams.get('session') ?? '';
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'self' ${gateway}; connect-src ${gateway}; style-src 'unsafe-inline'`,
    });
    const attr = (s: string) => s.replace(/[&"<>]/g, '');
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop checkout</title>
<script src="${attr(gateway)}/sdk/pay-session.js"></script><script src="/page.js" defer></script></head>
<body data-session="${attr(session)}" style="font:16px sans-serif;margin:2em"><h1>Shop checkout</h1><p>Wallets this device can pay with: <code id="brands">…</code></p></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (gateway, sessionId) => `http://127.0.0.1:${port}/?gateway=${encodeURIComponent(gateway)}&session=${encodeURIComponent(sessionId)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Wallets in a browser', function () {
  this.timeout(90_000);
  let browser: Browser;
  let sandbox: TestGateway;
  let production: TestGateway;
  let shop: Awaited<ReturnType<typeof merchantPage>>;
  const contexts: BrowserContext[] = [];

  before(async function () {
    browser = await launchBrowser(this);
    sandbox = await startTestGateway({ kind: 'sqlite' });
    production = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
    shop = await merchantPage();
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await sandbox?.stop();
    await production?.stop();
  });

  async function openShopPage(gateway: TestGateway, sessionId: string): Promise<{ page: Page; blocked: string[]; brands: unknown }> {
    const context = await browser.newContext({ viewport: DESKTOP });
    contexts.push(context);
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    page.on('pageerror', (error) => blocked.push(`page error: ${error.message}`));
    await page.goto(shop.url(gateway.baseUrl, sessionId));
    await page.locator('#brands[data-done="yes"]').waitFor({ timeout: 15_000 });
    return { page, blocked, brands: JSON.parse((await page.locator('#brands').textContent()) ?? 'null') };
  }

  describe('getAvailableBrands() on a merchant\'s page (strict CSP)', () => {
    it('Given a sandbox session offering Google Pay then Apple Pay, Then the simulated wallets, in that order', async () => {
      const merchant = await sandbox.createMerchant({ name: 'Corner Bookshop' });
      const { sessionId } = await createSession(sandbox, merchant, { methods: ['card', 'googlepay', 'applepay'] });
      const { page, blocked, brands } = await openShopPage(sandbox, sessionId);
      expect(brands).to.deep.equal(['googlepay', 'applepay']);
      expect(blocked, 'nothing the page policy refused').to.deep.equal([]);
      await screenshot(page, 'wallet-sdk-sandbox-brands');
    });

    it('Given a sandbox session offering the card only, Then []', async () => {
      const merchant = await sandbox.createMerchant();
      const { sessionId } = await createSession(sandbox, merchant, { methods: ['card'] });
      expect((await openShopPage(sandbox, sessionId)).brands).to.deep.equal([]);
    });

    it('Given a production gateway naming both wallets for the session, Then plain Chromium gets []: it can use neither', async () => {
      const merchant = await production.createMerchant({ name: 'Corner Bookshop', methods: ['applepay', 'googlepay'] });
      const { sessionId } = await createSession(production, merchant, { methods: ['card', 'applepay', 'googlepay'] });
      // The gateway does name them: the empty answer is the device's.
      expect((await production.request(`/sdk/pay-session/brands?session=${sessionId}`)).body).to.deep.equal({ brands: ['applepay', 'googlepay'], simulated: false });
      const { page, blocked, brands } = await openShopPage(production, sessionId);
      expect(brands).to.deep.equal([]);
      // Asking the browser about Google Pay makes it fetch the method's manifest from google.com,
      // which this page's policy does not allow (docs/wallets.md): nothing else was refused.
      expect(blocked.filter((m) => !m.includes("'https://google.com/pay'"))).to.deep.equal([]);
      await screenshot(page, 'wallet-sdk-production-plain-chromium');
    });
  });

  describe('the hosted page\'s wallet button (sandbox)', () => {
    for (const [flow, withKeys] of [
      ['virtual flow', false],
      ['card flow', true],
    ] as const) {
      it(`Given Apple Pay chosen, When the payer opens the simulated sheet and approves the paying card, Then they land on the shop's success page (${flow})`, async () => {
        const merchant = await sandbox.createMerchant({ name: 'Corner Bookshop' });
        if (withKeys) await giveWalletKeys(sandbox, merchant);
        const payer = await openCheckout(browser, sandbox, merchant, { methods: ['card', 'applepay', 'googlepay'] }, { viewport: withKeys ? PHONE : DESKTOP });
        contexts.push(payer.context);
        const { page } = payer;
        await page.getByRole('link', { name: /Apple Pay/ }).click();
        const button = page.getByRole('button', { name: 'Pay with Apple Pay' });
        await button.waitFor();
        await screenshot(page, `wallet-checkout-button-${withKeys ? 'phone' : 'desktop'}`);
        await button.click();
        await page.locator('[data-wallet-sheet="applepay"]').waitFor();
        expect(await page.getByRole('heading', { name: 'Apple Pay' }).isVisible()).to.equal(true);
        await page.getByLabel(/pays/).check();
        await screenshot(page, `wallet-checkout-sheet-${withKeys ? 'phone' : 'desktop'}`);
        await page.getByRole('button', { name: /^Approve / }).click();
        const landed = await landedOnShop(payer, '/success');
        const paymentId = landed.searchParams.get('payment_id')!;
        const payment = (await sandbox.gateway.payments.current(paymentId))!;
        expect(payment.phase).to.equal('settled');
        expect(payment.method?.brand).to.equal('applepay');
        if (withKeys) expect(payment.card).to.include({ wallet: 'applepay', panType: 'DPAN' });
        else expect(payment.card).to.equal(undefined);
      });
    }

    it('Given Google Pay and the declining card, Then the payer is back on the page with the decline, free to pay another way', async () => {
      const merchant = await sandbox.createMerchant({ name: 'Corner Bookshop' });
      await giveWalletKeys(sandbox, merchant);
      const payer = await openCheckout(browser, sandbox, merchant, { methods: ['googlepay', 'card'] });
      contexts.push(payer.context);
      const { page } = payer;
      await page.getByRole('button', { name: 'Pay with Google Pay' }).click();
      await page.getByLabel(/declined by the issuer/).check();
      await page.getByRole('button', { name: /^Approve / }).click();
      await page.getByText('Your payment was declined').waitFor();
      await screenshot(page, 'wallet-checkout-declined');
      expect(payer.shopVisits).to.deep.equal([]);
    });
  });
});
