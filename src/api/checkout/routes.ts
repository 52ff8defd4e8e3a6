/**
 * Checkout JSON API (`/api/v1/...`). Every route runs the same sequence: JSON body, key
 * environment, merchant, IP allowlist (checkoutRequest), then its schema, then its own rules with
 * the hash first. Every refusal is the spec's error shape with HTTP 400.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { errors } from '../errors';
import type { CheckoutApiDeps, CheckoutRoute } from './checkout-route';
import { compileJsonValidator, type JsonValidator } from './field-errors';
import { checkoutRequest } from './merchant-request';
import { capturePayment, paymentStatus, refundPayment, voidPayment } from './payment-operations';
import { cardCreditSchema, captureSchema, refundSchema, sessionSchema, sessionTokenSchema, statusSchema, voidSchema } from './schemas';
import { createCardCredit, createSession, nestedOrderErrors } from './session-requests';
import { registerRecurringRoute } from './recurring-route';
import { registerRetryRoute } from './retry-route';
import { registerScheduleRoutes } from './schedule-routes';
import { countingHashFailures, merchantSubject } from '../auth-throttle';

export type { CheckoutApiDeps, CheckoutRoute } from './checkout-route';

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
  registerRetryRoute(route, deps);
  registerScheduleRoutes(route, deps);
}
