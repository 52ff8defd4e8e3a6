/**
 * Sends the payer's browser where a Checkout session says it goes next: back to the shop, to the
 * hosted page again, to the card issuer's verification or the acquirer's redirect page, or to a
 * page saying how it ended when there is nowhere to go back to.
 */
import type Koa from 'koa';
import type { PayerDestination } from '../../application/checkout/checkout-service';
import { HOSTED_PAGE_CSP } from '../html/page-kit';
import { renderAutoPostForm } from '../html/auto-post';
import { endingText } from './messages';
import { CHECKOUT_PAGE_CSP } from './render-page';
import { GOOGLE_PAY_BUTTON_MARK } from './device-wallet-button';
import { googlePayPageCsp } from './device-wallet-script';
import { renderClosedPage, renderReturningPage } from './status-pages';

/** `/gw` for `https://host/gw/`: pages link to the gateway's paths under its public base URL. */
export function gatewayPathPrefix(baseUrl: string): string {
  try {
    return new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

export interface NavigateOptions {
  /** Path prefix of the gateway's public base URL ('' at the root). */
  prefix?: string;
  /** Named on the way back to the shop and on closing pages. */
  shopName?: string;
}

/**
 * A hosted payment page: HTML under the strict policy (Google's script allowed only on the page
 * showing Google Pay's button). Shops may frame it (url_target).
 */
export function sendPage(ctx: Koa.Context, status: number, body: string, csp: string = CHECKOUT_PAGE_CSP): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', csp === CHECKOUT_PAGE_CSP && body.includes(GOOGLE_PAY_BUTTON_MARK) ? googlePayPageCsp(csp) : csp);
  ctx.body = body;
}

function seeOther(ctx: Koa.Context, url: string): void {
  ctx.status = 303;
  ctx.redirect(url);
}

export function navigate(ctx: Koa.Context, destination: PayerDestination, options: NavigateOptions = {}): void {
  const prefix = options.prefix ?? '';
  switch (destination.kind) {
    case 'merchant':
      if (destination.target === null || destination.target === '_self') return seeOther(ctx, destination.url);
      return sendPage(ctx, 200, renderReturningPage({ url: destination.url, target: destination.target, prefix, shopName: options.shopName }));
    case 'page':
      return seeOther(ctx, destination.url);
    case 'payer_action': {
      const { action } = destination;
      if (action.kind === 'redirect') return seeOther(ctx, action.url);
      // The verification page expects a POST of its fields; that page carries its own inline styles.
      return sendPage(ctx, 200, renderAutoPostForm(action.url, action.params, { title: 'Verifying your card' }), HOSTED_PAGE_CSP);
    }
    case 'closed':
      return sendPage(ctx, 200, renderClosedPage(endingText(destination), prefix, options.shopName));
    default: {
      const unreachable: never = destination;
      return unreachable;
    }
  }
}
