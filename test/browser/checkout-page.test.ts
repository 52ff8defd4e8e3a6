/**
 * The hosted payment page in headless Chromium: what a payer sees and does on it, and where the
 * payer lands at the shop. Sessions are created over HTTP like a shop creates them; the sandbox
 * card's expiry picks the outcome (docs/reference/sandbox.md#cards-by-expiry).
 */
import { expect } from 'chai';
import { DESKTOP, PHONE, screenshot } from '../support/browser';
import type { TestGateway, TestMerchant } from '../support/gateway-harness';
import { storedCardToken } from '../support/checkout-payments';
import type { Json } from '../support/checkout-client';
import {
  checkoutBrowserSuite,
  expectSignedReturn,
  fieldError,
  fillCard,
  focusedId,
  landedOnShop,
  pageWidth,
  payButton,
  payWith,
  waitForFocus,
  type OpenOptions,
} from './checkout-payer';

/** The browser's own, inside `evaluate` (the tests are compiled without the DOM's types). */
declare const getComputedStyle: (element: unknown) => { color: string; backgroundColor: string; lineHeight: string };

describe('Hosted payment page in a browser', function () {
  this.timeout(60_000);
  const suite = checkoutBrowserSuite('Corner Bookshop');
  let t: TestGateway;
  let merchant: TestMerchant;
  beforeEach(() => {
    t = suite.t;
    merchant = suite.merchant;
  });
  const checkout = (overrides: Json = {}, options: OpenOptions = {}) => suite.checkout(overrides, options);

  describe('the order the payer is asked to pay', () => {
    it('shows the shop, the amount with its currency, the description, the order number, the time left and the lock note', async () => {
      const payer = await checkout({ order: { number: 'ORDER-1001', amount: '1234.5', currency: 'USD', description: 'Two paperbacks' } });
      const summary = payer.page.locator('.summary');

      expect(await summary.locator('[data-amount]').innerText()).to.equal('1234.50 USD');
      expect(await summary.locator('[data-merchant]').innerText()).to.equal('Corner Bookshop');
      expect(await summary.locator('[data-description]').innerText()).to.equal('Two paperbacks');
      expect(await summary.locator('[data-order-number]').innerText()).to.equal('ORDER-1001');
      expect(await summary.locator('.expires').innerText()).to.equal('Time left to pay: 1 hour');
      expect(await payer.page.getByText('Secured by the gateway').isVisible()).to.equal(true);
      expect(await payButton(payer.page).innerText()).to.equal('Pay 1234.50 USD');
    });

    it('uses the currency\'s own decimals: none for JPY', async () => {
      const payer = await checkout({ order: { amount: '1500', currency: 'JPY' } });
      expect(await payer.page.locator('[data-amount]').innerText()).to.equal('1500 JPY');
    });

    it('labels every field and gives it the autocomplete and keyboard a card form needs', async () => {
      const { page } = await checkout();
      const attrs = async (label: string) =>
        page.getByLabel(label).evaluate((el) => [el.getAttribute('autocomplete'), el.getAttribute('inputmode')]);

      expect(await attrs('Card number')).to.deep.equal(['cc-number', 'numeric']);
      expect(await attrs('Expiry date')).to.deep.equal(['cc-exp', 'numeric']);
      expect(await attrs('Security code')).to.deep.equal(['cc-csc', 'numeric']);
      expect(await attrs('Name on card')).to.deep.equal(['cc-name', null]);
      expect(await page.getByLabel('Name on card').inputValue()).to.equal('John Doe');
    });
    it('tells the gateway what the browser says about itself (screen, colour depth, time zone, language), recorded with the payment', async () => {
      const payer = await checkout();
      const value = (name: string) => payer.page.locator(`input[name="${name}"]`).inputValue();
      expect(await value('browser_javascript_enabled')).to.equal('true');
      expect(await value('browser_timezone_offset')).to.match(/^-?\d+$/);

      await payWith(payer.page, { expiry: '01/38' });

      const visit = await landedOnShop(payer, '/success');
      const payment = await t.gateway.payments.current(visit.searchParams.get('payment_id')!);
      expect(payment.browser).to.include({ screenWidth: DESKTOP.width, javascriptEnabled: true, language: 'en-GB' });
      expect(payment.browser?.colorDepth).to.be.a('number');
      expect(payment.browser?.userAgent).to.be.a('string');
    });
  });

  describe('paying with each sandbox outcome', () => {
    it('01/2038: the payer lands on success_url with payment_id, trans_id, order_id and a hash the shop can verify', async () => {
      const payer = await checkout();

      await payWith(payer.page, { expiry: '01/38' });

      const visit = await landedOnShop(payer, '/success');
      const paymentId = expectSignedReturn(visit, payer, merchant);
      const payment = await t.gateway.payments.current(paymentId);
      expect(payment.phase).to.equal('settled');
      expect(payment.card!.mask).to.equal('411111******1111');
    });

    it('02/2038: the page shows the decline with the attempts left, and a retry with 01/2038 succeeds under the same order number', async () => {
      const payer = await checkout();

      await payWith(payer.page, { expiry: '02/38' });
      const notice = payer.page.getByRole('alert');
      await notice.waitFor();
      expect(payer.page.url()).to.equal(payer.redirectUrl);
      expect(await notice.innerText()).to.match(/^Your payment was declined: .+\. Please try again or use another card\.\s+You have 4 attempts left\.$/);
      await waitForFocus(payer.page, 'decline');
      expect(await payer.page.getByLabel('Card number').inputValue()).to.equal('');

      await payWith(payer.page, { expiry: '01/38' });

      const visit = await landedOnShop(payer, '/success');
      const paymentId = expectSignedReturn(visit, payer, merchant);
      const attempts = await t.initiatedForOrder(merchant, payer.body.order.number);
      expect(attempts.map((e) => e.data.paymentId)).to.have.length(2).and.to.include(paymentId);
    });

    it('after a decline the form comes back with the name, expiry and billing address typed, the card number and security code empty', async () => {
      const payer = await checkout({ billing_address: { city: 'Springfield' }, customer: { email: 'doe@example.com' } });
      const { page } = payer;
      await page.getByLabel('Billing country').selectOption('US');
      await page.getByLabel('State / province').fill('IL');
      await fillCard(page, { number: '4111 1111 1111 1111', expiry: '02/38', cvv: '737', holder: 'Jane Q. Payer' });
      const typedExpiry = await page.getByLabel('Expiry date').inputValue();

      await payButton(page).click();
      await page.getByRole('alert').waitFor();

      expect(await page.getByLabel('Name on card').inputValue()).to.equal('Jane Q. Payer');
      expect(await page.getByLabel('Expiry date').inputValue()).to.equal(typedExpiry);
      expect(await page.getByLabel('Billing country').inputValue()).to.equal('US');
      expect(await page.getByLabel('State / province').inputValue()).to.equal('IL');
      expect(await page.getByLabel('State / province').isVisible()).to.equal(true);
      expect(await page.getByLabel('Card number').inputValue()).to.equal('');
      expect(await page.getByLabel('Security code').inputValue()).to.equal('');
      const html = await page.content();
      expect(html).to.not.include('4111 1111 1111 1111').and.to.not.match(/\b737\b/);
      await screenshot(page, 'checkout-declined-kept');
    });

    it('shows the form, then the decline, at desktop and phone widths (screenshots)', async () => {
      for (const [viewport, name] of [
        [DESKTOP, 'desktop'],
        [PHONE, 'phone'],
      ] as const) {
        const payer = await checkout({ order: { description: 'Two paperbacks and a bookmark' } }, { viewport });
        expect(await pageWidth(payer.page)).to.be.at.most(viewport.width);
        await screenshot(payer.page, `checkout-form-${name}`);

        await payWith(payer.page, { expiry: '02/38' });
        await payer.page.getByRole('alert').waitFor();
        expect(await pageWidth(payer.page)).to.be.at.most(viewport.width);
        await screenshot(payer.page, `checkout-declined-${name}`);
      }
    });
  });

  describe('on the payer\'s device', () => {
    /** WCAG relative luminance of a computed `rgb(r, g, b)` colour. */
    const luminanceOf = (rgb: string): number => {
      const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const colours = (payer: { page: import('playwright-core').Page }, selector: string) =>
      payer.page.locator(selector).first().evaluate((el) => {
        const style = getComputedStyle(el);
        return { color: style.color, background: style.backgroundColor };
      });

    it('a device in dark mode gets a dark page with light text, the form and the decline readable (screenshots)', async () => {
      const payer = await checkout({ order: { description: 'Two paperbacks and a bookmark' } }, { viewport: PHONE, colorScheme: 'dark' });

      const body = await colours(payer, 'body');
      const card = await colours(payer, '.card');
      const input = await colours(payer, '#card_number');
      expect(luminanceOf(body.background), `body background ${body.background}`).to.be.below(0.05);
      expect(luminanceOf(card.background), `card ${card.background}`).to.be.below(0.05);
      expect(luminanceOf(body.color), `text ${body.color}`).to.be.above(0.6);
      expect(luminanceOf(input.color), `typed text ${input.color}`).to.be.above(0.6);
      await screenshot(payer.page, 'checkout-form-dark-phone');

      await payWith(payer.page, { expiry: '02/38' });
      await payer.page.getByRole('alert').waitFor();
      const notice = await colours(payer, '.notice');
      const contrast = (luminanceOf(notice.color) + 0.05) / (luminanceOf(notice.background) + 0.05);
      expect(contrast, `decline ${notice.color} on ${notice.background}`).to.be.at.least(4.5);
      await screenshot(payer.page, 'checkout-declined-dark-phone');
    });

    it('a long order number stays on one line at 360 px, cut short with the whole number in its title', async () => {
      const number = 'ORDER-2030-05-01-SHOP-EU-WEST-000000123456789';
      const payer = await checkout({ order: { number } }, { viewport: { width: 360, height: 740 } });
      const order = payer.page.locator('[data-order-number]');

      const box = await order.evaluate((el) => {
        const rect = el.getBoundingClientRect();
        return { height: rect.height, right: rect.right, lineHeight: parseFloat(getComputedStyle(el).lineHeight) };
      });
      expect(box.height, 'one line').to.be.at.most(box.lineHeight * 1.5);
      expect(box.right, 'inside the viewport').to.be.at.most(360);
      expect(await pageWidth(payer.page)).to.be.at.most(360);
      expect(await order.getAttribute('title')).to.equal(number);
      expect(await order.textContent(), 'the whole number for copying and screen readers').to.equal(number);
      await screenshot(payer.page, 'checkout-long-order-number-360');
    });
  });

  describe('the billing state rule (CA, US, JP, AU, IN only)', () => {
    it('US: a required state field; paying without it shows the error next to it', async () => {
      const payer = await checkout({ billing_address: { country: 'US', city: 'Springfield' } });
      const state = payer.page.getByLabel('State / province');
      expect(await state.isVisible()).to.equal(true);

      await payWith(payer.page, { expiry: '01/38' });

      expect(await fieldError(payer.page, 'billing_state')).to.equal('Enter the state or province of your billing address.');
      expect(await focusedId(payer.page)).to.equal('billing_state');
      expect(payer.payRequests).to.deep.equal([]);

      await state.fill('IL');
      await payButton(payer.page).click();
      await landedOnShop(payer, '/success');
    });

    it('GB: no state field at all', async () => {
      const { page } = await checkout({ billing_address: { country: 'GB' } });
      expect(await page.getByLabel('State / province').count()).to.equal(0);
      expect(await page.getByLabel('Billing country').count()).to.equal(0);
    });

    it('no billing country: a country select, and choosing CA shows the state field', async () => {
      const payer = await checkout({ billing_address: { city: 'Toronto' } });
      const { page } = payer;
      const state = page.getByLabel('State / province');
      expect(await state.isVisible()).to.equal(false);

      await page.getByLabel('Billing country').selectOption('CA');
      expect(await state.isVisible()).to.equal(true);
      await page.getByLabel('Billing country').selectOption('FR');
      expect(await state.isVisible()).to.equal(false);
      await page.getByLabel('Billing country').selectOption('CA');
      await state.fill('ON');
      await payWith(page, { expiry: '01/38' });

      const visit = await landedOnShop(payer, '/success');
      const payment = await t.gateway.payments.current(visit.searchParams.get('payment_id')!);
      expect(payment.payer).to.include({ country: 'CA', state: 'ON' });
    });
  });

  describe('checks in the browser, before anything is sent', () => {
    it('a number failing the Luhn check shows an error and sends no request', async () => {
      const payer = await checkout();

      await payWith(payer.page, { number: '4111 1111 1111 1112', expiry: '01/38' });

      expect(await fieldError(payer.page, 'card_number')).to.equal('This card number is not valid. Check the digits and try again.');
      expect(await payer.page.getByLabel('Card number').getAttribute('aria-invalid')).to.equal('true');
      expect(payer.payRequests).to.deep.equal([]);
      expect(payer.shopVisits).to.deep.equal([]);
    });

    it('a past expiry shows an error and sends no request', async () => {
      const payer = await checkout();

      await payWith(payer.page, { expiry: '01/20' });

      expect(await fieldError(payer.page, 'card_expiry')).to.equal('This card has expired. Check the date or use another card.');
      expect(payer.payRequests).to.deep.equal([]);
    });

    it('an error shows when the payer leaves a field, and goes away once it is fixed', async () => {
      const { page } = await checkout();
      const number = page.getByLabel('Card number');

      await number.fill('4111 1111');
      await page.getByLabel('Expiry date').focus();
      expect(await fieldError(page, 'card_number')).to.equal('The card number is too short.');

      await number.fill('4111 1111 1111 1111');
      expect(await fieldError(page, 'card_number')).to.equal('');
      expect(await number.getAttribute('aria-invalid')).to.equal(null);
    });

    it('formats what is typed: groups of four with the brand named, 4-6-5 for American Express, and MM / YY', async () => {
      const { page } = await checkout();
      const number = page.getByLabel('Card number');

      await number.pressSequentially('4111111111111111');
      expect(await number.inputValue()).to.equal('4111 1111 1111 1111');
      expect(await page.locator('#card_number-brand').innerText()).to.equal('Visa');

      await number.fill('');
      await number.pressSequentially('378282246310005');
      expect(await number.inputValue()).to.equal('3782 822463 10005');
      expect(await page.locator('#card_number-brand').innerText()).to.equal('American Express');
      expect(await page.locator('#card_cvv-hint').innerText()).to.equal('4 digits on the front of the card');

      const expiry = page.getByLabel('Expiry date');
      await expiry.pressSequentially('138');
      expect(await expiry.inputValue()).to.equal('01 / 38');
      await expiry.press('Backspace');
      expect(await expiry.inputValue()).to.equal('01 / 3');
      await expiry.press('Backspace');
      expect(await expiry.inputValue(), 'the separator goes with the year, and does not come back').to.equal('01');
    });

    it('pressing Pay while still in a wrong field shows every problem at once (the button does not move from under the press)', async () => {
      const payer = await checkout({ billing_address: {} }, { viewport: PHONE });
      const { page } = payer;
      await page.getByLabel('Card number').pressSequentially('37828224631');
      await page.getByLabel('Billing country').selectOption('US');
      await page.getByLabel('Expiry date').pressSequentially('1');

      await payButton(page).click();

      expect(await fieldError(page, 'card_number')).to.equal('The card number is too short.');
      expect(await fieldError(page, 'card_expiry')).to.equal('Enter the expiry date as MM / YY.');
      expect(await fieldError(page, 'card_cvv')).to.equal('Enter the security code.');
      expect(await fieldError(page, 'billing_state')).to.equal('Enter the state or province of your billing address.');
      const status = page.locator('#form-status', { hasText: 'There are problems' });
      await status.waitFor({ state: 'attached' });
      expect(await status.textContent(), 'announced to screen readers').to.equal('There are problems with 4 fields. The first: The card number is too short.');
      expect(await focusedId(page)).to.equal('card_number');
      expect(payer.payRequests).to.deep.equal([]);
    });

    it('an American Express card needs a 4 digit security code', async () => {
      const payer = await checkout();

      await payWith(payer.page, { number: '3782 822463 10005', expiry: '01/38', cvv: '123' });

      expect(await fieldError(payer.page, 'card_cvv')).to.equal('Enter the 4 digit security code.');
      expect(payer.payRequests).to.deep.equal([]);
    });
  });

  describe('one payment per click', () => {
    it('once pressed, the button says the payment is processing and takes no more clicks or Enter presses', async () => {
      const payer = await checkout();
      const { page } = payer;
      await fillCard(page, { number: '4111 1111 1111 1111', expiry: '01/38', cvv: '123' });
      // Keep the browser on the page (as a slow network would) and count the submits the page let through.
      await page.evaluate(`window.__sent = 0; window.addEventListener('submit', function (e) {
        if (!e.defaultPrevented) window.__sent++;
        e.preventDefault();
      });`);

      await payButton(page).click();
      const busy = page.getByRole('button', { name: 'Processing…' });
      await busy.click({ force: true });
      await page.getByLabel('Name on card').press('Enter');

      expect(await busy.isDisabled()).to.equal(true);
      expect(await busy.getAttribute('aria-busy')).to.equal('true');
      expect(await page.evaluate('window.__sent')).to.equal(1);
    });
  });

  describe('with the keyboard only', () => {
    it('the payer types, tabs from field to field and presses Enter to pay', async () => {
      const payer = await checkout();
      const { page } = payer;

      await page.getByLabel('Card number').focus();
      await page.keyboard.type('4111111111111111');
      await page.keyboard.press('Tab');
      await page.keyboard.type('0138');
      await page.keyboard.press('Tab');
      await page.keyboard.type('123');
      await page.keyboard.press('Tab');
      expect(await focusedId(page)).to.equal('card_holder');
      await page.keyboard.press('Enter');

      await landedOnShop(payer, '/success');
    });
  });

  describe('without JavaScript, the server checks everything', () => {
    it('a refused form comes back (HTTP 422) with the problems next to the fields, the name and expiry kept, never the card number or CVV', async () => {
      const payer = await checkout({}, { javaScriptEnabled: false });
      const { page } = payer;
      await page.getByLabel('Card number').fill('4111111111111112');
      await page.getByLabel('Expiry date').fill('01/38');
      await page.getByLabel('Security code').fill('737');
      await page.getByLabel('Name on card').fill('Jane Q. Payer');

      const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/pay')), payButton(page).click()]);

      expect(response.status()).to.equal(422);
      expect(await fieldError(page, 'card_number')).to.equal('Enter a valid card number.');
      expect(await page.getByLabel('Expiry date').inputValue()).to.equal('01/38');
      expect(await page.getByLabel('Name on card').inputValue()).to.equal('Jane Q. Payer');
      expect(await page.getByLabel('Card number').inputValue()).to.equal('');
      expect(await page.getByLabel('Security code').inputValue()).to.equal('');
      const html = await page.content();
      expect(html).to.not.match(/\b4111111111111112\b/);
      expect(html).to.not.match(/\b737\b/);
      await waitForFocus(page, 'card_number');
    });

    it('a valid form pays and the payer lands on success_url', async () => {
      const payer = await checkout({}, { javaScriptEnabled: false });

      await payWith(payer.page, { expiry: '01/38' });

      expectSignedReturn(await landedOnShop(payer, '/success'), payer, merchant);
    });
  });

  describe('a credit (payout to the payer\'s card)', () => {
    it('never asks for the CVV; pays out to the card (screenshot at phone width)', async () => {
      const payer = await checkout({ operation: 'credit' }, { viewport: PHONE });
      const { page } = payer;

      expect(await page.getByLabel('Security code').count()).to.equal(0);
      expect(await page.locator('input[autocomplete="cc-csc"]').count()).to.equal(0);
      expect(await page.locator('.summary .label').innerText()).to.equal('Amount you receive');
      await screenshot(page, 'checkout-credit-phone');

      await fillCard(page, { number: '4111 1111 1111 1111', expiry: '01/38' });
      await payButton(page).click();

      const visit = await landedOnShop(payer, '/success');
      const payment = await t.gateway.payments.current(visit.searchParams.get('payment_id')!);
      expect(payment.kind).to.equal('credit');
    });

    it('of a stored card: shows its mask and asks only for the expiry and the payee name', async () => {
      const cardToken = await storedCardToken(t, merchant);
      const payer = await checkout({ operation: 'credit', card_token: cardToken, payee_first_name: 'Ada', payee_last_name: 'Lovelace' });
      const { page } = payer;

      expect(await page.locator('[data-stored-card] .mask').innerText()).to.equal('411111******1111');
      expect(await page.getByLabel('Card number').count()).to.equal(0);
      expect(await page.getByLabel('Security code').count()).to.equal(0);
      expect(await page.getByLabel('Name on card').inputValue()).to.equal('Ada Lovelace');

      await fillCard(page, { expiry: '01 / 38' });
      await payButton(page).click();
      await landedOnShop(payer, '/success');
    });

    it('Cancel sends the payer to cancel_url', async () => {
      const payer = await checkout({ operation: 'credit' });

      await payer.page.getByRole('button', { name: 'Cancel and return to the shop' }).click();

      const visit = await landedOnShop(payer, '/cancel');
      expect(visit.searchParams.get('order_id')).to.equal(payer.body.order.number);
    });
  });
});
