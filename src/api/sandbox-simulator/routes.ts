/**
 * The sandbox acquirer's own pages, served by the gateway only where the sandbox connector is
 * configured: its 3-D Secure ACS and its provider redirect page. They stand where an issuer's or a
 * provider's site would, so they speak the sandbox's wire (signed PaReq, signed links) and send the
 * payer back to whatever return address the gateway gave the acquirer. Everything arriving from a
 * browser is untrusted until its signature verifies.
 */
import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { verifyPaReq, verifyRedirectSig } from '../../adapters/connectors/sandbox/transformers';
import { DomainError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { ExistingPayment } from '../../domain/payment/state';
import { errorPage, html, rawReturnOf, sendPayerBack, type PayerReturnDeps } from '../payer-return/routes';
import { renderAcsPage } from './acs-page';
import { renderRedirectPage } from './redirect-page';

export interface SandboxSimulatorDeps extends PayerReturnDeps {
  sandboxSecret: Buffer;
}

/** The address pages issued before links named their return address sent the payer back to. */
const legacyReturnUrl = (baseUrl: string, paymentId: string) => `${baseUrl}/payments/${paymentId}/3ds-return`;

export function registerSandboxSimulatorRoutes(router: Router, deps: SandboxSimulatorDeps): void {
  const acs = acsPage(deps);
  router.get('/sandbox/acs', acs);
  router.post('/sandbox/acs', acs);
  router.register('/sandbox/redirect/:id', ['HEAD', 'GET', 'POST'], redirectPage(deps));
  // Pages rendered by the previous release post the payer's decision here: on to the gateway's return, body and all.
  router.post('/sandbox/redirect/:id/complete', (ctx) => {
    const paymentId = ctx.params.id;
    if (!isUuid(paymentId)) return errorPage(ctx, 400, 'This payment link is not valid.');
    ctx.status = 307;
    ctx.redirect(legacyReturnUrl(deps.baseUrl, paymentId));
  });
}

/** The payment a verified page is about; a page of a payment already decided sends the payer on. */
async function awaiting(ctx: Koa.Context, deps: SandboxSimulatorDeps, paymentId: string, phase: ExistingPayment['phase']): Promise<ExistingPayment | null> {
  let payment: ExistingPayment;
  try {
    payment = await deps.payments.current(paymentId);
  } catch (error) {
    if (error instanceof DomainError) {
      errorPage(ctx, 404, 'This payment does not exist.');
      return null;
    }
    throw error;
  }
  if (payment.phase === phase) return payment;
  await sendPayerBack(ctx, deps, payment);
  return null;
}

/** The shop the payer is paying, as the merchant is named now. */
const shopNameOf = async (deps: SandboxSimulatorDeps, payment: ExistingPayment): Promise<string | undefined> =>
  (await deps.merchants.accountById(payment.merchantId))?.name;

/** The 3-D Secure ACS: the payer's challenge for a payment awaiting it. */
function acsPage(deps: SandboxSimulatorDeps): RouterMiddleware {
  return async (ctx) => {
    const raw = rawReturnOf(ctx);
    // The fields come as one set: posted ones, else the link's query (the ACS address carries them too).
    const fields = raw.body.PaReq !== undefined ? raw.body : raw.query;
    const paReq = fields.PaReq;
    // Clients may post PaReq and TermUrl alone (MD empty or absent): the signed PaReq names the payment.
    const md = fields.MD || undefined;
    const payload = paReq ? verifyPaReq(deps.sandboxSecret, paReq) : null;
    // The signed PaReq names the payment; MD, when a client sends it, must name the same one.
    if (!payload || (md !== undefined && payload.paymentId !== md)) return errorPage(ctx, 400, 'This verification link is not valid.');
    const payment = await awaiting(ctx, deps, payload.paymentId, 'awaiting_3ds');
    if (!payment) return;
    html(
      ctx,
      200,
      renderAcsPage({
        // Only the return address the acquirer was given, whatever TermUrl the browser sent.
        termUrl: payload.termUrl ?? legacyReturnUrl(deps.baseUrl, payment.paymentId),
        paReq: paReq!,
        md: payment.paymentId,
        amount: payment.amount,
        currency: payment.currency,
        cardMask: payment.card?.mask ?? '',
        shopName: await shopNameOf(deps, payment),
      }),
    );
  };
}

/** The provider redirect page: the payer approves or declines a payment awaiting them. */
function redirectPage(deps: SandboxSimulatorDeps): RouterMiddleware {
  return async (ctx) => {
    const paymentId = ctx.params.id;
    const raw = rawReturnOf(ctx);
    const sig = raw.body.sig ?? raw.query.sig ?? '';
    const returnUrl = raw.body.return ?? raw.query.return ?? null;
    if (!isUuid(paymentId) || !verifyRedirectSig(deps.sandboxSecret, paymentId, returnUrl, sig)) {
      return errorPage(ctx, 400, 'This payment link is not valid.');
    }
    const payment = await awaiting(ctx, deps, paymentId, 'awaiting_redirect');
    if (!payment) return;
    html(
      ctx,
      200,
      renderRedirectPage({
        completionUrl: returnUrl ?? legacyReturnUrl(deps.baseUrl, paymentId),
        signature: sig,
        ...(returnUrl ? { returnUrl } : {}),
        amount: payment.amount,
        currency: payment.currency,
        shopName: await shopNameOf(deps, payment),
      }),
    );
  };
}
