/**
 * The operators' dashboard in headless Chromium, as an operator uses it: sign in with the admin
 * token, find a payment, read its timeline, redeliver its failed callback, create and change a
 * merchant, read the charts and balances, check health and run audit verify. Every page is also
 * opened on a phone-sized screen, and no page may trip its CSP. Screenshots land in
 * test-artifacts/screenshots/dashboard-*.png.
 */
import { expect } from 'chai';
import { allProjectionNames } from '../../projections';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, PHONE, launchBrowser, screenshot } from '../support/browser';
import { apmSale } from '../support/apm-client';
import { CallbackReceiver } from '../support/callback-receiver';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { payout, topUp } from '../support/payout-client';
import { startChain } from '../support/recurring-chains';

describe('Dashboard in a browser', function () {
  this.timeout(90_000);
  let browser: Browser;
  let t: TestGateway;
  let receiver: CallbackReceiver;
  let merchant: TestMerchant;
  let settledId: string;
  let declinedOrder: string;
  let apmId: string;
  let payoutId: string;
  const cspViolations: string[] = [];

  const newPage = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(`${page.url()}: ${message.text()}`);
    });
    return page;
  };

  const signIn = async (context: BrowserContext, path = '/dashboard'): Promise<Page> => {
    const page = await newPage(context);
    await page.goto(`${t.baseUrl}${path}`);
    await page.getByLabel('Admin token').fill(t.gateway.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
    return page;
  };

  before(async function () {
    browser = await launchBrowser(this);
    receiver = await new CallbackReceiver().start();
    t = await startTestGateway({ kind: 'sqlite' });
    await t.gateway.notifier.start();
    merchant = await t.createMerchant({ name: 'Corner Bookshop', notificationUrl: receiver.url });
    // The first callback fails (the shop answers 500): there is something to redeliver.
    receiver.script.push(500);
    const settled = await t.sale(merchant, { order_id: 'ORDER-1001', order_amount: '25.00', order_currency: 'EUR' });
    settledId = settled.body.trans_id;
    declinedOrder = 'ORDER-1002';
    await t.sale(merchant, { order_id: declinedOrder, card_exp_month: '02', order_currency: 'EUR' });
    const auth = await t.sale(merchant, { order_id: 'ORDER-1003', auth: 'Y', order_amount: '40.00', order_currency: 'USD' });
    await t.capture(merchant, auth.body.trans_id, '40.00');
    await t.creditVoid(merchant, auth.body.trans_id, '15.00');
    apmId = (await apmSale(t, merchant, { order_id: 'ORDER-1004', payer_email: 'success@gmail.com' })).body.trans_id;
    await topUp(t, merchant, 'GHS', 50_000);
    payoutId = (await payout(t, merchant, { order_id: 'PAYOUT-2001', order_amount: '120.00' })).body.trans_id;
    await startChain(t.gateway, merchant.merchant_id);
    await t.gateway.notifier.catchUp();
    await t.gateway.readModels.catchUpToHead(5000, allProjectionNames());
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.stop();
  });
  afterEach(() => {
    expect(cspViolations, 'no page trips its CSP').to.deep.equal([]);
  });

  it('Given no session, then the dashboard sends the operator to sign in, refuses a wrong token and lets the admin token in', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await newPage(context);
    await page.goto(`${t.baseUrl}/dashboard/merchants`);
    expect(new URL(page.url()).pathname).to.equal('/dashboard/sign-in');
    await screenshot(page, 'dashboard-sign-in');
    await page.getByLabel('Admin token').fill('not-the-admin-token-000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').innerText()).to.equal('That is not the admin token.');
    await page.getByLabel('Admin token').fill(t.gateway.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.baseUrl}/dashboard/merchants`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Merchants');
    const cookie = (await context.cookies()).find((c) => c.name === 'gw_dashboard')!;
    expect(cookie).to.include({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.baseUrl}/dashboard/sign-in`);
    await page.goto(`${t.baseUrl}/dashboard/payments`);
    expect(new URL(page.url()).pathname).to.equal('/dashboard/sign-in');
    await context.close();
  });

  it('Given payments, then a search by order id and by status finds them, and a payment opens with its timeline, callbacks and postings', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signIn(context, '/dashboard/payments');
    expect(await page.locator('table tbody tr').count()).to.be.at.least(4);

    await page.getByLabel('Order id').fill(declinedOrder);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.locator('table tbody tr');
    expect(await rows.count()).to.equal(1);
    expect(await rows.first().innerText()).to.include('DECLINED');

    await page.getByLabel('Order id').fill('');
    await page.getByLabel('Status').selectOption('SETTLED');
    await page.getByLabel('Merchant').selectOption({ label: 'Corner Bookshop' });
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('table tbody').innerText()).to.include('ORDER-1001').and.not.include(declinedOrder);
    await screenshot(page, 'dashboard-payments');

    await page.locator(`a[href="/dashboard/payments/${settledId}"]`).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const events = page.locator('ol.timeline > li');
    expect(await events.count()).to.be.at.least(2);
    expect(await events.first().innerText()).to.include('PaymentInitiated').and.include('chain ok');
    expect(await page.locator('.badge-bad', { hasText: 'broken' }).count()).to.equal(0);
    expect(await page.locator('section', { hasText: 'Ledger postings' }).locator('tbody tr').count()).to.equal(2);
    expect(await page.locator('section', { hasText: 'Callbacks' }).innerText()).to.include('HTTP 500');
    await screenshot(page, 'dashboard-payment');
    await context.close();
  });

  it('Given a card sale, an S2S APM sale and a payout, then each row shows its full trans id with a working copy button, its kind and its method, and the method filter finds the APM payment', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await signIn(context, '/dashboard/payments');
    const row = (id: string) => page.locator('table tbody tr', { has: page.locator(`a[href="/dashboard/payments/${id}"]`) });
    const cells = async (id: string) => {
      const head = await page.locator('table thead th').allInnerTexts();
      const values = await row(id).locator('td').allInnerTexts();
      return Object.fromEntries(head.map((name, i) => [name, values[i]!.trim()]));
    };
    expect(await cells(settledId)).to.include({ 'Trans id': `${settledId}\nCopy`, 'Kind · channel': 'sale\ns2s_card', Method: 'VISA 411111******1111' });
    expect(await cells(apmId)).to.include({ 'Trans id': `${apmId}\nCopy`, 'Kind · channel': 'sale\ns2s_apm', Method: 'sb-redirect' });
    expect(await cells(payoutId)).to.include({ 'Trans id': `${payoutId}\nCopy`, 'Kind · channel': 'payout\ns2s_apm', Method: 'sb-momo' });
    // The id reads on one line, as one word.
    const idBox = await row(payoutId).locator('code.id').boundingBox();
    expect(idBox!.height).to.be.below(30);
    await screenshot(page, 'dashboard-payments-channels');
    // Every column fits a desktop screen: nothing to scroll sideways for.
    expect(await page.locator('.table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth)).to.be.at.most(0);

    await row(payoutId).getByRole('button', { name: `Copy trans id ${payoutId}` }).click();
    await row(payoutId).getByRole('button', { name: `Copy trans id ${payoutId}` }).filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(payoutId);

    await page.getByLabel('Method').fill('sb-redirect');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('table tbody tr').count()).to.equal(1);
    expect(await page.locator('table tbody').innerText()).to.include(apmId);

    await page.goto(`${t.baseUrl}/dashboard/payments/${payoutId}`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal(`Payment ${payoutId}`);
    const facts = page.locator('dl.facts');
    expect(await facts.locator('dt:text-is("Kind") + dd').innerText()).to.equal('payout');
    expect(await facts.locator('dt:text-is("Method") + dd').innerText()).to.equal('sb-momo');
    await screenshot(page, 'dashboard-payout');
    await context.close();
  });

  it('Given a callback the shop refused, then the operator redelivers it from the payment page and sees it delivered', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signIn(context, `/dashboard/payments/${settledId}`);
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Redeliver this callback' }).first().click();
    expect(await page.getByRole('status').innerText()).to.include('Redelivery requested');
    expect(receiver.received.length).to.equal(before + 1);
    const callbacks = page.locator('section', { hasText: 'Callbacks' });
    expect(await callbacks.locator('.badge', { hasText: 'delivered' }).count()).to.be.at.least(1);
    await screenshot(page, 'dashboard-redelivered');

    await page.getByRole('link', { name: 'Callbacks', exact: true }).click();
    await page.getByRole('heading', { name: 'Failing notification URLs' }).waitFor();
    await screenshot(page, 'dashboard-callbacks');
    await context.close();
  });

  it('Given the merchant form, then it refuses what the CLI refuses in the same words, creates a merchant showing its password once, and saves a change', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signIn(context, '/dashboard/merchants/new');
    await page.getByLabel('Name', { exact: true }).fill('Harbour Tea');
    await page.getByLabel('IP allowlist').fill('10.0.0.0/8, not-an-address');
    await page.getByRole('button', { name: 'Create merchant' }).click();
    expect(await page.locator('.field.invalid .error').innerText()).to.equal('IP allowlist has "not-an-address", which is not an IP address or CIDR block.');
    await page.getByLabel('IP allowlist').fill('10.0.0.0/8');
    await page.getByLabel('Payment mode').selectOption('DMS');
    await page.getByRole('group', { name: 'Callback fields' }).getByLabel('brand', { exact: true }).check();
    await page.getByRole('button', { name: 'Create merchant' }).click();
    const password = await page.locator('[data-password]').innerText();
    expect(password).to.match(/^[0-9a-f]{32}$/);
    await screenshot(page, 'dashboard-merchant-created');

    await page.getByRole('link', { name: 'Go to the merchant' }).click();
    expect(await page.content()).not.to.include(password);
    expect(await page.getByLabel('Payment mode').inputValue()).to.equal('DMS');
    expect(await page.getByRole('group', { name: 'Callback fields' }).getByLabel('brand', { exact: true }).isChecked()).to.equal(true);
    await page.getByLabel('Payment mode').selectOption('SMS');
    await page.getByLabel('Refunds').selectOption('off');
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await page.getByRole('status').innerText()).to.equal('Settings saved.');
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const saved = await t.gateway.merchants.byId(id);
    expect(saved).to.include({ name: 'Harbour Tea', paymentMode: 'SMS', refundsEnabled: false });
    expect(saved!.ipAllowlist).to.deep.equal(['10.0.0.0/8']);
    expect(saved!.protocolMapping.fields).to.deep.equal(['brand']);
    await screenshot(page, 'dashboard-merchant');
    await context.close();
  });

  it('Given settled, declined and refunded payments, then analytics charts volume, approval and refunds, lists balances and the chain with its timeline', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signIn(context, '/dashboard/analytics');
    expect(await page.locator('figure.chart svg[role="img"]').count()).to.be.at.least(3);
    expect(await page.locator('figure.chart figcaption').allInnerTexts()).to.include.members(['Settled per day, EUR', 'Settled per day, USD']);
    // Payouts and a top-up in GHS, no sale: nothing to chart in GHS.
    expect(await page.locator('figure.chart figcaption').allInnerTexts()).not.to.include('Settled per day, GHS');
    const balances = page.locator('section', { hasText: 'Ledger balances' }).locator('tbody');
    expect(await balances.innerText()).to.include('merchant_receivable');
    expect(await balances.locator('tr', { hasText: 'topped_up' }).innerText()).to.include('-500.00 GHS');
    await screenshot(page, 'dashboard-analytics');

    await page.locator('section', { hasText: 'Recurring chains' }).locator('tbody a').first().click();
    await page.getByRole('heading', { name: 'Due dates' }).waitFor();
    expect(await page.locator('ol.timeline > li').count()).to.equal(5);
    await screenshot(page, 'dashboard-chain');
    await context.close();
  });

  it('Given the health page, then it shows the head and lags, and audit verify runs in the background to an OK', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signIn(context, '/dashboard/health');
    expect(await page.locator('.stat').innerText()).to.match(/^\d+$/);
    expect(await page.locator('section', { hasText: 'Read models' }).locator('tbody tr').count()).to.be.at.least(4);
    await page.getByRole('button', { name: 'Run audit verify' }).click();
    await page.locator('[data-audit-result]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-audit-result]').innerText()).to.match(/^ok OK: \d+ events in \d+ streams, \d+ checkpoints verified$/i);
    await screenshot(page, 'dashboard-health');
    await context.close();
  });

  it('Given a keyboard, then the first Tab reaches the skip link and every visible form control has a label', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signIn(context, '/dashboard/payments');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).to.equal('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).to.equal('main');
    for (const path of ['/dashboard/payments', '/dashboard/merchants/new', '/dashboard/analytics', '/dashboard/callbacks']) {
      await page.goto(`${t.baseUrl}${path}`);
      const unlabelled = await page.evaluate(
        `[...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
          .filter((el) => el.labels.length === 0 && !el.getAttribute('aria-label'))
          .map((el) => el.outerHTML)`,
      );
      expect(unlabelled, path).to.deep.equal([]);
    }
    await context.close();
  });

  it('Given a phone, then every page fits the screen\'s width (wide tables scroll inside their own region)', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await signIn(context, '/dashboard/payments');
    for (const [path, name] of [
      ['/dashboard/payments', 'payments'],
      [`/dashboard/payments/${settledId}`, 'payment'],
      [`/dashboard/payments/${payoutId}`, 'payout'],
      ['/dashboard/callbacks', 'callbacks'],
      [`/dashboard/merchants/${merchant.merchant_id}`, 'merchant'],
      ['/dashboard/analytics', 'analytics'],
      ['/dashboard/health', 'health'],
    ]) {
      await page.goto(`${t.baseUrl}${path}`);
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      expect(overflow, path).to.be.at.most(0);
      await screenshot(page, `dashboard-${name}-phone`);
    }
    await context.close();
  });
});
