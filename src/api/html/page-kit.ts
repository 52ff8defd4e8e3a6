/**
 * The HTML kit every payer-facing page shares (hosted payment page, payer return, sandbox
 * simulator): one stylesheet, one CSP, escaping and safe form targets. Pure functions returning
 * complete documents; every interpolated value goes through escapeHtml because much of it comes
 * from the payer's browser or a merchant's request.
 */

import { BROWSER_FIELD_DEFAULTS } from './browser-info';
import { htmlDocument } from './document';
import { escapeHtml } from './escape';
import { faviconLinks } from './favicon';

export { escapeHtml };

/**
 * Path the API serves AUTO_SUBMIT_JS from (with `Content-Type: text/javascript`): the one script of
 * the hosted pages, since their CSP forbids inline script.
 */
export const AUTO_SUBMIT_PATH = '/assets/auto-submit.js';

/**
 * Content-Security-Policy to send with every hosted page. No inline script is allowed, which is why
 * the auto-post page loads /assets/auto-submit.js. Inline styles are allowed so each page can carry
 * its own small stylesheet. form-action admits any http(s) target because forms post on to merchant
 * and acquirer URLs (and some browsers apply it to the redirect that follows a post); it still blocks
 * javascript: actions. frame-ancestors is left open on purpose: merchants may embed hosted pages in
 * an iframe (see Override Link Target).
 */
export const HOSTED_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self' https: http:",
  "base-uri 'none'",
].join('; ');

/**
 * Refuses anything a form must not post to: only absolute http(s) URLs and same-origin paths pass.
 * Escaping alone would not stop `javascript:` from running when the form is submitted.
 */
export function assertFormTarget(url: string): string {
  if (typeof url === 'string' && /^\/(?![/\\])/.test(url)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('Form target must be an absolute http(s) URL or a path');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TypeError('Form target must be an absolute http(s) URL or a path');
  }
  return url;
}

const STYLES = `
  :root { color-scheme: light dark; --fg: #1b1f24; --bg: #f4f5f7; --card: #ffffff; --muted: #57606a;
          --accent: #0b5cad; --accent-fg: #ffffff; --border: #d0d7de; }
  @media (prefers-color-scheme: dark) {
    :root { --fg: #e6edf3; --bg: #0d1117; --card: #161b22; --muted: #9da7b3; --accent: #4493f8;
            --accent-fg: #0d1117; --border: #30363d; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
         padding: 1rem; background: var(--bg); color: var(--fg);
         font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: 100%; max-width: 26rem; background: var(--card); border: 1px solid var(--border);
         border-radius: 12px; padding: 1.5rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  p { margin: 0 0 1rem; color: var(--muted); }
  p.paying { color: var(--fg); font-size: 1.0625rem; overflow-wrap: anywhere; }
  p.paying [data-amount] { white-space: nowrap; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 0 0 1.25rem; }
  dt { color: var(--muted); }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }
  button { flex: 1 1 8rem; min-height: 2.75rem; padding: 0.6rem 1rem; font: inherit; font-weight: 600;
           border-radius: 8px; border: 1px solid var(--accent); cursor: pointer;
           background: var(--accent); color: var(--accent-fg); }
  button.secondary { background: transparent; color: var(--fg); border-color: var(--border); }
  button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  .badge { display: inline-block; font-size: 0.75rem; font-weight: 600; letter-spacing: 0.04em;
           text-transform: uppercase; color: var(--muted); border: 1px solid var(--border);
           border-radius: 999px; padding: 0.1rem 0.6rem; margin-bottom: 0.75rem; }
`;

/** The document around a hosted page's `<main>` content. `scripts` are same-origin paths. */
export function renderHostedPage(options: { title: string; main: string; scripts?: string[] }): string {
  const head = { title: options.title, icons: faviconLinks(), inlineStyle: STYLES, scripts: options.scripts };
  return htmlDocument(head, `<main>\n${options.main}\n</main>`);
}

/**
 * Hidden `browser_*` inputs for a form marked `data-browser-info`: the page script fills them in,
 * and the gateway records them with the payment when the form comes back.
 */
export function browserInfoInputs(): string {
  return Object.entries(BROWSER_FIELD_DEFAULTS)
    .map(([name, value]) => `  <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
}
