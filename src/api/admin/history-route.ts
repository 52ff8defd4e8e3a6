/**
 * `GET /admin/payments/:id/history[?as_of=<ISO timestamp|version>]`: the payment's events in order
 * and its state as of that point, the same JSON as `npm run gateway -- history <id> --json`.
 */
import type Router from '@koa/router';
import { paymentHistory } from '../../application/payment-history';
import type { EventStore } from '../../application/ports/event-store';
import { parseAsOf } from '../../domain/payment/history';
import { ApiError } from '../errors';
import type { AdminRouteRegistrar } from './routes';

export function historyRoute(deps: { store: EventStore }): AdminRouteRegistrar {
  return (router: Router) => {
    router.get('/payments/:id/history', async (ctx) => {
      const raw = ctx.query.as_of;
      if (Array.isArray(raw)) throw new ApiError(400, 100000, 'as_of: Give it once.');
      const asOf = raw === undefined ? null : parseAsOf(raw);
      if (raw !== undefined && !asOf) {
        throw new ApiError(400, 100000, 'as_of: Must be a stream version (0, 1, ...) or an ISO-8601 timestamp with a zone.');
      }
      const history = await paymentHistory(deps.store, ctx.params.id, asOf);
      if (!history) throw new ApiError(404, 100000, 'Payment not found.');
      ctx.body = history;
    });
  };
}
