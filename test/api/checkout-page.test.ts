/**
 * The hosted payment page's HTML, rendered from page models without a gateway: what each session
 * asks the payer for, that nothing a shop or payer sent can become markup, that no page carries
 * inline script or style, and that a refused form never prints the card number or CVV.
 */
import { expect } from 'chai';
import { renderFormPage } from '../../src/api/checkout-page/form-page';
import { formReader, readPayForm, splitExpiry } from '../../src/api/checkout-page/pay-form';
import { CHECKOUT_PAGE_CSP, renderNotFoundPage, renderUnavailablePage } from '../../src/api/checkout-page/render-page';
import { renderClosedPage, renderProcessingPage, renderReturningPage } from '../../src/api/checkout-page/status-pages';
import { NOW, SESSION_ID, modelOf } from './checkout-page-fixtures';
import { CHECKOUT_ASSETS } from '../../src/api/checkout-page/assets';

const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
const PAN = '4111111111111111';
const CVV = '737';

/** `<script>` elements with code in them, or without a src. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attrs, body]) => !/\bsrc=/.test(attrs) || body.trim() !== '')
    .map(([all]) => all);
}

/** Each tag's markup with its quoted attribute values left out (escaped text may say anything). */
const tagMarkup = (html: string): string[] => [...html.matchAll(/<[a-z][^>]*>/gi)].map(([tag]) => tag.replace(/"[^"]*"/g, '""'));

function expectNoInlineCode(html: string): void {
  expect(inlineScripts(html), 'inline scripts').to.deep.equal([]);
  expect(html, 'inline <style>').to.not.match(/<style\b/i);
  for (const tag of tagMarkup(html)) {
    expect(tag, 'inline event handler').to.not.match(/\son[a-z]+\s*=/i);
    expect(tag, 'style attribute').to.not.match(/\sstyle\s*=/i);
  }
  expect(html, 'javascript: URLs').to.not.match(/(href|src|action)="\s*javascript:/i);
}

const inputs = (html: string) => [...html.matchAll(/<input\b[^>]*\bname="([^"]+)"/g)].map((m) => m[1]).filter((n) => !n.startsWith('browser_'));

describe('hosted payment page rendering', () => {
  describe('what the form asks for', () => {
    it('a purchase: card number, expiry, CVV and name (prefilled), with card autocomplete and numeric keyboards', () => {
      const html = renderFormPage({ model: modelOf(), now: NOW, prefix: '' });

      expect(inputs(html)).to.deep.equal(['card_number', 'card_expiry', 'card_cvv', 'card_holder']);
      expect(html).to.match(/<input class="number"[^>]*inputmode="numeric" autocomplete="cc-number"/);
      expect(html).to.match(/<input[^>]*autocomplete="cc-exp"[^>]*placeholder="MM \/ YY"/);
      expect(html).to.match(/<input[^>]*inputmode="numeric" autocomplete="cc-csc"/);
      expect(html).to.match(/<input[^>]*autocomplete="cc-name"[^>]*value="John Doe"/);
      for (const name of ['card_number', 'card_expiry', 'card_cvv', 'card_holder']) {
        expect(html, `label of ${name}`).to.match(new RegExp(`<label for="${name}">`));
      }
      expect(html).to.include('<form method="post" action="/checkout/6f1c2b9e-4d3a-4c8e-9a7b-2f5e8d1c0a93/pay"');
      expect(html).to.include('<form method="post" action="/checkout/6f1c2b9e-4d3a-4c8e-9a7b-2f5e8d1c0a93/cancel"');
      expect(html).to.match(/role="status" aria-live="polite"/);
    });

    it('the order summary: shop, amount in the currency\'s decimals with its code, description, order number, time left, lock note', () => {
      const html = renderFormPage({ model: modelOf({}, { order: { number: 'A-1', amount: 1005, amountText: '1.005', currency: 'BHD', description: 'Tea' } }), now: NOW, prefix: '' });

      expect(html).to.include('<span>1.005</span> <span class="currency">BHD</span>');
      expect(html).to.include('<dd data-merchant>Corner Bookshop</dd>');
      expect(html).to.include('<dd data-description>Tea</dd>');
      expect(html).to.include('<dd data-order-number title="A-1">A-1</dd>');
      expect(html).to.include('Time left to pay: <time data-time-left');
      expect(html).to.include('>1 hour</time>');
      expect(html).to.include('Secured by the gateway');
      expect(html).to.include('>Pay 1.005 BHD</button>');
    });

    it('a credit: never a CVV field', () => {
      const html = renderFormPage({ model: modelOf({}, { operation: 'credit' }), now: NOW, prefix: '' });

      expect(inputs(html)).to.deep.equal(['card_number', 'card_expiry', 'card_holder']);
      expect(html).to.not.include('cc-csc');
      expect(html).to.include('>Receive 10.50 USD</button>');
    });

    it('a credit of a stored card: its mask, then only the expiry and the payee name', () => {
      const model = modelOf({ storedCardMask: '411111******1111', holderName: 'Ada Lovelace', needs: { cardNumber: false, cvv: false, billingState: false } }, { operation: 'credit', cardToken: 'tok_1' });
      const html = renderFormPage({ model, now: NOW, prefix: '' });

      expect(inputs(html)).to.deep.equal(['card_expiry', 'card_holder']);
      expect(html).to.include('<span class="mask">411111******1111</span>');
      expect(html).to.match(/autocomplete="cc-name"[^>]*value="Ada Lovelace"/);
    });

    it('the state field only for a billing country that needs one', () => {
      const us = renderFormPage({ model: modelOf({}, { billingAddress: { country: 'US' } }), now: NOW, prefix: '' });
      const gb = renderFormPage({ model: modelOf({}, { billingAddress: { country: 'GB' } }), now: NOW, prefix: '' });
      const usWithState = renderFormPage({ model: modelOf({}, { billingAddress: { country: 'US', state: 'IL' } }), now: NOW, prefix: '' });

      expect(inputs(us)).to.include('billing_state');
      expect(us).to.match(/autocomplete="billing address-level1" maxlength="100" required/);
      expect(inputs(gb)).to.not.include('billing_state');
      expect(inputs(usWithState), 'the shop already sent the state').to.not.include('billing_state');
    });

    it('no billing country: a country select naming the five state countries, the state field hidden until one is chosen', () => {
      const html = renderFormPage({ model: modelOf({}, { billingAddress: {} }), now: NOW, prefix: '' });

      expect(html).to.match(/<select autocomplete="billing country" required data-state-countries="CA US JP AU IN"/);
      expect(html).to.include('<option value="CA">Canada</option>');
      expect(html).to.match(/<div class="field" hidden>\s*<label for="billing_state">/);

      const chosen = renderFormPage({ model: modelOf({}, { billingAddress: {} }), now: NOW, prefix: '', kept: { billing_country: 'CA' } });
      expect(chosen).to.include('<option value="CA" selected>Canada</option>');
      expect(chosen).to.match(/<div class="field">\s*<label for="billing_state">/);
    });

    it('after a decline: the reason, the invitation to retry and the attempts left, focused for screen readers', () => {
      const html = renderFormPage({ model: modelOf({ lastDecline: { reason: 'Insufficient funds.' }, attemptsLeft: 1 }), now: NOW, prefix: '' });

      expect(html).to.include('<strong>Your payment was declined: Insufficient funds.</strong> Please try again or use another card.');
      expect(html).to.include('You have 1 attempt left.');
      expect(html).to.match(/<div class="notice" id="decline" role="alert" tabindex="-1" data-focus-on-load>/);
    });
  });

  describe('a refused form (HTTP 422)', () => {
    const posted = formReader({
      card_number: `${PAN.slice(0, 4)} ${PAN.slice(4, 8)} ${PAN.slice(8, 12)} ${PAN.slice(12)}`,
      card_expiry: '13 / 40',
      card_cvv: CVV,
      card_holder: 'Jane Payer',
    });
    const form = readPayForm(posted, { payerIp: '203.0.113.9', sessionCountry: 'GB' });
    const html = renderFormPage({
      model: modelOf(),
      now: NOW,
      prefix: '',
      kept: form.kept,
      problems: [
        { field: 'card_expiry', problem: 'invalid' },
        { field: 'card_cvv', problem: 'invalid', digits: null },
      ],
    });

    it('never prints the card number or the CVV back', () => {
      expect(html.replace(/\s/g, '')).to.not.include(PAN);
      expect(html).to.not.include('4111 1111');
      expect(html).to.not.match(new RegExp(`\\b${CVV}\\b`));
      expect(html).to.not.match(/name="card_number"[^>]*value=/);
      expect(html).to.not.match(/name="card_cvv"[^>]*value=/);
    });

    it('keeps the expiry and the name, shows each problem next to its field and in a summary, and focuses the first', () => {
      expect(html).to.match(/value="13 \/ 40" id="card_expiry"[^>]*aria-invalid="true" autofocus>/);
      expect(html).to.match(/value="Jane Payer" data-empty-message="[^"]+" id="card_holder"/);
      expect(html).to.include('<p class="field-error" id="card_expiry-error" aria-live="polite">Enter a valid expiry date (MM / YY) that has not passed.</p>');
      expect(html).to.include('<li><a href="#card_cvv">Enter the 3 or 4 digit security code.</a></li>');
      expect(html).to.include('For your security, enter your card number and security code again.');
    });

    it('does not keep a card number typed into another field', () => {
      const misplaced = readPayForm(formReader({ card_holder: PAN, card_expiry: PAN }), { payerIp: '203.0.113.9', sessionCountry: 'GB' });
      expect(misplaced.kept).to.deep.equal({});
    });
  });

  describe('nothing from the shop or the payer becomes markup', () => {
    const hostileModel = modelOf(
      { merchantName: HOSTILE, holderName: HOSTILE, lastDecline: { reason: HOSTILE } },
      { order: { number: HOSTILE, amount: 1050, amountText: '10.50', currency: 'USD', description: HOSTILE } },
    );
    const pages: Record<string, string> = {
      form: renderFormPage({ model: hostileModel, now: NOW, prefix: '' }),
      'refused form': renderFormPage({
        model: { ...hostileModel, session: { ...hostileModel.session, billingAddress: {} } },
        now: NOW,
        prefix: '',
        kept: { card_expiry: HOSTILE, card_holder: HOSTILE, billing_state: HOSTILE, billing_country: HOSTILE },
        problems: [{ field: 'card_holder', problem: 'missing' }],
      }),
      processing: renderProcessingPage({ ...hostileModel, view: 'processing' }, NOW, ''),
      closed: renderClosedPage({ title: HOSTILE, message: HOSTILE }, '', HOSTILE),
      returning: renderReturningPage({ url: `https://shop.example/back?note=${encodeURIComponent(HOSTILE)}`, target: '_top', prefix: '', shopName: HOSTILE }),
    };

    for (const [name, html] of Object.entries(pages)) {
      it(`${name} page: the hostile text appears only escaped`, () => {
        expect(html).to.not.include('<script>alert(1)</script>');
        expect(html).to.not.include('<img src=x');
        expect(html).to.include('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
        expectNoInlineCode(html);
      });
    }
  });

  describe('every page loads its code and styles from the gateway only', () => {
    const pages: Record<string, string> = {
      form: renderFormPage({ model: modelOf(), now: NOW, prefix: '' }),
      processing: renderProcessingPage(modelOf({ view: 'processing' }), NOW, ''),
      closed: renderClosedPage({ title: 'Payment cancelled', message: 'You can close this page.' }, ''),
      'not found': renderNotFoundPage(''),
      unavailable: renderUnavailablePage(''),
      returning: renderReturningPage({ url: 'https://shop.example/back', target: '_blank', prefix: '' }),
    };
    for (const [name, html] of Object.entries(pages)) {
      it(`${name}: a complete document, no inline script or style, nothing from another origin`, () => {
        expect(html.startsWith('<!doctype html>\n<html lang="en">')).to.equal(true);
        expect(html).to.include('<meta name="viewport" content="width=device-width, initial-scale=1">');
        expect(html).to.match(/<title>[^<]+<\/title>/);
        expect(html).to.match(/<link rel="stylesheet" href="\/checkout\/assets\/checkout\.css\?v=[0-9a-f]{12}">/);
        expect(html, 'the gateway\'s icon').to.include('<link rel="icon" href="/favicon.ico" sizes="32x32">');
        expectNoInlineCode(html);
        // Code and styles: every script and stylesheet (a link the payer follows is navigation, not code).
        for (const [, url] of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)) {
          expect(url, 'same-origin asset').to.match(/^(\/|#)/);
        }
        for (const [, url] of html.matchAll(/<a\b(?![^>]*data-return-link)[^>]*\bhref="([^"]+)"/g)) {
          expect(url, 'same-origin link').to.match(/^(\/|#)/);
        }
      });
    }

    it('under a base URL with a path, links stay under it', () => {
      const html = renderFormPage({ model: modelOf(), now: NOW, prefix: '/gw' });
      expect(html).to.include(`action="/gw/checkout/${SESSION_ID}/pay"`);
      expect(html).to.match(/href="\/gw\/checkout\/assets\/checkout\.css\?v=/);
      expect(html).to.match(/src="\/gw\/checkout\/assets\/checkout\.js\?v=/);
      expect(html).to.include('<link rel="icon" href="/gw/favicon.ico" sizes="32x32">');
    });

    it('the policy forbids inline script and style and any other origin\'s code', () => {
      expect(CHECKOUT_PAGE_CSP).to.include("default-src 'none'");
      expect(CHECKOUT_PAGE_CSP).to.include("script-src 'self'");
      expect(CHECKOUT_PAGE_CSP).to.include("style-src 'self'");
      expect(CHECKOUT_PAGE_CSP).to.include("base-uri 'none'");
      expect(CHECKOUT_PAGE_CSP).to.not.include('unsafe');
    });
  });

  describe('the processing page', () => {
    it('reloads itself every 3 seconds and says not to pay again', () => {
      const html = renderProcessingPage(modelOf({ view: 'processing' }), NOW, '');
      expect(html).to.include('<meta http-equiv="refresh" content="3">');
      expect(html).to.include('We are confirming your payment');
      expect(html).to.include('please do not close it or pay again');
    });
  });

  describe('the way back to the shop in another browsing context', () => {
    it('a link to the return URL exactly as built, with its target, followed by the page script', () => {
      const html = renderReturningPage({
        url: 'https://shop.example/index.php?route=checkout/success&payment_id=p-1&order_id=A%26B&hash=abc',
        target: '_parent',
        prefix: '',
        shopName: 'Corner Bookshop',
      });

      expect(html).to.include('<h1 id="title">Returning to Corner Bookshop…</h1>');
      // A GET form would rebuild the query (route=checkout%2Fsuccess); the link keeps it as sent.
      expect(html).to.include(
        '<a class="button primary" href="https://shop.example/index.php?route=checkout/success&amp;payment_id=p-1&amp;order_id=A%26B&amp;hash=abc" target="_parent" data-auto-follow data-return-link>Continue</a>',
      );
      expect(html).not.to.include('<form');
      expect(html).to.match(/<script src="\/checkout\/assets\/checkout\.js\?v=[0-9a-f]{12}" defer><\/script>/);
      expect(CHECKOUT_ASSETS.js.body).to.include("document.querySelector('a[data-auto-follow]')");
    });

    it('names the shop\'s site when the shop\'s name is not known', () => {
      const html = renderReturningPage({ url: 'https://shop.example/done', target: '_top', prefix: '' });
      expect(html).to.include('Returning to shop.example…');
    });

    it('refuses a return URL a form must not go to', () => {
      expect(() => renderReturningPage({ url: 'javascript:alert(1)', target: '_top', prefix: '' })).to.throw(TypeError);
    });
  });

  describe('reading the posted form', () => {
    it('splits the expiry in every way a payer may type it', () => {
      expect(splitExpiry('01 / 38')).to.deep.equal({ expMonth: '01', expYear: '38' });
      expect(splitExpiry('1/2038')).to.deep.equal({ expMonth: '01', expYear: '2038' });
      expect(splitExpiry('0138')).to.deep.equal({ expMonth: '01', expYear: '38' });
      expect(splitExpiry('12-39')).to.deep.equal({ expMonth: '12', expYear: '39' });
      expect(splitExpiry('January')).to.deep.equal({ expMonth: '', expYear: '' });
      expect(splitExpiry(undefined)).to.deep.equal({ expMonth: '', expYear: '' });
    });

    it('takes single text values only: a repeated field or an object is as if not sent', () => {
      const field = formReader({ card_holder: ['a', 'b'], card_expiry: { x: 1 }, card_cvv: '123' });
      expect(field('card_holder')).to.equal(undefined);
      expect(field('card_expiry')).to.equal(undefined);
      expect(field('card_cvv')).to.equal('123');
      expect(field('__proto__')).to.equal(undefined);
    });

    it('builds the payment input, with the payer\'s address and browser', () => {
      const form = readPayForm(
        formReader({ card_number: '4111 1111 1111 1111', card_expiry: '01 / 38', card_cvv: '123', card_holder: ' Ada ', billing_country: 'us', billing_state: 'IL' }),
        { payerIp: '203.0.113.9', sessionCountry: undefined, browser: { language: 'en-GB' } },
      );

      expect(form.problems).to.deep.equal([]);
      expect(form.input).to.deep.equal({
        card: { number: '4111 1111 1111 1111', expMonth: '01', expYear: '38', cvv: '123', holder: 'Ada' },
        billing: { country: 'US', state: 'IL' },
        payerIp: '203.0.113.9',
        browser: { language: 'en-GB' },
      });
    });

    it('a session without a billing country needs a real country from the payer', () => {
      const missing = readPayForm(formReader({}), { payerIp: '203.0.113.9' });
      const unknown = readPayForm(formReader({ billing_country: 'XX' }), { payerIp: '203.0.113.9' });
      const given = readPayForm(formReader({}), { payerIp: '203.0.113.9', sessionCountry: 'GB' });

      expect(missing.problems).to.deep.equal([{ field: 'billing_country', problem: 'missing' }]);
      expect(unknown.problems).to.have.length(1);
      expect(given.problems).to.deep.equal([]);
    });
  });
});
