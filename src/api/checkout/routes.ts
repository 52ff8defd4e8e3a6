/**
 * Checkout JSON API (`/api/v1/...`). Every route runs the same sequence: JSON body, key
 * environment, merchant, IP allowlist (checkoutRequest), then its schema, then its own rules with
 * the hash first. Every refusal is the spec's error shape with HTTP 400.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type Ajv from 'ajv';
import type { CheckoutService } from '../../application/checkout/checkout-service';
import type { NotificationUrlCheck } from '../../application/callbacks/notification-url-check';
import type { MerchantService } from '../../application/merchant-service';
import type { PaymentService } from '../../application/payments';
import type { Clock } from '../../application/ports/clock';
import type { PaymentReadModel } from '../../application/ports/payment-read-model';
import type { Environment } from '../../domain/merchant/events';
import { errors, type FieldError } from '../errors';
import { compileJsonValidator, type JsonValidator } from './field-errors';
import { checkoutRequest, type CheckoutRequest } from './merchant-request';
import { capturePayment, paymentStatus, refundPayment, voidPayment } from './payment-operations';
import { cardCreditSchema, captureSchema, refundSchema, sessionSchema, sessionTokenSchema, statusSchema, voidSchema } from './schemas';
import { createCardCredit, createSession, nestedOrderErrors } from './session-requests';
import type { ScheduleService } from '../../application/schedules/schedule-service';
import { registerRecurringRoute } from './recurring-route';
import { registerScheduleRoutes } from './schedule-routes';
import { countingHashFailures, merchantSubject, type AuthThrottle } from '../auth-throttle';

export interface CheckoutApiDeps {
  merchants: MerchantService;
  payments: PaymentService;
  schedules: ScheduleService;
  checkout: CheckoutService;
  readModels: PaymentReadModel;
  clock: Clock;
  environment: Environment;
  ajv: Ajv;
  notificationUrls: Pick<NotificationUrlCheck, 'problem'>;
  /** Limits failed authentications (wrong hash, unknown merchant_key) per merchant and address. */
  throttle?: AuthThrottle;
}

type Handler = (request: CheckoutRequest, schemaErrors: FieldError[]) => Promise<unknown>;

/** Registers one Checkout operation: JSON body, merchant checks, its schema (compiled once), its handler. */
export type CheckoutRoute = (path: string, schema: object, handle: Handler, options?: { lenient?: boolean }) => void;

export function registerCheckoutApiRoutes(router: Router, deps: CheckoutApiDeps): void {
  const route: CheckoutRoute = (path, schema, handle, options = {}) => {
    const validate: JsonValidator = compileJsonValidator(deps.ajv, schema);
    router.post(path, async (ctx: Koa.Context) => {
      const request = await checkoutRequest(ctx, deps.merchants, deps.environment, deps.throttle);
      // Each handler checks the hash first among its own rules; a wrong one is counted here.
      ctx.body = await countingHashFailures(ctx, deps.throttle, merchantSubject(request.merchant), () => {
        const schemaErrors = validate(request.body);
        // A lenient handler adds its own field problems to the schema's and refuses them together.
        if (schemaErrors.length && !options.lenient) throw errors.invalid(schemaErrors);
        return handle(request, schemaErrors);
      });
    });
  };

  route('/api/v1/session', sessionSchema, (r) => createSession(deps, r, false));
  route('/api/v1/session/token', sessionTokenSchema, (r) => createSession(deps, r, true));
  route('/api/v1/payment/status', statusSchema, (r, schemaErrors) => paymentStatus(deps, r, schemaErrors), { lenient: true });
  route('/api/v1/payment/capture', captureSchema, (r) => capturePayment(deps, r));
  route('/api/v1/payment/void', voidSchema, (r) => voidPayment(deps, r));
  route('/api/v1/payment/refund', refundSchema, (r) => refundPayment(deps, r));
  route(
    '/api/v1/payment/card/credit',
    cardCreditSchema,
    (r, schemaErrors) => {
      const problems = [...schemaErrors, ...nestedOrderErrors(r.body)];
      if (problems.length) throw errors.invalid(problems);
      return createCardCredit(deps, r);
    },
    { lenient: true },
  );
  registerRecurringRoute(route, deps);
  registerScheduleRoutes(route, deps);
}
