/**
 * Pages that show where a payment stands rather than ask for anything: a payment being confirmed,
 * a session with nowhere to go back to, and the short stop on the way back to the shop when the
 * shop's page must open in another browsing context.
 */
import type { CheckoutPageModel } from '../../application/checkout/checkout-service';
import type { LinkTarget } from '../../domain/checkout/session-events';
import { assertFormTarget, escapeHtml } from '../html/page-kit';
import { isCredit, renderOrderSummary } from './order-summary';
import { renderDocument, renderMessagePage } from './render-page';

/** Seconds between reloads while the acquirer has not answered. */
export const PROCESSING_REFRESH_SECONDS = 3;

export function renderProcessingPage(model: CheckoutPageModel, now: Date, prefix: string): string {
  const what = isCredit(model) ? 'payout' : 'payment';
  const pageUrl = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}`;
  const main = `<div class="checkout">
${renderOrderSummary(model, now)}
<section class="pay message" aria-labelledby="title" aria-describedby="help">
  <div class="spinner" aria-hidden="true"></div>
  <h1 id="title">We are confirming your ${what}</h1>
  <p id="help" role="status">This usually takes a few seconds. This page updates by itself: please do not close it or pay again.</p>
  <p><a href="${escapeHtml(pageUrl)}">Check again now</a></p>
</section>
</div>`;
  return renderDocument({
    title: `Confirming your ${what}`,
    prefix,
    shopName: model.merchantName,
    main,
    refreshSeconds: PROCESSING_REFRESH_SECONDS,
  });
}

export function renderClosedPage(closed: { title: string; message: string }, prefix: string, shopName?: string): string {
  return renderMessagePage({ title: closed.title, message: closed.message, prefix, shopName });
}

/** `shop.example` for `https://shop.example/return?x=1`: what the payer will see in the address bar. */
export function siteOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/**
 * The way back to the shop when its page must open in another browsing context (`_blank`, or
 * `_parent`/`_top` to leave the shop's iframe). A link, not a GET form: a form would rebuild the
 * return URL's query from its inputs and re-encode the merchant's own parameters, where the link
 * goes to the URL exactly as built. The page script follows it at once; browsers that block that
 * without a click (a new tab, or an iframe navigating its parent) leave the visible Continue link
 * for the payer.
 */
export function renderReturningPage(input: { url: string; target: LinkTarget; prefix: string; shopName?: string }): string {
  const href = assertFormTarget(input.url);
  const shop = input.shopName?.trim() || siteOf(input.url);
  const title = `Returning to ${shop}…`;
  const main = `<section class="message" aria-labelledby="title" aria-describedby="help">
  <h1 id="title">${escapeHtml(title)}</h1>
  <p id="help">You are being taken back to the shop. If nothing happens, select Continue.</p>
  <p><a class="button primary" href="${escapeHtml(href)}" target="${escapeHtml(input.target)}" data-auto-follow data-return-link>Continue</a></p>
</section>`;
  return renderDocument({ title, prefix: input.prefix, shopName: input.shopName, main });
}
