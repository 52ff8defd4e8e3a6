/**
 * Hosted payment fields in a real browser: the sample merchant's shop page (docs/sample-merchant)
 * embeds the gateway's card fields, the payer types into the iframes and pays. The shop's page and
 * server never see the card number; the payer sees the outcome, or goes through 3-D Secure and
 * lands back on the shop's return page.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startSampleMerchant, type SampleMerchant } from '../../docs/sample-merchant/server';
import { DESKTOP, PHONE, launchBrowser, screenshot } from '../support/browser';
import { startTestGateway, UUID_RE, type TestGateway, type TestMerchant } from '../support/gateway-harness';

// Not the sandbox card the shop page itself mentions, so finding it there would be a leak.
const PAN = '5555555555554444';
/** The page's window as seen inside `evaluate` callbacks (the test compiles without the DOM library). */
type StyleWindow = { getComputedStyle(element: unknown): { getPropertyValue(name: string): string } };
const SPACED_PAN = '5555 5555 5555 4444';

describe('Hosted payment fields on a merchant page (browser)', function () {
  this.timeout(90_000);
  let browser: Browser;
  let t: TestGateway;
  let shop: SampleMerchant;
  let merchant: TestMerchant;
  const contexts: BrowserContext[] = [];

  before(async function () {
    browser = await launchBrowser(this);
    t = await startTestGateway({ kind: 'sqlite', captureLogs: true });
    merchant = await t.createMerchant();
    shop = await startSampleMerchant({ gatewayUrl: t.baseUrl, merchantKey: merchant.merchant_key, password: merchant.password, port: 0 });
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await t?.stop();
  });

  const field = (page: Page, container: string) => page.frameLocator(`#${container} iframe`).locator('#field');

  /** The shop page, recording every message the gateway's frames post to it. */
  async function openShop(viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = globalThis as unknown as { __messages: string[]; addEventListener: (type: string, fn: (e: { data: unknown }) => void) => void };
      w.__messages = [];
      w.addEventListener('message', (e) => w.__messages.push(JSON.stringify(e.data)));
    });
    await page.goto(shop.url);
    for (const container of ['card-number', 'card-expiry', 'card-cvv']) await field(page, container).waitFor();
    return page;
  }

  async function fillCard(page: Page, expiry: string): Promise<void> {
    await page.fill('#cardholder', 'John Doe');
    await field(page, 'card-number').pressSequentially(PAN);
    await field(page, 'card-expiry').pressSequentially(expiry);
    await field(page, 'card-cvv').pressSequentially('123');
  }

  /** What the merchant's side could have seen: its page's DOM, its messages, its server's traffic. */
  async function merchantSideOf(page: Page): Promise<string> {
    const dom = await page.content();
    const messages = (await page.evaluate(() => (globalThis as unknown as { __messages: string[] }).__messages)).join('\n');
    const server = shop.requestLog.map((r) => `${r.method} ${r.url}\n${r.body}`).join('\n');
    return `${dom}\n${messages}\n${server}`;
  }

  it('pays with a valid card: the page learns validity and the outcome, never the card number', async () => {
    const page = await openShop();
    await page.fill('#cardholder', 'John Doe');
    await field(page, 'card-number').pressSequentially('55555555');
    expect(await page.getAttribute('#card-state', 'data-valid')).to.equal('false');
    await field(page, 'card-number').pressSequentially('55554444');
    await page.waitForSelector('#card-state[data-valid="true"]');
    expect(await page.textContent('#card-state')).to.include('MASTERCARD');
    expect(await field(page, 'card-number').inputValue()).to.equal(SPACED_PAN);

    await field(page, 'card-expiry').pressSequentially('0138');
    expect(await field(page, 'card-expiry').inputValue()).to.equal('01 / 38');
    await field(page, 'card-cvv').pressSequentially('123');
    // The merchant's style reached the frames.
    expect(await field(page, 'card-number').evaluate((el) => (globalThis as unknown as StyleWindow).getComputedStyle(el).getPropertyValue('color'))).to.equal('rgb(31, 41, 51)');

    await page.click('#pay');
    await page.waitForSelector('#result.success');
    expect(await page.textContent('#result')).to.include('Payment successful');

    const processing = shop.requestLog.filter((r) => r.url.endsWith('/api/v1/processing/purchase/card'));
    expect(processing).to.have.length.greaterThan(0);
    expect(JSON.parse(processing[processing.length - 1].body)).to.include({ name: 'John Doe', with_hosted_fields: true });
    // The shop passed the payer's own Accept header on (the page load's, not its script's fetch).
    const [initiated] = await t.initiatedForOrder(merchant, (await page.getAttribute('#payment-form', 'data-order'))!);
    expect((initiated.data.browser as { acceptHeaders?: string }).acceptHeaders).to.match(/^text\/html/);
    const seen = await merchantSideOf(page);
    expect(seen).not.to.include(PAN);
    expect(seen).not.to.include(SPACED_PAN);
    expect(t.logLines.join('\n')).not.to.include(PAN);
  });

  it('shows the decline message for 02/2038', async () => {
    const page = await openShop();
    await fillCard(page, '0238');
    await page.click('#pay');
    await page.waitForSelector('#result.failure');
    expect(await page.textContent('#result')).to.match(/^Payment declined: \S/);
    expect(await merchantSideOf(page)).not.to.include(PAN);
  });

  it('says what to fix when the card data is not complete, without paying', async () => {
    const page = await openShop();
    const paysBefore = shop.requestLog.filter((r) => r.url === '/pay').length;
    await page.fill('#cardholder', 'John Doe');
    await field(page, 'card-number').pressSequentially(PAN);
    await field(page, 'card-expiry').pressSequentially('0138');
    await page.click('#pay');
    await page.waitForSelector('#result.failure');
    expect(await page.textContent('#result')).to.equal('Enter the 3 or 4 digit security code.');
    expect(shop.requestLog.filter((r) => r.url === '/pay').length).to.equal(paysBefore);
  });

  it('goes through 3-D Secure for 05/2038 and lands on the shop return page with signed parameters', async () => {
    const page = await openShop();
    await fillCard(page, '0538');
    await page.click('#pay');
    await page.waitForURL((url) => url.pathname === '/sandbox/acs');
    await page.click('button[value="approve"]');
    await page.waitForURL((url) => url.href.startsWith(`${shop.url}/return`));
    for (const name of ['payment_id', 'trans_id', 'order_id', 'hash']) {
      expect(await page.textContent(`#return-${name}`), name).to.match(/\S/);
    }
    expect(await page.textContent('#return-payment_id')).to.match(UUID_RE);
    expect(await page.getAttribute('#return-signature', 'data-signature')).to.equal('valid');
    const settled = await t.paymentEventTypes((await page.textContent('#return-payment_id'))!);
    expect(settled).to.include('PaymentSettled');
  });

  it('applies only the allowed style properties with plain values', async () => {
    const page = await openShop();
    await page.evaluate(() => {
      const w = globalThis as unknown as {
        HostedFields: { init(config: unknown): void };
        document: { getElementById(id: string): { getAttribute(n: string): string } };
      };
      w.HostedFields.init({
        sessionToken: w.document.getElementById('payment-form').getAttribute('data-token'),
        fields: { card: { id: 'card-number', style: { fontSize: '20px' } }, expiry: { id: 'card-expiry' }, cvv: { id: 'card-cvv' } },
        style: {
          color: 'rgb(200, 0, 0)',
          'background-color': 'url(https://attacker.example/x)',
          'font-family': 'serif; background: red',
          'background-image': 'linear-gradient(red, blue)',
          position: 'fixed',
        },
      });
    });
    const card = field(page, 'card-number');
    await card.waitFor();
    await expectStyle(card, 'color', 'rgb(200, 0, 0)');
    await expectStyle(card, 'font-size', '20px');
    await expectStyle(card, 'background-color', 'rgb(255, 255, 255)');
    await expectStyle(card, 'background-image', 'none');
    await expectStyle(card, 'position', 'static');
    expect(await card.evaluate((el) => (globalThis as unknown as StyleWindow).getComputedStyle(el).getPropertyValue('font-family'))).not.to.include('serif; background');
  });

  it('looks right with filled fields on a desktop and a phone', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'hosted-fields-desktop'],
      [PHONE, 'hosted-fields-phone'],
    ] as const) {
      const page = await openShop(viewport);
      await fillCard(page, '0138');
      await page.click('#cardholder');
      await page.waitForSelector('#card-state[data-valid="true"]');
      const width = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
      expect(width, `${name}: no horizontal scrolling`).to.be.at.most(viewport.width);
      const file = await screenshot(page, name);
      expect(file).to.match(/\.png$/);
    }
  });
});

async function expectStyle(locator: ReturnType<Page['locator']>, property: string, expected: string): Promise<void> {
  const deadline = Date.now() + 5000;
  let actual = '';
  while (Date.now() < deadline) {
    actual = await locator.evaluate((el, name) => (globalThis as unknown as StyleWindow).getComputedStyle(el).getPropertyValue(name), property);
    if (actual === expected) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(actual, property).to.equal(expected);
}
