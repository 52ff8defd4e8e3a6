/**
 * `POST /api/v1/payment/retry` (`merchant_key`, `payment_id`, hash of `payment_id`): the Checkout
 * retry the protocol family documents and its clients call. A declined payment's stored card is
 * charged again as the next attempt of its session (src/domain/checkout/retry.ts). The answer is
 * `{payment_id, result: 'accepted'}` with the payment id the merchant sent, as the family answers;
 * the new attempt's outcome (and its own payment id) comes by callback and by status lookup of the
 * order. Order: schema, hash, existence (`101000 Payment does not exist.`), then the session's rules
 * (`100000` with the reason).
 */
import { checkoutHash } from '../../domain/signatures';
import { ApiError } from '../errors';
import { requireHash } from '../require-hash';
import type { CheckoutApiDeps, CheckoutRoute } from './checkout-route';
import type { CheckoutRequest } from './merchant-request';
import { voidSchema } from './schemas';

/** Same shape as a void: the payment, and its hash. */
export const retrySchema = voidSchema;

export function registerRetryRoute(route: CheckoutRoute, deps: CheckoutApiDeps): void {
  route('/api/v1/payment/retry', retrySchema, (r) => retryPayment(deps, r));
}

export async function retryPayment(deps: Pick<CheckoutApiDeps, 'checkout'>, { body, merchant, requestId }: CheckoutRequest): Promise<Record<string, unknown>> {
  const paymentId = String(body.payment_id);
  requireHash(body.hash, checkoutHash([paymentId], merchant.password));
  const retried = await deps.checkout.retry(merchant.merchantId, paymentId, requestId);
  if (!retried) throw new ApiError(400, 101000, 'Payment does not exist.');
  if (retried.refusal) throw new ApiError(400, 100000, retried.refusal.message);
  return { payment_id: paymentId, result: 'accepted' };
}
