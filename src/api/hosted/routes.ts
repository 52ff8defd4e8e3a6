/**
 * Payer-facing pages of the sandbox acquirer: the 3DS ACS simulator, the non-3DS redirect page, and
 * the gateway's return endpoints that complete the payment and send the payer back to the merchant.
 * Everything arriving from a browser is untrusted: PaReq and redirect links are signed.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { verifyPaReq, verifyRedirectSig } from '../../adapters/connectors/sandbox-connector';
import { DomainError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { ExistingPayment } from '../../domain/payment/state';
import type { PaymentService } from '../../application/payment-service';
import type { CheckoutService } from '../../application/checkout/checkout-service';
import { s2sCardReturnUrl } from '../../domain/callback/return-url';
import type { ProtocolMapping } from '../../domain/merchant/protocol-mapping';
import type { BrowserAttributes } from '../../domain/payment/events';
import { HOSTED_PAGE_CSP, escapeHtml, renderAcsPage, renderHostedPage } from './acs-page';
import { browserAttributesFrom } from './browser-info';
import { gatewayPathPrefix, navigate } from '../checkout-page/navigate';
import { AUTO_SUBMIT_JS, AUTO_SUBMIT_PATH, renderAutoPostForm, renderRedirectPage } from './redirect-page';

export interface HostedDeps {
  payments: PaymentService;
  /** Where the payer of a Checkout payment goes after the ACS or redirect page. */
  checkout: CheckoutService;
  /** The merchant's password (return URL hash) and return-parameter choices, as they are now. */
  merchants: {
    accountById(merchantId: string): Promise<{ name: string; password: string; protocolMapping: ProtocolMapping } | undefined>;
  };
  sandboxSecret: Buffer;
  baseUrl: string;
}

function html(ctx: Koa.Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', HOSTED_PAGE_CSP);
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
  ctx.body = body;
}

function errorPage(ctx: Koa.Context, status: number, message: string): void {
  html(
    ctx,
    status,
    renderHostedPage({
      title: 'Payment step not available',
      main: `<h1>Payment step not available</h1>\n<p>${escapeHtml(message)}</p>`,
    }),
  );
}

function param(ctx: Koa.Context, name: string): string | undefined {
  const body = (ctx.request as { body?: Record<string, unknown> }).body;
  const fromBody = body && typeof body === 'object' ? body[name] : undefined;
  const value = fromBody ?? ctx.query[name];
  return typeof value === 'string' ? value : undefined;
}

/** What the payer's browser said about itself when it posted a hosted page's form. */
function browserOf(ctx: Koa.Context): BrowserAttributes | undefined {
  return browserAttributesFrom(
    { userAgent: ctx.get('User-Agent'), accept: ctx.get('Accept'), acceptLanguage: ctx.get('Accept-Language') },
    (name) => param(ctx, name),
  );
}

/**
 * Sends the payer to the merchant's `term_url_3ds` with `payment_id`, `trans_id`, `order_id`, `hash`
 * and the merchant's return parameters (return-url.ts); without one, a page saying how it ended.
 * A Checkout payer goes where its session says instead (checkout-page/navigate.ts).
 */
async function sendPayerBack(ctx: Koa.Context, deps: HostedDeps, payment: ExistingPayment): Promise<void> {
  if (payment.channel === 'checkout') {
    // The session decides: the shop's return URL, or the hosted page again to retry after a decline.
    const shop = await deps.merchants.accountById(payment.merchantId);
    return navigate(ctx, await deps.checkout.afterPayerAction(payment), { prefix: gatewayPathPrefix(deps.baseUrl), shopName: shop?.name });
  }
  const merchant = await deps.merchants.accountById(payment.merchantId);
  const target = merchant ? s2sCardReturnUrl(payment, merchant) : null;
  if (!target) {
    const outcome = payment.status === 'DECLINED' ? 'was declined' : 'is complete';
    html(ctx, 200, renderHostedPage({ title: 'Payment finished', main: `<h1>Your payment ${outcome}</h1>` }));
    return;
  }
  ctx.status = 303;
  ctx.redirect(target);
}

export function registerHostedRoutes(router: Router, deps: HostedDeps): void {
  const expectedTermUrl = (paymentId: string) => `${deps.baseUrl}/payments/${paymentId}/3ds-return`;

  router.get(AUTO_SUBMIT_PATH, (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = AUTO_SUBMIT_JS;
  });

  const acs = async (ctx: Koa.Context) => {
    const paReq = param(ctx, 'PaReq');
    const md = param(ctx, 'MD');
    const payload = paReq ? verifyPaReq(deps.sandboxSecret, paReq) : null;
    if (!payload || payload.paymentId !== md) return errorPage(ctx, 400, 'This verification link is not valid.');
    let payment: ExistingPayment;
    try {
      payment = await deps.payments.current(payload.paymentId);
    } catch (error) {
      if (error instanceof DomainError) return errorPage(ctx, 404, 'This payment does not exist.');
      throw error;
    }
    if (payment.phase !== 'awaiting_3ds') {
      return sendPayerBack(ctx, deps, payment);
    }
    html(
      ctx,
      200,
      renderAcsPage({
        // Only the gateway's own return endpoint, whatever TermUrl the browser sent.
        termUrl: expectedTermUrl(payment.paymentId),
        paReq: paReq!,
        md: payment.paymentId,
        amount: payment.amount,
        currency: payment.currency,
        cardMask: payment.card.mask,
      }),
    );
  };
  router.get('/sandbox/acs', acs);
  router.post('/sandbox/acs', acs);

  router.post('/payments/:id/3ds-return', async (ctx) => {
    const paymentId = ctx.params.id;
    const paReq = param(ctx, 'PaReq');
    const payload = paReq ? verifyPaReq(deps.sandboxSecret, paReq) : null;
    if (!isUuid(paymentId) || !payload || payload.paymentId !== paymentId || param(ctx, 'MD') !== paymentId) {
      return errorPage(ctx, 400, 'This verification answer is not valid.');
    }
    const approved = param(ctx, 'PaRes') === 'approve';
    let payment: ExistingPayment;
    try {
      payment = await deps.payments.completePayerAction(paymentId, approved, ctx.state.requestId, browserOf(ctx));
    } catch (error) {
      if (error instanceof DomainError) return errorPage(ctx, 404, 'This payment does not exist.');
      throw error;
    }
    await sendPayerBack(ctx, deps, payment);
  });

  router.register('/sandbox/redirect/:id', ['HEAD', 'GET', 'POST'], async (ctx) => {
    const paymentId = ctx.params.id;
    const sig = param(ctx, 'sig') ?? '';
    if (!isUuid(paymentId) || !verifyRedirectSig(deps.sandboxSecret, paymentId, sig)) {
      return errorPage(ctx, 400, 'This payment link is not valid.');
    }
    let payment: ExistingPayment;
    try {
      payment = await deps.payments.current(paymentId);
    } catch (error) {
      if (error instanceof DomainError) return errorPage(ctx, 404, 'This payment does not exist.');
      throw error;
    }
    if (payment.phase !== 'awaiting_redirect') return sendPayerBack(ctx, deps, payment);
    html(
      ctx,
      200,
      renderRedirectPage({
        completionUrl: `${deps.baseUrl}/sandbox/redirect/${paymentId}/complete`,
        signature: sig,
        amount: payment.amount,
        currency: payment.currency,
      }),
    );
  });

  router.post('/sandbox/redirect/:id/complete', async (ctx) => {
    const paymentId = ctx.params.id;
    const sig = param(ctx, 'sig') ?? '';
    if (!isUuid(paymentId) || !verifyRedirectSig(deps.sandboxSecret, paymentId, sig)) {
      return errorPage(ctx, 400, 'This payment link is not valid.');
    }
    let payment: ExistingPayment;
    try {
      payment = await deps.payments.completePayerAction(
        paymentId,
        param(ctx, 'decision') === 'continue',
        ctx.state.requestId,
        browserOf(ctx),
      );
    } catch (error) {
      if (error instanceof DomainError) return errorPage(ctx, 404, 'This payment does not exist.');
      throw error;
    }
    await sendPayerBack(ctx, deps, payment);
  });
}

export { renderAutoPostForm };
