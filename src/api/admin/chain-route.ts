/** `GET /admin/chains/:id`: a scheduled chain explained, the same JSON as `npm run gateway -- chain <id> --json`. */
import type Router from '@koa/router';
import { chainReport } from '../../application/schedules/chain-report';
import type { EventStore } from '../../application/ports/event-store';
import { ApiError } from '../errors';
import type { AdminRouteRegistrar } from './routes';

export function chainRoute(deps: { store: EventStore }): AdminRouteRegistrar {
  return (router: Router) => {
    router.get('/chains/:id', async (ctx) => {
      const report = await chainReport(deps.store, ctx.params.id);
      if (!report) throw new ApiError(404, 100000, 'Scheduled chain not found.');
      ctx.body = report;
    });
  };
}
