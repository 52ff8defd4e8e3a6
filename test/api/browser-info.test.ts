/**
 * The payer's browser as the hosted pages collect it: what the page script fills in, and how the
 * gateway checks what comes back (everything from a browser is untrusted).
 */
import { expect } from 'chai';
import { BROWSER_FORM_FIELDS, browserAttributesFrom } from '../../src/api/html/browser-info';
import { AUTO_SUBMIT_JS } from '../../src/api/html/auto-post';

describe('browser attributes', () => {
  it('the page script fills the hidden fields of a data-browser-info form, without submitting it', () => {
    const inputs = new Map(BROWSER_FORM_FIELDS.map((name) => [name, { value: '' }]));
    const form = { querySelector: (selector: string) => inputs.get(/name="([^"]+)"/.exec(selector)?.[1] as never) ?? null };
    let submitted = 0;
    const document = {
      querySelectorAll: (selector: string) => (selector === 'form[data-browser-info]' ? [form] : []),
      querySelector: () => null,
    };
    const screen = { colorDepth: 30, height: 900, width: 1440 };
    const navigator = { language: 'fr-CA', platform: 'MacIntel', javaEnabled: () => false };
    const HTMLFormElement = { prototype: { submit: () => submitted++ } };

    new Function('document', 'HTMLFormElement', 'screen', 'navigator', AUTO_SUBMIT_JS)(document, HTMLFormElement, screen, navigator);

    expect(Object.fromEntries([...inputs].map(([k, v]) => [k, v.value]))).to.deep.equal({
      browser_color_depth: '30',
      browser_screen_height: '900',
      browser_screen_width: '1440',
      browser_java_enabled: 'false',
      browser_javascript_enabled: 'true',
      browser_language: 'fr-CA',
      browser_timezone_offset: String(new Date().getTimezoneOffset()),
      browser_platform: 'MacIntel',
    });
    expect(submitted).to.equal(0);
  });

  it('keeps headers and well-formed fields, drops what does not fit', () => {
    const fields: Record<string, string> = {
      browser_color_depth: '999',
      browser_screen_height: '-5',
      browser_screen_width: '1280',
      browser_java_enabled: 'yes',
      browser_javascript_enabled: 'true',
      browser_language: '"><script>',
      browser_timezone_offset: '330',
      browser_platform: 'x'.repeat(65),
    };
    const attributes = browserAttributesFrom(
      { userAgent: 'UA/1.0', accept: 'text/html', acceptLanguage: 'pt-BR,pt;q=0.9' },
      (name) => fields[name],
    );
    expect(attributes).to.deep.equal({
      screenWidth: 1280,
      javascriptEnabled: true,
      language: 'pt-BR',
      timezoneOffset: 330,
      userAgent: 'UA/1.0',
      acceptHeaders: 'text/html',
    });
  });

  it('bounds header lengths and refuses control characters', () => {
    const attributes = browserAttributesFrom({ userAgent: 'A'.repeat(5000), accept: 'text/html\u0000evil' }, () => undefined);
    expect(attributes!.userAgent).to.have.length(1024);
    expect(attributes).not.to.have.property('acceptHeaders');
  });

  it('is undefined when the browser told nothing', () => {
    expect(browserAttributesFrom({}, () => undefined)).to.equal(undefined);
  });
});
