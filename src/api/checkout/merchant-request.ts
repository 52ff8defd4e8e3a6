/**
 * What every Checkout request goes through before its own rules, in the S2S API's order so
 * merchants get the same refusal for the same mistake: a JSON body, the key's environment, the
 * merchant, its IP allowlist. Field validation and the hash follow in each route. A client locked
 * out for failed authentications is refused once its merchant_key is known, before anything about
 * the merchant is answered.
 */
import type Koa from 'koa';
import type { MerchantAccount } from '../../application/merchant-service';
import type { Environment } from '../../domain/merchant/events';
import { ipAllowed } from '../../domain/merchant/ip-allowlist';
import { keyEnvironment } from '../../domain/merchant/keys';
import { errors } from '../errors';
import { admitOrRefuse, merchantSubject, type AuthThrottle } from '../auth-throttle';

export type JsonBody = Record<string, unknown>;

export interface CheckoutRequest {
  body: JsonBody;
  merchant: MerchantAccount;
  requestId: string;
}

export interface MerchantFinder {
  byMerchantKey(merchantKey: string): Promise<MerchantAccount | undefined>;
}

export async function checkoutRequest(
  ctx: Koa.Context,
  merchants: MerchantFinder,
  environment: Environment,
  throttle?: AuthThrottle,
): Promise<CheckoutRequest> {
  const body = (ctx.request as { body?: unknown }).body;
  // A form post would arrive flattened (`order[number]`) and fail field by field: say what is wrong.
  if (!ctx.request.is('json', '+json') || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid([errors.field('body', 'The request body must be a JSON object (Content-Type: application/json).')]);
  }
  const json = body as JsonBody;
  const merchantKey = json.merchant_key;
  if (typeof merchantKey !== 'string' || merchantKey.length === 0) {
    throw errors.invalid([errors.field('merchant_key', 'This value should not be blank.')]);
  }
  const keyEnv = keyEnvironment(merchantKey);
  if (keyEnv !== null && keyEnv !== environment) throw errors.otherEnvironmentKey();
  const merchant = await merchants.byMerchantKey(merchantKey);
  admitOrRefuse(ctx, throttle, merchant ? merchantSubject(merchant) : null);
  if (!merchant) {
    throttle?.failed(ctx.ip, null, ctx.state.requestId);
    throw errors.invalid([errors.field('merchant_key', 'Merchant not found.')]);
  }
  if (!ipAllowed(merchant.ipAllowlist, ctx.request.ip)) throw errors.ipNotAllowed();
  return { body: json, merchant, requestId: ctx.state.requestId };
}
