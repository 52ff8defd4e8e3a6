/**
 * Operators' view of merchant callbacks: list and inspect deliveries (every attempt with its status
 * code, latency and error; the exact body sent) and send one again.
 *
 *   GET  /admin/callbacks?payment_id=&merchant_id=&failed=true&limit=
 *   GET  /admin/callbacks/:delivery_id
 *   POST /admin/callbacks/:delivery_id/redeliver
 */
import type Router from '@koa/router';
import { requestRedelivery } from '../../application/callbacks/redelivery';
import type { Notifier } from '../../application/callbacks/notifier';
import type { CallbackDeliveriesReadModel } from '../../application/ports/callback-deliveries-read-model';
import type { Clock } from '../../application/ports/clock';
import type { EventStore } from '../../application/ports/event-store';
import { DomainError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import { ApiError, errors } from '../errors';

export interface CallbackAdminDeps {
  store: EventStore;
  queries: CallbackDeliveriesReadModel;
  notifier: Pick<Notifier, 'sendIfDue'>;
  clock: Clock;
  /** Waits until the read models include what was just written (read-your-writes). */
  catchUp(): Promise<unknown>;
}

const notFound = () => new ApiError(404, 100000, 'Callback delivery not found.');

function uuidParam(value: string | undefined, field: string): string {
  if (!value || !isUuid(value)) throw errors.invalid([errors.field(field, 'This is not a valid UUID.')]);
  return value.toLowerCase();
}

export function registerCallbackAdminRoutes(router: Router, deps: CallbackAdminDeps): void {
  router.get('/callbacks', async (ctx) => {
    const q = ctx.query as Record<string, string | undefined>;
    const fieldErrors = [];
    if (q.payment_id !== undefined && !isUuid(q.payment_id)) fieldErrors.push(errors.field('payment_id', 'This is not a valid UUID.'));
    if (q.merchant_id !== undefined && !isUuid(q.merchant_id)) fieldErrors.push(errors.field('merchant_id', 'This is not a valid UUID.'));
    if (q.failed !== undefined && q.failed !== 'true' && q.failed !== 'false') fieldErrors.push(errors.field('failed', 'must be true or false'));
    if (q.limit !== undefined && !/^(?:[1-9]\d{0,2}|1000)$/.test(q.limit)) fieldErrors.push(errors.field('limit', 'must be an integer in 1..1000'));
    if (fieldErrors.length) throw errors.invalid(fieldErrors);
    await deps.catchUp();
    const deliveries = await deps.queries.list({
      paymentId: q.payment_id?.toLowerCase(),
      merchantId: q.merchant_id?.toLowerCase(),
      failed: q.failed === 'true',
      limit: q.limit ? Number(q.limit) : undefined,
    });
    ctx.body = { deliveries };
  });

  router.get('/callbacks/:id', async (ctx) => {
    const id = uuidParam(ctx.params.id, 'delivery_id');
    await deps.catchUp();
    const found = await deps.queries.byId(id);
    if (!found) throw notFound();
    ctx.body = { ...found.delivery, body: found.body, attempts: found.attempts };
  });

  router.post('/callbacks/:id/redeliver', async (ctx) => {
    const id = uuidParam(ctx.params.id, 'delivery_id');
    try {
      const state = await requestRedelivery(deps, id, `admin-api ${ctx.ip}`);
      if (!state.exists) throw notFound();
      ctx.body = {
        delivery_id: state.deliveryId,
        status: state.status,
        attempts: state.attempts,
        last_status_code: state.lastStatusCode,
        last_error: state.lastError,
        next_attempt_at: state.nextAttemptAt,
      };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'callback_not_found') throw notFound();
      if (error instanceof DomainError && error.code === 'callback_in_flight') {
        throw new ApiError(409, 100000, 'An attempt of this callback is in progress; try again when it has finished.');
      }
      throw error;
    }
  });
}
