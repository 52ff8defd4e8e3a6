/**
 * The operators' dashboard under `/dashboard`: sign-in with the admin token, then payments,
 * callbacks, merchants, analytics and health (docs/operations.md). Pages are rendered on the
 * server; the one script and the stylesheet are served here. Every page and action checks its
 * session itself (guard.ts) before reading anything.
 */
import type Router from '@koa/router';
import { DASHBOARD_CSS, DASHBOARD_JS } from './assets';
import type { DashboardDeps } from './deps';
import { createGuard } from './guard';
import { SCRIPT_PATH, STYLE_PATH } from './html';
import { registerAnalyticsPages } from './pages/analytics';
import { registerCallbackPages } from './pages/callbacks';
import { registerHealthPages } from './pages/health';
import { registerMerchantPages } from './pages/merchants';
import { registerMerchantWalletPages } from './pages/merchant-wallets';
import { registerPaymentPages } from './pages/payments';
import { registerSignIn } from './pages/sign-in';
import { DashboardSessions } from './session';

export type { DashboardDeps } from './deps';

/** Paths served without a session: the sign-in page and what every page loads. */
export const PUBLIC_DASHBOARD_PATHS: readonly string[] = ['/dashboard', '/dashboard/sign-in', STYLE_PATH, SCRIPT_PATH];

export function registerDashboardRoutes(router: Router, deps: DashboardDeps): void {
  const sessions = new DashboardSessions({ key: deps.sessionKey, adminToken: deps.adminToken, now: deps.now });
  const guard = createGuard({ sessions, environment: deps.environment, secureAlways: deps.publicBaseUrl.startsWith('https:') });

  const asset = (path: string, type: string, body: string) =>
    router.get(path, (ctx) => {
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = body;
    });
  asset(STYLE_PATH, 'text/css; charset=utf-8', DASHBOARD_CSS);
  asset(SCRIPT_PATH, 'text/javascript; charset=utf-8', DASHBOARD_JS);

  registerSignIn(router, guard, deps);
  // /dashboard/merchants/new before /dashboard/merchants/:id: the router tries routes in order.
  registerMerchantPages(router, guard, deps);
  registerMerchantWalletPages(router, guard, deps);
  registerPaymentPages(router, guard, deps);
  registerCallbackPages(router, guard, deps);
  registerAnalyticsPages(router, guard, deps);
  registerHealthPages(router, guard, deps);
}
