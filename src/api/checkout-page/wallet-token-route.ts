import type Router from '@koa/router';
import { MAX_TOKEN_CHARS, isWallet } from '../../domain/wallets/token-shape';
import { isUuid } from '../../domain/ids';
import { ApiError, errors } from '../errors';
import { processingAnswerOf } from '../hosted-fields/processing';
import { browserOf, type PageRouteContext } from './page-route-context';
import { formReader } from './pay-form';

/**
 * A wallet token the payer's device made (the real wallet's sheet, on the shop's page through the
 * SDK's `PaySession.pay()` or on this page) handed to the session: verified and decrypted as on
 * S2S (the card flow, else the virtual flow), then paid as the session's attempt, under its rules.
 * Form field `payment_token`: the token JSON, bytes unchanged. The answer says how the attempt
 * stands and where the payer goes next (the session's page, which sends them on). Any origin may
 * post and read it: the session's id is the credential, as for the page itself.
 */
export function registerWalletTokenRoute(router: Router, { deps }: PageRouteContext): void {
  router.post('/checkout/:sessionId/wallet/:wallet/token', async (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-store');
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
    const token = typeof body.payment_token === 'string' ? body.payment_token : '';
    if (!token.trim()) throw errors.invalid([errors.field('payment_token', 'This value should not be blank.')]);
    if (token.length > MAX_TOKEN_CHARS) throw errors.invalid([errors.field('payment_token', `This value is too long. It should have ${MAX_TOKEN_CHARS} characters or less.`)]);
    const sessionId = ctx.params.sessionId;
    const wallet = ctx.params.wallet;
    const unknownSession = () => errors.invalid([errors.field('session', 'The session does not exist.')]);
    if (!isUuid(sessionId)) throw unknownSession();
    if (!isWallet(wallet)) throw new ApiError(400, 204018, 'Payment digital wallet not supported');
    const browser = browserOf(ctx, formReader(body));
    const outcome = await deps.checkout.payWithWallet(sessionId, { wallet, token, payerIp: ctx.request.ip, browser }, ctx.state.requestId);
    if (!outcome) throw unknownSession();
    if (outcome.kind === 'wallet_refused') throw new ApiError(400, outcome.code, outcome.message);
    const payment = outcome.kind === 'done' ? outcome.payment : null;
    const answer = payment ? processingAnswerOf(payment) : null;
    ctx.body = {
      result: answer?.result ?? 'undefined',
      ...(answer?.decline_message !== undefined ? { decline_message: answer.decline_message } : {}),
      ...(answer ? { public_id: answer.public_id } : {}),
      redirect_url: `${deps.baseUrl}/checkout/${sessionId}`,
      redirect_method: 'GET',
    };
  });
}
