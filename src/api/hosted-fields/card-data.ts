/**
 * `POST /hosted-fields/card-data`: the card frame hands over what the payer typed. Only the
 * gateway's own frames post here (same origin), so a request another site's page makes is refused:
 * a JSON body already forces a preflight the gateway never grants, and the browser's fetch
 * metadata says where the request came from. Card data is neither logged nor echoed.
 */
import type Koa from 'koa';
import type { CheckoutService } from '../../application/checkout/checkout-service';
import type { Validator } from '../validation';

type Json = Record<string, unknown>;

/** `MM / YY`, `MM/YY`, `MMYY` or `MM/YYYY`. */
export function expiryParts(value: string): { expMonth: string; expYear: string } {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  return m ? { expMonth: m[1], expYear: m[2] } : { expMonth: '', expYear: '' };
}

function refuse(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { result: 'undefined', message };
}

export function cardDataHandler(deps: { checkout: CheckoutService; validate: Validator; gatewayOrigin: string }): Koa.Middleware {
  return async (ctx) => {
    const site = ctx.get('Sec-Fetch-Site');
    const origin = ctx.get('Origin');
    // The gateway may be reached under another name than its public base URL (a proxy, localhost).
    const ownOrigins = [deps.gatewayOrigin, ctx.origin];
    if ((site && site !== 'same-origin') || (origin && !ownOrigins.includes(origin))) {
      return refuse(ctx, 403, 'Card data is accepted from the payment fields only.');
    }
    if (!ctx.is('application/json')) return refuse(ctx, 400, 'The card data is not valid.');
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as Json;
    if (deps.validate(body).length) return refuse(ctx, 400, 'The card data is not valid.');
    const { token, number, expiry, cvv } = body as Record<'token' | 'number' | 'expiry' | 'cvv', string>;
    ctx.body = await deps.checkout.holdCardData(token, { number, ...expiryParts(expiry), cvv });
  };
}
