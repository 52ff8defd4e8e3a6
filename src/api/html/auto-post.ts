/**
 * The auto-posting form that sends a payer's browser on to another URL with POST fields (an ACS, a
 * merchant's return URL), and the one script of the payer-facing pages that submits it.
 */

import { AUTO_SUBMIT_PATH, assertFormTarget, escapeHtml, renderHostedPage } from './page-kit';
import { BROWSER_VALUES_JS } from './browser-info';

/**
 * The hosted pages' one script (the CSP forbids inline script). First it fills the hidden
 * `browser_*` inputs of every `form[data-browser-info]` with what the page can read about the
 * payer's browser; then it submits the page's `form[data-auto-submit]` once the document is parsed.
 * The prototype's `submit` is called because a posted field named "submit" would shadow
 * `form.submit`. Without JavaScript the payer simply presses the visible button, and
 * `browser_javascript_enabled` stays `false`.
 */
export const AUTO_SUBMIT_JS = `(function () {
  'use strict';
  function fillBrowserInfo(form) {
    var values = ${BROWSER_VALUES_JS};
    for (var name in values) {
      var input = form.querySelector('input[name="' + name + '"]');
      if (input) input.value = String(values[name]);
    }
  }
  if (typeof document.querySelectorAll === 'function') {
    var infoForms = document.querySelectorAll('form[data-browser-info]');
    for (var i = 0; i < infoForms.length; i++) {
      try { fillBrowserInfo(infoForms[i]); } catch (e) { /* the payment goes on without them */ }
    }
  }
  var form = document.querySelector('form[data-auto-submit]');
  if (!form || form.getAttribute('data-submitted') === 'true') return;
  form.setAttribute('data-submitted', 'true');
  HTMLFormElement.prototype.submit.call(form);
})();
`;

export type LinkTarget = '_blank' | '_self' | '_parent' | '_top';
const LINK_TARGETS: ReadonlySet<string> = new Set(['_blank', '_self', '_parent', '_top']);

export interface AutoPostOptions {
  title?: string;
  /** Browsing context for the post, e.g. `_top` to leave an iframe. */
  target?: LinkTarget;
}

/** A page that posts `fields` to `url` by itself, with a visible Continue button as the fallback. */
export function renderAutoPostForm(
  url: string,
  fields: Readonly<Record<string, string>>,
  options: AutoPostOptions = {},
): string {
  const action = assertFormTarget(url);
  if (options.target !== undefined && !LINK_TARGETS.has(options.target)) {
    throw new TypeError('Link target must be one of _blank, _self, _parent, _top');
  }
  const target = options.target ? ` target="${escapeHtml(options.target)}"` : '';
  const inputs = Object.entries(fields)
    .map(([name, value]) => `  <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const title = options.title ?? 'Continuing your payment';
  const main = `<h1 id="title">${escapeHtml(title)}</h1>
<p id="help">You are being taken to the next step. If nothing happens, select Continue.</p>
<form method="post" action="${escapeHtml(action)}"${target} data-auto-submit aria-labelledby="title" aria-describedby="help">
${inputs}
  <div class="actions">
    <button type="submit">Continue</button>
  </div>
</form>`;
  return renderHostedPage({ title, main, scripts: [AUTO_SUBMIT_PATH] });
}
