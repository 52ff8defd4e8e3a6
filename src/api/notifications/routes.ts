/**
 * `POST /notifications/{connector}`: a payment provider tells the gateway about a transaction later
 * (a QR payment executed, a bank transfer rejected). No merchant key signs it: the connector named
 * in the path authenticates the raw body and headers (its own signature), and the payment it names
 * must be that connector's. Duplicates and late notifications change nothing. A notification that
 * does not verify counts as a failed authentication of the caller's address (the throttle of every
 * other API), so signatures cannot be guessed at speed.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { PaymentService } from '../../application/payments';
import { admitOrRefuse, type AuthThrottle } from '../auth-throttle';
import { ApiError, errors } from '../errors';
import type { RawNotificationBody } from './raw-body';

export interface NotificationRouteDeps {
  payments: Pick<PaymentService, 'acceptNotification'>;
  /** The connectors this deployment has: a notification for any other is no route. */
  connectorNames: readonly string[];
  throttle?: AuthThrottle;
}

const notVerified = () => new ApiError(401, 401, 'Notification is not valid.');

export function registerNotificationRoutes(router: Router, deps: NotificationRouteDeps): void {
  router.post('/notifications/:connector', async (ctx: Koa.Context) => {
    const connector = ctx.params.connector;
    if (!deps.connectorNames.includes(connector)) throw errors.routeNotSupported();
    admitOrRefuse(ctx, deps.throttle, null);
    const raw = ctx.state.rawNotification as RawNotificationBody | undefined;
    if (!raw) throw notVerified();
    const result = await deps.payments.acceptNotification(connector, raw, ctx.state.requestId);
    if (result.kind === 'not_verified') {
      deps.throttle?.failed(ctx.ip, null, ctx.state.requestId);
      throw notVerified();
    }
    // Verified: the provider is answered 200 whatever it changed, so it stops sending it.
    ctx.body = result.kind === 'recorded' ? { result: 'OK', trans_id: result.payment.paymentId, status: result.payment.status } : { result: 'OK' };
  });
}
