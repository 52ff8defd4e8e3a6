/**
 * The sandbox APM provider's page, served by the gateway only where the `sandbox-apm` connector is
 * configured: `GET /sandbox/provider/{trans_id}` shows the method's flow, and a `POST` there with
 * `decision=approve|decline` (plus the one-time code of sb-otp and any field the provider collects)
 * decides the payment. The decision reaches the gateway as the provider's signed notification
 * (SandboxApmProvider); the payer then goes back through the gateway's return address, signed, as
 * from any provider's page. The page is addressed by the payment alone, as a provider's portal is:
 * it is the sandbox, where tests and operators decide payments this way.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { SANDBOX_OTP } from '../../adapters/connectors/sandbox-apm/catalogue';
import type { SandboxMethod } from '../../adapters/connectors/sandbox-apm/sandbox-method';
import type { SandboxApmProvider } from '../../adapters/connectors/sandbox-apm/provider';
import { payerReturnUrl as providerReturnUrl, verifiedPageReturn } from '../../adapters/connectors/sandbox-apm/transformers';
import { payerReturnUrl } from '../../application/payments';
import { isUuid } from '../../domain/ids';
import { fieldsToCollect, methodParameterProblems, type MethodField } from '../../domain/payment/method-fields';
import { errorPage, html, rawReturnOf, type PayerReturnDeps } from '../payer-return/routes';
import { renderDecidedPage, renderProviderPage } from './provider-page';

export interface ProviderRouteDeps extends Pick<PayerReturnDeps, 'baseUrl'> {
  provider: SandboxApmProvider;
  secret: Buffer;
}

const UNDECIDED = new Set(['initiated', 'outcome_unknown', 'awaiting_redirect', 'awaiting_provider']);

/**
 * What the payer left out of what the provider collects, or got wrong (checked with the method's
 * own rules, each collected field now required); null when all is there.
 */
function collectedProblem(method: SandboxMethod, collect: readonly MethodField[], form: Record<string, string>): string | null {
  const top = new Set(collect.map((f) => f.name.split('[')[0]));
  if (top.size === 0) return null;
  const values: Record<string, unknown> = {};
  for (const field of collect) {
    const value = form[field.name];
    if (value === undefined || value === '') continue;
    const nested = /^([^[]+)\[([^\]]+)\]$/.exec(field.name);
    if (nested) values[nested[1]] = { ...((values[nested[1]] as Record<string, string>) ?? {}), [nested[2]]: value };
    else values[field.name] = value;
  }
  const asked = { ...method, fields: method.fields.filter((f) => top.has(f.name)).map((f) => ({ ...f, presence: 'required' as const })) };
  const [problem] = methodParameterProblems(asked, values);
  if (!problem) return null;
  const label = (name: string) => method.fields.find((f) => f.name === name)?.label ?? name;
  // Shown to the payer in the page's words, not the API's.
  return problem.replace(/^parameters\[([^\]]+)\](?:\[([^\]]+)\])?: This value should not be blank\.$/, (_m, name: string) => `Enter the ${label(name)}.`).replace(/^parameters/, '');
}

export function registerSandboxProviderRoutes(router: Router, deps: ProviderRouteDeps): void {
  const page = async (ctx: Koa.Context) => {
    const paymentId = ctx.params.id;
    const found = isUuid(paymentId) ? await deps.provider.find(paymentId) : null;
    if (!found) return errorPage(ctx, 404, 'This payment does not exist.');
    const { payment, method } = found;
    const raw = rawReturnOf(ctx);
    // Where the payer goes back to: the address the link named (signed), else the gateway's own.
    const back = verifiedPageReturn(deps.secret, paymentId, raw.query.return, raw.query.sig) ?? payerReturnUrl(deps.baseUrl, paymentId);
    if (!UNDECIDED.has(payment.phase)) return html(ctx, 200, renderDecidedPage(payment.status));
    const collect = fieldsToCollect(method, payment.method?.parameters ?? null, { phone: payment.payer.phone, country: payment.payer.country });
    const render = (status: number, problem?: string) =>
      html(
        ctx,
        status,
        renderProviderPage({
          action: `${deps.baseUrl}/sandbox/provider/${encodeURIComponent(paymentId)}${ctx.querystring ? `?${ctx.querystring}` : ''}`,
          paymentId,
          orderId: payment.orderId,
          amount: payment.amount,
          currency: payment.currency,
          method: payment.method!.brand,
          kind: method.kind,
          page: method.page,
          ...(payment.payerAction?.params.qr_code ? { qrPayload: Buffer.from(payment.payerAction.params.qr_code, 'base64').toString('utf8') } : {}),
          ...(method.page === 'otp' ? { otp: SANDBOX_OTP, phone: String(payment.method?.parameters.phone ?? payment.payer.phone ?? '') || undefined } : {}),
          ...(payment.providerInstructions ? { instructions: payment.providerInstructions } : {}),
          collect,
          ...(problem ? { problem } : {}),
        }),
      );
    if (ctx.method !== 'POST') return render(200);

    const decision = raw.body.decision;
    if (decision !== 'approve' && decision !== 'decline') return render(400, 'Choose Approve or Decline.');
    if (decision === 'approve') {
      if (method.page === 'otp' && raw.body.otp !== SANDBOX_OTP) return render(400, 'The one-time code is not correct.');
      const problem = collectedProblem(method, collect, raw.body);
      if (problem) return render(400, problem);
    }
    await deps.provider.decide(found, decision, ctx.state.requestId);
    ctx.status = 303;
    ctx.redirect(providerReturnUrl(deps.secret, back, paymentId, decision));
  };
  router.get('/sandbox/provider/:id', page);
  router.post('/sandbox/provider/:id', page);
}
