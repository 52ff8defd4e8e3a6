/** The operators' `/admin` API: each operator feature adds its routes here. */
import { CALLBACK_DELIVERIES_PROJECTION } from '../../../projections/callback-deliveries/module';
import { LEDGER_PROJECTION } from '../../../projections/ledger/module';
import { registerCallbackAdminRoutes } from '../../api/admin/callbacks-route';
import { chainRoute } from '../../api/admin/chain-route';
import { registerClockAdminRoutes } from '../../api/admin/clock-route';
import { historyRoute } from '../../api/admin/history-route';
import { registerLedgerAdminRoutes } from '../../api/admin/ledger-route';
import type { AdminRouteRegistrar } from '../../api/admin/routes';
import type { Gateway, GatewayHttpParts } from '../gateway';

export function adminRoutes({ store, notifier, clock, readModels, testClock }: Gateway, parts: GatewayHttpParts): AdminRouteRegistrar[] {
  return [
    (router) =>
      registerCallbackAdminRoutes(router, {
        store,
        // A listing of up to a thousand deliveries still takes milliseconds: not on this thread.
        queries: parts.callbackOverview,
        notifier,
        clock,
        catchUp: () => readModels.catchUpToHead(2000, [CALLBACK_DELIVERIES_PROJECTION]),
      }),
    (router) => registerLedgerAdminRoutes(router, { ledger: parts.ledgerReports, catchUp: () => readModels.catchUpToHead(2000, [LEDGER_PROJECTION]) }),
    historyRoute({ store }),
    chainRoute({ store }),
    (router) => registerClockAdminRoutes(router, { control: testClock, clock: parts.sandboxClock }),
  ];
}
