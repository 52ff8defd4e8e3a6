/** `POST /checkout/:sessionId/pay`: the payer submitted the form, for the card or for an alternative method. */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { CheckoutPageModel } from '../../application/checkout/checkout-service';
import { CARD_METHOD } from '../../domain/checkout/session-methods';
import type { BrowserAttributes } from '../../domain/payment/events';
import { asksBillingAddress } from './billing-fields';
import { keepTyped } from './kept-fields';
import { readMethodFields } from './method-form';
import { navigate, sendPage } from './navigate';
import { browserOf, formAllowed, type PageRouteContext } from './page-route-context';
import { formReader, readPayForm, type FormReader } from './pay-form';
import { showPage } from './show-page';

interface Submitted {
  sessionId: string;
  /** The page as it stood before the submit: the form comes back from it when refused. */
  before: CheckoutPageModel;
  field: FormReader;
  browser: BrowserAttributes | undefined;
}

export function registerPayRoute(router: Router, c: PageRouteContext): void {
  router.post(
    '/checkout/:sessionId/pay',
    c.withSession(async (ctx, sessionId) => {
      const before = await c.deps.checkout.pageModel(sessionId);
      if (!before) return c.notFound(ctx);
      // Nothing to pay any more (paid, expired, in progress...): the payer goes where the session says.
      if (before.view !== 'form' || !formAllowed(before)) return showPage(c, ctx, before);
      const field = formReader((ctx.request as { body?: unknown }).body);
      const submitted = { sessionId, before, field, browser: browserOf(ctx, field) };
      const method = field('method')?.trim() || CARD_METHOD;
      if (method !== CARD_METHOD) return payWithMethod(c, ctx, submitted, method);
      return payWithCard(c, ctx, submitted);
    }),
  );
}

/** An alternative method: only the fields the page asked for it are read. */
async function payWithMethod(c: PageRouteContext, ctx: Koa.Context, { sessionId, before, field, browser }: Submitted, method: string): Promise<void> {
  const { prefix, clock } = c;
  const typed = readMethodFields(field, before.methods.find((m) => m.method === method));
  const outcome = await c.deps.checkout.pay(sessionId, { method, methodFields: typed, payerIp: ctx.request.ip, browser }, ctx.state.requestId);
  if (!outcome) return c.notFound(ctx);
  if (outcome.kind === 'invalid_method') {
    const page = c.formPage({ model: before, now: clock.now(), prefix, method, methodProblems: outcome.problems, methodTyped: typed });
    return sendPage(ctx, 422, page);
  }
  if (outcome.kind === 'invalid') return sendPage(ctx, 422, c.formPage({ model: before, now: clock.now(), prefix, problems: outcome.problems }));
  return navigate(ctx, outcome.next, { prefix, shopName: before.merchantName });
}

async function payWithCard(c: PageRouteContext, ctx: Koa.Context, { sessionId, before, field, browser }: Submitted): Promise<void> {
  const { prefix, clock } = c;
  const form = readPayForm(field, {
    payerIp: ctx.request.ip,
    browser,
    sessionCountry: before.session.billingAddress.country,
    asksBillingAddress: asksBillingAddress(before),
  });
  const outcome = form.problems.length
    ? ({ kind: 'invalid', problems: form.problems } as const)
    : await c.deps.checkout.pay(sessionId, form.input, ctx.state.requestId);
  if (!outcome) return c.notFound(ctx);
  if (outcome.kind === 'invalid') {
    return sendPage(ctx, 422, c.formPage({ model: before, now: clock.now(), prefix, kept: form.kept, problems: outcome.problems, method: CARD_METHOD }));
  }
  if (outcome.kind === 'invalid_method') return sendPage(ctx, 422, c.formPage({ model: before, now: clock.now(), prefix, method: CARD_METHOD }));
  // Only an attempt that may bring the payer back to this form (a decline, a verification) keeps anything.
  if (outcome.next.kind === 'page' || outcome.next.kind === 'payer_action') {
    keepTyped(ctx, { prefix, sessionId, secure: c.secureCookies || ctx.secure }, form.kept);
  }
  navigate(ctx, outcome.next, { prefix, shopName: before.merchantName });
}
