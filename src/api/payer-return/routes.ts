/**
 * The payer's way back to the gateway from any connector's page (an ACS, a provider's redirect
 * page): `/payments/:id/3ds-return`. What the browser sent is handed to the payment's connector as
 * it arrived, for the connector to verify; then the payer goes on to the merchant (S2S:
 * `term_url_3ds`; Checkout: where the session says).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { CheckoutService } from '../../application/checkout/checkout-service';
import type { PaymentService, RawPayerReturn } from '../../application/payments';
import { s2sCardReturnUrl } from '../../domain/callback/return-url';
import { DomainError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { ProtocolMapping } from '../../domain/merchant/protocol-mapping';
import type { BrowserAttributes } from '../../domain/payment/events';
import type { ExistingPayment } from '../../domain/payment/state';
import type { LinkTarget } from '../../domain/checkout/session-events';
import { gatewayPathPrefix, navigate } from '../checkout-page/navigate';
import { AUTO_SUBMIT_JS } from '../html/auto-post';
import { browserAttributesFrom } from '../html/browser-info';
import { AUTO_SUBMIT_PATH, HOSTED_PAGE_CSP, escapeHtml, renderHostedPage } from '../html/page-kit';

export interface PayerReturnDeps {
  payments: PaymentService;
  /** Where the payer of a Checkout payment goes after the connector's page. */
  checkout: CheckoutService;
  /**
   * The merchant's password (return URL hash), return-parameter choices and Override Link Target,
   * as they are now.
   */
  merchants: {
    accountById(
      merchantId: string,
    ): Promise<{ name: string; password: string; protocolMapping: ProtocolMapping; overrideLinkTarget?: LinkTarget | null } | undefined>;
  };
  baseUrl: string;
}

export function html(ctx: Koa.Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', HOSTED_PAGE_CSP);
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
  ctx.body = body;
}

export function errorPage(ctx: Koa.Context, status: number, message: string): void {
  html(ctx, status, renderHostedPage({ title: 'Payment step not available', main: `<h1>Payment step not available</h1>\n<p>${escapeHtml(message)}</p>` }));
}

/** String fields of the query and of a form body, as the browser sent them. */
export function rawReturnOf(ctx: Koa.Context): RawPayerReturn {
  const strings = (source: unknown): Record<string, string> =>
    Object.fromEntries(Object.entries(source && typeof source === 'object' ? source : {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { query: strings(ctx.query), body: strings((ctx.request as { body?: unknown }).body) };
}

/** What the payer's browser said about itself when it posted a payer-facing page's form. */
export function browserOf(ctx: Koa.Context, raw: RawPayerReturn): BrowserAttributes | undefined {
  return browserAttributesFrom(
    { userAgent: ctx.get('User-Agent'), accept: ctx.get('Accept'), acceptLanguage: ctx.get('Accept-Language') },
    (name) => raw.body[name] ?? raw.query[name],
  );
}

/**
 * Sends the payer to the merchant's `term_url_3ds` with `payment_id`, `trans_id`, `order_id`, `hash`
 * and the merchant's return parameters (return-url.ts); without one, a page saying how it ended.
 * The link target is the MID's Override Link Target, else the SALE's `term_url_target`: `_blank`,
 * `_parent` and `_top` get the "Returning to…" page with its Continue link, which leaves the shop's
 * iframe (or opens a tab), exactly as Checkout does. A Checkout payer goes where its session says
 * instead (checkout-page/navigate.ts).
 */
export async function sendPayerBack(ctx: Koa.Context, deps: PayerReturnDeps, payment: ExistingPayment): Promise<void> {
  if (payment.channel === 'checkout') {
    // The session decides: the shop's return URL, or the hosted page again to retry after a decline.
    const shop = await deps.merchants.accountById(payment.merchantId);
    return navigate(ctx, await deps.checkout.afterPayerAction(payment), { prefix: gatewayPathPrefix(deps.baseUrl), shopName: shop?.name });
  }
  const merchant = await deps.merchants.accountById(payment.merchantId);
  // S2S APM: the SALE's return_url as the merchant gave it (the outcome follows by callback and status lookup).
  const apm = payment.channel === 's2s_apm';
  const url = apm ? (payment.method?.returnUrl ?? null) : merchant ? s2sCardReturnUrl(payment, merchant) : null;
  if (!url) {
    const outcome = payment.status === 'DECLINED' ? 'was declined' : 'is complete';
    html(ctx, 200, renderHostedPage({ title: 'Payment finished', main: `<h1>Your payment ${outcome}</h1>` }));
    return;
  }
  const target = merchant?.overrideLinkTarget ?? (apm ? (payment.method?.returnUrlTarget as LinkTarget | undefined) : payment.termUrlTarget) ?? null;
  navigate(ctx, { kind: 'merchant', url, target }, { prefix: gatewayPathPrefix(deps.baseUrl), shopName: merchant?.name });
}

export function registerPayerReturnRoutes(router: Router, deps: PayerReturnDeps): void {
  router.get(AUTO_SUBMIT_PATH, (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = AUTO_SUBMIT_JS;
  });

  router.register('/payments/:id/3ds-return', ['GET', 'POST'], async (ctx) => {
    const paymentId = ctx.params.id;
    if (!isUuid(paymentId)) return errorPage(ctx, 400, 'This verification answer is not valid.');
    const raw = rawReturnOf(ctx);
    let payment: ExistingPayment;
    try {
      payment = await deps.payments.completePayerAction(paymentId, raw, ctx.state.requestId, browserOf(ctx, raw));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'payer_return_invalid') return errorPage(ctx, 400, 'This verification answer is not valid.');
      if (error instanceof DomainError) return errorPage(ctx, 404, 'This payment does not exist.');
      throw error;
    }
    await sendPayerBack(ctx, deps, payment);
  });
}
