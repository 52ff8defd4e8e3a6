import { expect } from 'chai';
import * as sinon from 'sinon';
import { escapeHtml, HOSTED_PAGE_CSP } from '../../src/api/html/page-kit';
import { renderAcsPage } from '../../src/api/sandbox-simulator/acs-page';
import { AUTO_SUBMIT_JS, renderAutoPostForm } from '../../src/api/html/auto-post';
import { renderRedirectPage } from '../../src/api/sandbox-simulator/redirect-page';

const HOSTILE = `"><script>alert('x')</script>`;
const TERM_URL = 'https://gateway.test/payments/abc/3ds-return';

/** Every `<script>` must load a file: the CSP forbids inline code. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attrs, body]) => !/\bsrc=/.test(attrs) || body.trim() !== '')
    .map(([all]) => all);
}

function expectRealDocument(html: string): void {
  expect(html.startsWith('<!doctype html>')).to.equal(true);
  expect(html).to.match(/<html lang="en">/);
  expect(html).to.include('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(html).to.include('<meta charset="utf-8">');
  expect(html).to.match(/<title>[^<]+<\/title>/);
  expect(html).to.match(/<style>[\s\S]+<\/style>/);
  expect(html, 'the gateway\'s icon').to.include('<link rel="icon" href="/favicon.ico" sizes="32x32">');
  expect(inlineScripts(html)).to.deep.equal([]);
  expect(html).to.not.match(/\son[a-z]+=/i); // no inline event handlers either
}

describe('hosted pages', () => {
  describe('escapeHtml', () => {
    it('escapes everything that can break out of text or a quoted attribute', () => {
      expect(escapeHtml(`<a href="x" title='y'>&\``)).to.equal('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;');
      expect(escapeHtml(undefined)).to.equal('');
      expect(escapeHtml(42)).to.equal('42');
    });
  });

  describe('ACS simulator page', () => {
    const page = renderAcsPage({
      termUrl: TERM_URL,
      paReq: 'eyJwYXltZW50SWQiOiJhYmMifQ.c2ln',
      md: 'abc',
      amount: 1050,
      currency: 'USD',
      cardMask: '411111******1111',
    });

    it('is a complete, accessible document', () => {
      expectRealDocument(page);
      expect(page).to.include('3-D Secure verification (sandbox)');
      expect(page).to.match(/<button type="submit" name="PaRes" value="approve">Approve<\/button>/);
      expect(page).to.match(/<button type="submit" name="PaRes" value="decline"[^>]*>Decline<\/button>/);
    });

    it('posts PaRes, the signed PaReq and MD to the TermUrl', () => {
      expect(page).to.include(`<form method="post" action="${TERM_URL}"`);
      expect(page).to.include('<input type="hidden" name="PaReq" value="eyJwYXltZW50SWQiOiJhYmMifQ.c2ln">');
      expect(page).to.include('<input type="hidden" name="MD" value="abc">');
    });

    it('shows the amount with the currency decimals and a masked card', () => {
      expect(page).to.include('10.50 USD');
      expect(page).to.include('411111******1111');
      const yen = renderAcsPage({ termUrl: TERM_URL, paReq: 'p', md: 'm', amount: 1000, currency: 'JPY' });
      expect(yen).to.include('1000 JPY');
      expect(renderAcsPage({ termUrl: TERM_URL, paReq: 'p', md: 'm', amount: 1005, currency: 'KWD' })).to.include('1.005 KWD');
    });

    it('says whom the payer is paying and how much, the shop\'s name escaped', () => {
      const named = renderAcsPage({ termUrl: TERM_URL, paReq: 'p', md: 'm', amount: 1050, currency: 'USD', shopName: 'Corner Bookshop' });
      expect(named).to.include('<p class="paying" data-paying>Paying <strong data-shop>Corner Bookshop</strong> <strong data-amount>10.50 USD</strong></p>');
      const hostile = renderAcsPage({ termUrl: TERM_URL, paReq: 'p', md: 'm', amount: 1050, currency: 'USD', shopName: HOSTILE });
      expect(hostile).to.not.include(HOSTILE);
      expect(hostile).to.include('<strong data-shop>&quot;&gt;&lt;script&gt;');
      const unknown = renderAcsPage({ termUrl: TERM_URL, paReq: 'p', md: 'm', amount: 1050, currency: 'USD' });
      expect(unknown).to.include('<p class="paying" data-paying>Paying <strong data-amount>10.50 USD</strong></p>');
    });

    it('escapes hostile values', () => {
      const html = renderAcsPage({
        termUrl: `https://gateway.test/x?a=${HOSTILE}`,
        paReq: HOSTILE,
        md: HOSTILE,
        amount: 1,
        currency: 'EUR',
        cardMask: HOSTILE,
      });
      expect(html).to.not.include(HOSTILE);
      expect(html).to.not.include("<script>alert('x')");
      expect(html).to.include('&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
      expectRealDocument(html);
    });

    it('refuses a TermUrl that is not http(s)', () => {
      for (const termUrl of ['javascript:alert(1)', 'data:text/html,hi', '//evil.test/x', 'not a url']) {
        expect(() => renderAcsPage({ termUrl, paReq: 'p', md: 'm', amount: 1, currency: 'USD' }), termUrl).to.throw(TypeError);
      }
    });
  });

  describe('sandbox redirect page', () => {
    it('offers Continue and Cancel, posting the signature to the completion URL', () => {
      const html = renderRedirectPage({
        completionUrl: '/sandbox/redirect/abc',
        signature: 'sig-123',
        amount: 700,
        currency: 'XOF',
      });
      expectRealDocument(html);
      expect(html).to.include('<form method="post" action="/sandbox/redirect/abc"');
      expect(html).to.include('<input type="hidden" name="sig" value="sig-123">');
      expect(html).to.match(/<button type="submit" name="decision" value="continue">Continue<\/button>/);
      expect(html).to.match(/<button type="submit" name="decision" value="cancel"[^>]*>Cancel<\/button>/);
      expect(html).to.include('700 XOF');
    });

    it('names the shop being paid', () => {
      const html = renderRedirectPage({ completionUrl: '/sandbox/redirect/abc', signature: 's', amount: 700, currency: 'XOF', shopName: 'Corner Bookshop' });
      expect(html).to.include('Paying <strong data-shop>Corner Bookshop</strong> <strong data-amount>700 XOF</strong>');
    });

    it('escapes a hostile signature', () => {
      const html = renderRedirectPage({ completionUrl: '/sandbox/redirect/abc', signature: HOSTILE });
      expect(html).to.not.include(HOSTILE);
    });
  });

  describe('auto-post form', () => {
    const html = renderAutoPostForm('https://merchant.test/return?x=1&y=2', {
      PaRes: 'approve',
      MD: HOSTILE,
      [HOSTILE]: 'v',
    });

    it('posts every field to the URL, with a visible Continue button and no inline script', () => {
      expectRealDocument(html);
      expect(html).to.include('<form method="post" action="https://merchant.test/return?x=1&amp;y=2"');
      expect(html).to.include('data-auto-submit');
      expect(html).to.include('<input type="hidden" name="PaRes" value="approve">');
      expect(html).to.match(/<button type="submit">Continue<\/button>/);
      expect(html).to.include('<script src="/assets/auto-submit.js" defer></script>');
      expect(html).to.not.include(HOSTILE);
    });

    it('honours an allowed link target and refuses others', () => {
      expect(renderAutoPostForm('https://merchant.test/', {}, { target: '_top' })).to.include(' target="_top"');
      expect(() => renderAutoPostForm('https://merchant.test/', {}, { target: 'evil' as never })).to.throw(TypeError);
      expect(() => renderAutoPostForm('javascript:alert(1)', {})).to.throw(TypeError);
    });

    it('AUTO_SUBMIT_JS submits the marked form once, even if a field is named "submit"', () => {
      const submit = sinon.spy();
      const attributes = new Map<string, string>();
      const form = {
        submit: 'shadowed by a field',
        getAttribute: (name: string) => attributes.get(name) ?? null,
        setAttribute: (name: string, value: string) => void attributes.set(name, value),
      };
      const document = { querySelector: (selector: string) => (selector === 'form[data-auto-submit]' ? form : null) };
      const HTMLFormElement = { prototype: { submit } };
      const run = new Function('document', 'HTMLFormElement', AUTO_SUBMIT_JS);
      run(document, HTMLFormElement);
      run(document, HTMLFormElement);
      expect(submit.callCount).to.equal(1);
      expect(submit.firstCall.thisValue).to.equal(form);
    });
  });

  describe('HOSTED_PAGE_CSP', () => {
    it('forbids inline scripts but allows same-origin scripts and inline styles', () => {
      const directives = Object.fromEntries(
        HOSTED_PAGE_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
      );
      expect(directives['default-src']).to.deep.equal(["'none'"]);
      expect(directives['script-src']).to.deep.equal(["'self'"]);
      expect(directives['style-src']).to.include("'unsafe-inline'");
      expect(directives['form-action']).to.not.include('*');
      expect(HOSTED_PAGE_CSP).to.not.match(/[\r\n]/);
    });
  });
});
