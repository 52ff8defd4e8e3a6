/**
 * A payer in a real browser on the hosted payment page: a Checkout session created over HTTP the
 * way a shop creates it, then the page driven through labels and buttons as a person would. The
 * shop's pages (https://shop.example/...) are answered by the browser itself, and every visit
 * there is recorded, so a test can check where the payer landed and with what.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { checkoutCallbackHash } from '../../src/domain/signatures';
import { DESKTOP, launchBrowser } from '../support/browser';
import { createSession, type Json } from '../support/checkout-client';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';

export const SHOP = 'https://shop.example';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Payer {
  page: Page;
  context: BrowserContext;
  /** Every URL of the shop the browser went to, in order. */
  shopVisits: URL[];
  /** Every form the browser sent to the hosted page's pay endpoint. */
  payRequests: string[];
  sessionId: string;
  redirectUrl: string;
  /** The session request as the shop sent it. */
  body: Json;
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  javaScriptEnabled?: boolean;
  /** The colour scheme the payer's device asks for (`prefers-color-scheme`). */
  colorScheme?: 'light' | 'dark';
}

export interface CheckoutBrowserSuite {
  readonly t: TestGateway;
  /** A merchant of its own for each test. */
  readonly merchant: TestMerchant;
  /** Opens a new session's page; its browser context is closed after the test. */
  checkout(overrides?: Json, options?: OpenOptions): Promise<Payer>;
}

/**
 * Declares the hooks of a browser suite (call it inside `describe`): one browser and one SQLite
 * gateway for the suite, a merchant named `merchantName` per test.
 */
export function checkoutBrowserSuite(merchantName: string): CheckoutBrowserSuite {
  let browser: Browser | undefined;
  let gateway: TestGateway | undefined;
  let current: TestMerchant | undefined;
  const open: Payer[] = [];
  before(async function () {
    browser = await launchBrowser(this);
    gateway = await startTestGateway({ kind: 'sqlite' });
  });
  after(async () => {
    await browser?.close();
    await gateway?.stop();
  });
  beforeEach(async () => {
    current = await gateway!.createMerchant({ name: merchantName });
  });
  afterEach(async () => {
    for (const payer of open.splice(0)) await payer.context.close();
  });
  return {
    get t() {
      return gateway!;
    },
    get merchant() {
      return current!;
    },
    async checkout(overrides: Json = {}, options: OpenOptions = {}) {
      const payer = await openCheckout(browser!, gateway!, current!, overrides, options);
      open.push(payer);
      return payer;
    },
  };
}

/** Creates the session and opens its redirect_url in a fresh browser context. */
export async function openCheckout(
  browser: Browser,
  t: TestGateway,
  merchant: TestMerchant,
  overrides: Json = {},
  options: OpenOptions = {},
): Promise<Payer> {
  const { body, redirectUrl, sessionId } = await createSession(t, merchant, overrides);
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    locale: 'en-GB',
    colorScheme: options.colorScheme ?? 'light',
  });
  const shopVisits: URL[] = [];
  await context.route(`${SHOP}/**`, (route) => {
    shopVisits.push(new URL(route.request().url()));
    return route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><html lang="en"><title>Shop</title><h1>Back at the shop</h1></html>',
    });
  });
  const page = await context.newPage();
  const payRequests: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`/checkout/${sessionId}/pay`)) payRequests.push(request.url());
  });
  await page.goto(redirectUrl);
  return { page, context, shopVisits, payRequests, sessionId, redirectUrl, body };
}

/** The payer opens the session's link again (a bookmark, a reload). */
export async function revisit(payer: Payer): Promise<void> {
  await payer.page.goto(payer.redirectUrl).catch((error: Error) => {
    // See landedOnShop: a redirect to the shop fails once before it lands.
    if (!/ERR_NAME_NOT_RESOLVED/.test(error.message)) throw error;
  });
}

export interface CardEntry {
  number?: string;
  /** As typed: `01/38`, `0138`, `01 / 38`. */
  expiry: string;
  cvv?: string;
  holder?: string;
}

/** Fills the fields the page shows; a field the page does not have must not be given. */
export async function fillCard(page: Page, card: CardEntry): Promise<void> {
  if (card.number !== undefined) await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry date').fill(card.expiry);
  if (card.cvv !== undefined) await page.getByLabel('Security code').fill(card.cvv);
  if (card.holder !== undefined) await page.getByLabel('Name on card').fill(card.holder);
}

export const payButton = (page: Page) => page.getByRole('button', { name: /^(Pay|Receive) / });

export async function payWith(page: Page, card: CardEntry): Promise<void> {
  await fillCard(page, { number: '4111 1111 1111 1111', cvv: '123', ...card });
  await payButton(page).click();
}

/**
 * Waits until the browser is on the shop's `path` and returns that visit. Polls the page's URL
 * rather than awaiting the navigation: this browser does not pause a request that a redirect sends
 * to the shop, so the first try fails name resolution and is reported as a failed navigation; the
 * browser's retry is answered and lands. Only the shop's answer is simulated, never the gateway's.
 */
export async function landedOnShop(payer: Payer, path: string, timeoutMs = 15_000): Promise<URL> {
  const deadline = Date.now() + timeoutMs;
  const there = () => {
    const url = new URL(payer.page.url());
    return url.origin === SHOP && url.pathname === path;
  };
  while (!there()) {
    if (Date.now() > deadline) throw new Error(`the payer did not reach ${SHOP}${path}; the page is at ${payer.page.url()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await payer.page.waitForLoadState();
  const visit = [...payer.shopVisits].reverse().find((u) => u.pathname === path);
  expect(visit, `a visit to ${SHOP}${path}`).to.not.equal(undefined);
  return visit!;
}

/**
 * The return URL carries payment_id, trans_id, order_id and a hash the shop can verify with its
 * password (spec Events item 8, docs/reference/hashes.md#checkout-callback-and-return-url).
 */
export function expectSignedReturn(visit: URL, payer: Payer, merchant: TestMerchant): string {
  const paymentId = visit.searchParams.get('payment_id') ?? '';
  expect(paymentId).to.match(UUID);
  expect(visit.searchParams.get('trans_id')).to.equal(paymentId);
  expect(visit.searchParams.get('order_id')).to.equal(payer.body.order.number);
  expect(visit.searchParams.get('hash')).to.equal(
    checkoutCallbackHash({
      id: paymentId,
      orderNumber: payer.body.order.number,
      orderAmount: payer.body.order.amount,
      orderCurrency: payer.body.order.currency,
      orderDescription: payer.body.order.description,
      password: merchant.password,
    }),
  );
  return paymentId;
}

/** The text of the field's inline error (empty when none). */
export async function fieldError(page: Page, name: string): Promise<string> {
  return ((await page.locator(`#${name}-error`).textContent()) ?? '').trim();
}

/** The id of the element that has the keyboard focus. */
export async function focusedId(page: Page): Promise<string | null> {
  return page.evaluate<string | null>('document.activeElement ? document.activeElement.id : null');
}

/** How wide the page's content is: wider than the viewport means the payer must scroll sideways. */
export async function pageWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

/** Waits (up to 5 s) until the element with `id` has the keyboard focus. */
export async function waitForFocus(page: Page, id: string): Promise<void> {
  // Polled from here: waitForFunction re-evaluates a string predicate inside the page once the first
  // check fails, which the payment pages' CSP (no unsafe-eval) refuses on a slow machine.
  const deadline = Date.now() + 5_000;
  const focused = `document.activeElement !== null && document.activeElement.id === ${JSON.stringify(id)}`;
  while (!(await page.evaluate<boolean>(focused))) {
    if (Date.now() > deadline) throw new Error(`#${id} did not get the keyboard focus within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
