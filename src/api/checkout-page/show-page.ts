import type Koa from 'koa';
import type { CheckoutPageModel } from '../../application/checkout/checkout-service';
import { typedBefore } from './kept-fields';
import { renderMethodStepPage } from './method-step-page';
import { navigate, sendPage } from './navigate';
import { formAllowed, type PageRouteContext } from './page-route-context';
import { renderUnavailablePage } from './render-page';
import { renderProcessingPage } from './status-pages';

/** The method the payer picked in the page's list (`?method=`): one of the session's, or ignored. */
const methodAsked = (ctx: Koa.Context): string | undefined => (typeof ctx.query.method === 'string' ? ctx.query.method.slice(0, 64) : undefined);

/** The session's page as it stands: the form, a wait, a method's step, or the payer is sent on. */
export function showPage(c: PageRouteContext, ctx: Koa.Context, model: CheckoutPageModel): void {
  const { prefix, clock } = c;
  switch (model.view) {
    case 'form': {
      if (!formAllowed(model)) return c.notFound(ctx);
      // After a decline the payer tries again: what they typed (never the card number or CVV) is still there.
      const kept = model.lastDecline ? typedBefore(ctx) : undefined;
      return sendPage(ctx, 200, c.formPage({ model, now: clock.now(), prefix, kept, method: methodAsked(ctx) }));
    }
    case 'processing':
      return sendPage(ctx, 200, renderProcessingPage(model, clock.now(), prefix));
    case 'method_step':
      if (!model.step) return sendPage(ctx, 500, renderUnavailablePage(prefix));
      return sendPage(ctx, 200, renderMethodStepPage(model, model.step, clock.now(), prefix));
    case 'elsewhere':
      if (!model.next) return sendPage(ctx, 500, renderUnavailablePage(prefix));
      return navigate(ctx, model.next, { prefix, shopName: model.merchantName });
  }
}
