/** What an alternative method's step on the page sends: the one-time code typed, and the poll of whether the payer still waits. */
import type Router from '@koa/router';
import { renderMethodStepPage } from './method-step-page';
import { navigate, sendPage } from './navigate';
import type { PageRouteContext } from './page-route-context';
import { formReader } from './pay-form';

export function registerMethodStepRoutes(router: Router, c: PageRouteContext): void {
  const { deps, prefix, clock } = c;
  /** The one-time code of an alternative method's step, typed on the page. */
  router.post(
    '/checkout/:sessionId/otp',
    c.withSession(async (ctx, sessionId) => {
      const field = formReader((ctx.request as { body?: unknown }).body);
      const otp = (field('otp') ?? '').trim().slice(0, 32);
      const outcome = await deps.checkout.submitOtp(sessionId, otp, ctx.state.requestId);
      if (!outcome) return c.notFound(ctx);
      if (outcome.kind === 'wrong_code') {
        const model = await deps.checkout.pageModel(sessionId);
        if (!model) return c.notFound(ctx);
        return sendPage(ctx, 422, renderMethodStepPage(model, outcome.step, clock.now(), prefix, true));
      }
      navigate(ctx, outcome.next, { prefix });
    }),
  );

  /**
   * What the step's script asks every few seconds: whether the payer still waits on this page, and
   * how long a QR code has left by the gateway's clock. Never cached.
   */
  router.get(
    '/checkout/:sessionId/status',
    c.withSession(async (ctx, sessionId) => {
      const status = await deps.checkout.pageStatus(sessionId);
      ctx.set('Cache-Control', 'no-store');
      if (!status) {
        ctx.status = 404;
        ctx.body = { waiting: false };
        return;
      }
      ctx.body = { waiting: status.waiting, ...(status.expiresIn !== undefined ? { expires_in: status.expiresIn } : {}) };
    }),
  );
}
