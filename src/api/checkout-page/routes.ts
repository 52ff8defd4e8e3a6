/** The hosted payment page (`/checkout/:sessionId`) and what it posts to. */
import type Router from '@koa/router';
import { registerFaviconRoutes } from '../html/favicon';
import { ASSET_CACHE_CONTROL, CHECKOUT_ASSETS } from './assets';
import { registerMethodStepRoutes } from './method-step-routes';
import { navigate } from './navigate';
import { pageRouteContext, type CheckoutPageDeps } from './page-route-context';
import { registerPayRoute } from './pay-route';
import { showPage } from './show-page';
import { registerWalletSheetRoutes } from './wallet-sheet-routes';
import { registerWalletTokenRoute } from './wallet-token-route';

export type { CheckoutPageDeps, WalletSheetDeps } from './page-route-context';

export function registerCheckoutPageRoutes(router: Router, deps: CheckoutPageDeps): void {
  const c = pageRouteContext(deps);
  // The icon every hosted page links (these pages and the kit's) is served with the page's own assets.
  registerFaviconRoutes(router);
  for (const asset of [CHECKOUT_ASSETS.css, CHECKOUT_ASSETS.js, CHECKOUT_ASSETS.stepJs]) {
    router.get(asset.path, (ctx) => {
      ctx.type = asset.type;
      ctx.set('Cache-Control', ASSET_CACHE_CONTROL);
      ctx.body = asset.body;
    });
  }

  router.get(
    '/checkout/:sessionId',
    c.withSession(async (ctx, sessionId) => {
      const model = await deps.checkout.pageModel(sessionId);
      if (!model) return c.notFound(ctx);
      showPage(c, ctx, model);
    }),
  );

  registerPayRoute(router, c);
  registerMethodStepRoutes(router, c);
  if (deps.walletSheet) registerWalletSheetRoutes(router, c, deps.walletSheet);
  registerWalletTokenRoute(router, c);

  router.post(
    '/checkout/:sessionId/cancel',
    c.withSession(async (ctx, sessionId) => {
      const destination = await deps.checkout.cancel(sessionId, ctx.state.requestId);
      if (!destination) return c.notFound(ctx);
      navigate(ctx, destination, { prefix: c.prefix });
    }),
  );
}
