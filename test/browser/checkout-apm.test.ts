/**
 * The payer pays with an alternative method on the hosted page, in headless Chromium: chooses it in
 * the list, goes to the provider's page and back (redirect), scans a QR code whose minute runs out
 * (the page's and the gateway's clocks both moved by the test, never waited for), types a one-time
 * code, reads payment details. Screenshots of each step go to test-artifacts/screenshots.
 */
import { expect } from 'chai';
import { PHONE, screenshot } from '../support/browser';
import type { Json } from '../support/checkout-client';
import type { TestClock } from '../support/gateway-harness';
import { SHOP, checkoutBrowserSuite, expectSignedReturn, landedOnShop, payButton, type OpenOptions } from './checkout-payer';

const METHODS = ['card', 'sb-redirect', 'sb-qr', 'sb-otp', 'sb-details'];

describe('Hosted payment page: alternative methods', function () {
  this.timeout(60_000);
  const suite = checkoutBrowserSuite('Harbour Tea Rooms');
  const checkout = (overrides: Json = {}, options: OpenOptions = {}) => suite.checkout({ methods: METHODS, ...overrides }, options);

  it('redirect: the payer picks the method, continues on the provider\'s page, approves there and lands on success_url with the method in the return parameters', async () => {
    await suite.t.gateway.merchants.update(suite.merchant.merchant_id, {
      protocolMapping: { fields: [], returnParameters: ['payment_method'], requiredFields: [] },
    });
    const payer = await checkout();
    const chooser = payer.page.getByRole('navigation', { name: 'Choose how to pay' });
    expect(await chooser.getByRole('link').allInnerTexts()).to.have.length(METHODS.length);
    await screenshot(payer.page, 'checkout-apm-methods');

    await chooser.getByRole('link', { name: /Redirect to the provider/ }).click();
    await payer.page.getByRole('heading', { name: 'Redirect to the provider' }).waitFor();
    await payButton(payer.page).click();
    await payer.page.getByRole('heading', { name: 'Redirect to the provider (sandbox provider)' }).waitFor();
    await screenshot(payer.page, 'checkout-apm-redirect-provider');
    await payer.page.getByRole('button', { name: 'Approve' }).click();

    const visit = await landedOnShop(payer, '/success');
    const paymentId = expectSignedReturn(visit, payer, suite.merchant);
    expect(visit.searchParams.get('payment_method')).to.equal('sb-redirect');
    expect(await suite.t.gateway.payments.current(paymentId)).to.deep.include({ phase: 'settled' });
  });

  it('the method picker: cards and the other methods under headings of their own, each method once, by a name a payer understands, and the chosen method\'s form under its own heading', async () => {
    // `vcard` is another name of the redirect method: the payer sees one "Redirect to the provider".
    const payer = await suite.checkout({ methods: ['card', 'sb-redirect', 'vcard', 'sb-qr', 'sb-otp'] });
    const chooser = payer.page.getByRole('navigation', { name: 'Choose how to pay' });
    expect(await chooser.getByRole('list', { name: 'Cards' }).getByRole('link').allInnerTexts()).to.deep.equal(['Card']);
    expect(await chooser.getByRole('list', { name: 'Other ways to pay' }).getByRole('link').allInnerTexts()).to.deep.equal([
      'Redirect to the provider',
      'QR code',
      'Phone number and a one-time code by SMS',
    ]);
    expect(await chooser.innerText()).not.to.match(/sb-|vcard/);
    const headings = () => payer.page.locator('section.pay').locator('h1, h2, h3').allInnerTexts();
    expect(await headings()).to.deep.equal(['Choose how to pay', 'Cards', 'Other ways to pay', 'Pay by card']);
    expect(await chooser.getByRole('link', { name: 'Card' }).getAttribute('aria-current')).to.equal('true');
    await screenshot(payer.page, 'checkout-method-picker');

    await chooser.getByRole('link', { name: 'Redirect to the provider' }).click();
    await payer.page.getByRole('heading', { name: 'Redirect to the provider' }).waitFor();
    expect(await headings()).to.deep.equal(['Choose how to pay', 'Cards', 'Other ways to pay', 'Redirect to the provider']);
    expect(await chooser.getByRole('link', { name: 'Redirect to the provider' }).getAttribute('aria-current')).to.equal('true');
    // Asked by its other name, the page marks the one entry the payer sees.
    await payer.page.goto(`${payer.redirectUrl}?method=vcard`);
    expect(await chooser.getByRole('link', { name: 'Redirect to the provider' }).getAttribute('aria-current')).to.equal('true');

    await payer.page.setViewportSize(PHONE);
    await payer.page.goto(payer.redirectUrl);
    await screenshot(payer.page, 'checkout-method-picker-phone');
  });

  it('QR code: drawn on the page with its minute counting down; when it runs out the page says so and offers the methods again', async () => {
    const payer = await checkout({}, { viewport: PHONE });
    // The page's timers run on a clock the test moves, as the gateway's does.
    await payer.page.clock.install();
    await payer.page.goto(`${payer.redirectUrl}?method=sb-qr`);
    await payButton(payer.page).click();
    await payer.page.getByRole('heading', { name: 'Scan the QR code' }).waitFor();
    const qr = payer.page.getByRole('img', { name: /^QR code to pay 10\.50 USD/ });
    expect(await qr.isVisible()).to.equal(true);
    const box = await qr.boundingBox();
    expect(box!.width).to.be.greaterThan(150);
    // A minute, less what a loaded machine took to render and show the page (the page's time flows too).
    expect(await payer.page.locator('[data-countdown]').innerText()).to.match(/^(1:00|0:5\d)$/);
    await screenshot(payer.page, 'checkout-apm-qr');

    // The page first, then the gateway: a status answer landing while the page's 45 s run would
    // otherwise count the gateway's 15 s left from early in that run and expire the code at once.
    await payer.page.clock.runFor(45_000);
    (suite.t.clock as TestClock).advance(45_000);
    // The page takes the time left from the gateway's next status answer.
    const countdown = payer.page.locator('[data-countdown]', { hasText: /^0:(0\d|1[0-5])$/ });
    for (let polls = 0; !(await countdown.isVisible()); polls++) {
      if (polls === 5) throw new Error(`the countdown still shows ${await payer.page.locator('[data-expires-in]').innerText()}`);
      const answered = payer.page.waitForResponse((r) => r.url().endsWith('/status'), { timeout: 5_000 }).catch(() => null);
      await payer.page.clock.runFor(2_000);
      await answered;
    }
    await screenshot(payer.page, 'checkout-apm-qr-countdown');

    (suite.t.clock as TestClock).advance(16_000);
    await payer.page.clock.runFor(16_000);
    const notice = payer.page.getByRole('alert');
    await payer.page.getByText('QR code expired').first().waitFor();
    expect(payer.page.url()).to.equal(payer.redirectUrl);
    expect(await notice.first().innerText()).to.include('QR code expired');
    expect(await payer.page.getByRole('navigation', { name: 'Choose how to pay' }).isVisible()).to.equal(true);
    await screenshot(payer.page, 'checkout-apm-qr-expired');
    expect(payer.shopVisits).to.deep.equal([]);
  });

  it('one-time code: the page asks for the phone, then for the code it shows in the sandbox; a wrong code is refused, the right one lands on success_url', async () => {
    const payer = await checkout();
    await payer.page.getByRole('link', { name: /one-time code/ }).click();
    await payButton(payer.page).click();
    expect(await payer.page.locator('#method-phone-error').innerText()).to.equal('Enter the Phone number.');
    await payer.page.getByRole('textbox', { name: 'Phone number' }).fill('+447700900123');
    await payButton(payer.page).click();

    await payer.page.getByRole('heading', { name: 'Enter the one-time code' }).waitFor();
    const code = await payer.page.locator('[data-test-code] strong').innerText();
    expect(code).to.match(/^\d{6}$/);
    expect(await payer.page.getByText('A one-time code was sent by SMS to +447700900123.').isVisible()).to.equal(true);
    await screenshot(payer.page, 'checkout-apm-otp');
    await payer.page.getByRole('textbox', { name: 'One-time code' }).fill('000000');
    await payer.page.getByRole('button', { name: /^Confirm / }).click();
    expect(await payer.page.locator('#otp-error').innerText()).to.equal('This code is not correct. Check the code in the message and try again.');
    await screenshot(payer.page, 'checkout-apm-otp-wrong');

    await payer.page.getByRole('textbox', { name: 'One-time code' }).fill(code);
    await payer.page.getByRole('button', { name: /^Confirm / }).click();
    const visit = await landedOnShop(payer, '/success');
    expectSignedReturn(visit, payer, suite.merchant);
  });

  it('payment details: the page shows where to transfer to and moves on by itself once the provider reports the money', async () => {
    const payer = await checkout();
    await payer.page.getByRole('link', { name: /Payment details/ }).click();
    await payButton(payer.page).click();
    await payer.page.getByRole('heading', { name: 'Pay by bank transfer' }).waitFor();
    const reference = await payer.page.locator('[data-detail="reference"]').innerText();
    expect(await payer.page.locator('[data-detail="iban"]').innerText()).to.match(/^[A-Z]{2}\d{2}/);
    expect(await payer.page.locator('[data-detail="amount"]').innerText()).to.equal('10.50 USD');
    await screenshot(payer.page, 'checkout-apm-details');

    // The provider reports the transfer (its page's Approve stands in for the bank): the page, asking every few seconds, moves on.
    const decided = await suite.t.postForm(`${suite.t.baseUrl}/sandbox/provider/${reference}`, { decision: 'approve' });
    expect(decided.status).to.equal(303);
    const visit = await landedOnShop(payer, '/success');
    expect(visit.origin).to.equal(SHOP);
    expect(visit.searchParams.get('payment_id')).to.equal(reference);
  });
});
