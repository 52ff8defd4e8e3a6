/**
 * The document every hosted payment page shares: the gateway's own stylesheet and script, the
 * shop's name, and the "Secured by the gateway" note. Pure functions returning HTML; every value
 * from a merchant or payer goes through escapeHtml.
 */
import { htmlDocument } from '../html/document';
import { faviconLinks } from '../html/favicon';
import { escapeHtml } from '../html/page-kit';
import { CHECKOUT_ASSETS } from './assets';

/**
 * Stricter than the other hosted pages: styles come from the gateway's stylesheet too, so no inline
 * style or script can run. form-action admits http(s) because the payer is sent on to the shop and
 * to the card issuer's verification page. connect-src admits the gateway alone: a method's step
 * asks its session's status there. frame-ancestors stays open: shops may embed the page.
 */
export const CHECKOUT_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self' https: http:",
  "base-uri 'none'",
].join('; ');

export const LOCK_ICON =
  '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 5V4.5a2 2 0 1 1 4 0V6H6Zm2 3a1.25 1.25 0 0 1 .75 2.25V12.5a.75.75 0 0 1-1.5 0v-1.25A1.25 1.25 0 0 1 8 9Z"/></svg>';

export const SECURED_NOTE = `<span class="secure">${LOCK_ICON}<span>Secured by the gateway</span></span>`;

export interface DocumentOptions {
  title: string;
  /** Path prefix of the gateway's public base URL ('' when it is served at the root). */
  prefix: string;
  /** Shown at the top; the page's first line of trust. */
  shopName?: string;
  /** The `<main>` content. */
  main: string;
  /** Reload after this many seconds (a payment being confirmed). */
  refreshSeconds?: number;
  /** Reload after this many seconds only where scripts do not run (a page whose script asks for news instead). */
  noscriptRefreshSeconds?: number;
  /** Further same-origin scripts (paths), after the page's own. */
  scripts?: string[];
  /** Without the page's own script (a page that only moves the payer on). */
  withoutPageScript?: boolean;
}

export const assetUrl = (prefix: string, asset: { path: string; version: string }): string => `${prefix}${asset.path}?v=${asset.version}`;

export function renderDocument(options: DocumentOptions): string {
  const seconds = (n: number): number => Math.max(1, Math.floor(n));
  const refresh = options.refreshSeconds
    ? [`<meta http-equiv="refresh" content="${seconds(options.refreshSeconds)}">`]
    : options.noscriptRefreshSeconds
      ? [`<noscript><meta http-equiv="refresh" content="${seconds(options.noscriptRefreshSeconds)}"></noscript>`]
      : [];
  const shop = options.shopName ? `<span class="shop">${escapeHtml(options.shopName)}</span>` : '<span class="shop">Secure payment</span>';
  const head = {
    title: options.title,
    meta: ['<meta name="format-detection" content="telephone=no">', ...refresh],
    icons: faviconLinks(options.prefix),
    stylesheets: [assetUrl(options.prefix, CHECKOUT_ASSETS.css)],
    scripts: [...(options.withoutPageScript ? [] : [assetUrl(options.prefix, CHECKOUT_ASSETS.js)]), ...(options.scripts ?? [])],
  };
  return htmlDocument(
    head,
    `<div class="shell">
<header class="topbar">
  ${shop}
  ${SECURED_NOTE}
</header>
<main id="main" class="card">
${options.main}
</main>
</div>`,
  );
}

/** A page with one message: a heading, a paragraph or two, and optionally one action. */
export function renderMessagePage(options: {
  title: string;
  message: string;
  prefix: string;
  shopName?: string;
  extra?: string;
  refreshSeconds?: number;
}): string {
  const main = `<section class="message" aria-labelledby="title">
  <h1 id="title">${escapeHtml(options.title)}</h1>
  <p>${escapeHtml(options.message)}</p>${options.extra ? `\n  ${options.extra}` : ''}
</section>`;
  return renderDocument({ title: options.title, prefix: options.prefix, shopName: options.shopName, main, refreshSeconds: options.refreshSeconds });
}

export function renderNotFoundPage(prefix: string): string {
  return renderMessagePage({
    title: 'Payment page not found',
    message: 'This payment link is not valid or no longer exists. Please go back to the shop and start the payment again.',
    prefix,
  });
}

/** Something on our side failed; the payer is told what to do, never what broke. */
export function renderUnavailablePage(prefix: string): string {
  return renderMessagePage({
    title: 'Payment temporarily unavailable',
    message: 'We could not load this payment right now. Please try again in a moment.',
    prefix,
  });
}
