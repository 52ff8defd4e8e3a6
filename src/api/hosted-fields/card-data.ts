/**
 * `POST /hosted-fields/card-data`: the card frame hands over what the payer typed. Only the
 * gateway's own frames post here, so a request another site's page makes is refused: a JSON body
 * already forces a preflight the gateway never grants, a browser always names the page's origin
 * on a POST and it must be the gateway's public origin, and the fetch metadata must say
 * same-origin when the browser sends it. The request's own Host is never trusted for this: a
 * name rebound to the gateway would make any page "same host". Card data is neither logged nor echoed.
 */
import type Koa from 'koa';
import type { CardDataAnswer, CheckoutService } from '../../application/checkout/checkout-service';
import { CARD_DATA_NOT_VALID, CARD_DATA_SAVED, INVALID_SESSION_TOKEN, cardDataProblemsText, sessionRefusalText } from '../checkout-page/messages';
import type { Validator } from '../validation';
import { setRetryAfter, type AuthThrottle } from '../auth-throttle';
import { TOO_MANY_AUTH_FAILURES } from '../errors';
import { SESSION_TOKEN_SUBJECT } from './processing';

type Json = Record<string, unknown>;

/** `MM / YY`, `MM/YY`, `MMYY` or `MM/YYYY`. */
export function expiryParts(value: string): { expMonth: string; expYear: string } {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  return m ? { expMonth: m[1], expYear: m[2] } : { expMonth: '', expYear: '' };
}

/** The frame's answer: `success` once the gateway holds the card, else `undefined` and why. */
function answerOf(answer: CardDataAnswer): { result: 'success' | 'undefined'; message: string } {
  if (answer.held) return { result: 'success', message: CARD_DATA_SAVED };
  switch (answer.refusal) {
    case 'invalid_token':
      return { result: 'undefined', message: INVALID_SESSION_TOKEN };
    case 'session':
      return { result: 'undefined', message: sessionRefusalText(answer.code) };
    case 'invalid_card':
      return { result: 'undefined', message: cardDataProblemsText(answer.problems) };
    default: {
      const unreachable: never = answer;
      return unreachable;
    }
  }
}

function refuse(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { result: 'undefined', message };
}

export function cardDataHandler(deps: {
  checkout: CheckoutService;
  validate: Validator;
  gatewayOrigin: string;
  throttle?: AuthThrottle;
}): Koa.Middleware {
  return async (ctx) => {
    const site = ctx.get('Sec-Fetch-Site');
    if ((site && site !== 'same-origin') || ctx.get('Origin') !== deps.gatewayOrigin) {
      return refuse(ctx, 403, 'Card data is accepted from the payment fields only.');
    }
    if (!ctx.is('application/json')) return refuse(ctx, 400, CARD_DATA_NOT_VALID);
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as Json;
    if (deps.validate(body).length) return refuse(ctx, 400, CARD_DATA_NOT_VALID);
    // Forged session tokens are counted per address, like on the processing endpoints.
    const refusal = deps.throttle?.admit(ctx.ip, SESSION_TOKEN_SUBJECT);
    if (refusal) {
      setRetryAfter(ctx, refusal);
      return refuse(ctx, 429, TOO_MANY_AUTH_FAILURES);
    }
    const { token, number, expiry, cvv } = body as Record<'token' | 'number' | 'expiry' | 'cvv', string>;
    const answer = await deps.checkout.holdCardData(token, { number, ...expiryParts(expiry), cvv });
    if (!answer.held && answer.refusal === 'invalid_token') deps.throttle?.failed(ctx.ip, SESSION_TOKEN_SUBJECT, ctx.state.requestId);
    else deps.throttle?.succeeded(ctx.ip, SESSION_TOKEN_SUBJECT);
    ctx.body = answerOf(answer);
  };
}
