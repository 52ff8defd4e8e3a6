/**
 * The Checkout SDK (docs/wallets.md#the-checkout-sdk): its script, and the brands its `getAvailableBrands()` starts
 * from. The brands answer is asked with the Checkout session's id (the credential of its hosted
 * page, whose address holds it: a page of the merchant's gets it from `redirect_url`) or the token
 * of a hosted fields session, and names only wallets: those the session's hosted page offers (the
 * merchant's enabled ones a flow can pay for this session, in `methods` order), none once the
 * session can no longer be paid; `simulated` says the sandbox's
 * wallets stand in for the device's. It is read cross-origin by merchants' pages, without
 * credentials, so any origin may read it.
 */
import type Router from '@koa/router';
import type { ExistingSession } from '../../domain/checkout/session-state';
import type { Environment } from '../../domain/merchant/events';
import type { Wallet } from '../../domain/wallets/token-shape';
import { isUuid } from '../../domain/ids';
import { errors } from '../errors';
import { BRANDS_PATH, PAY_SESSION_JS, PAY_SESSION_SDK_PATH } from './pay-session-script';

export const INVALID_SDK_SESSION_TOKEN = 'The session token is not valid.';
export const UNKNOWN_SDK_SESSION = 'The session does not exist.';
const MAX_TOKEN_LENGTH = 256;

export interface PaySessionDeps {
  environment: Environment;
  /** The Checkout session a token was issued for; null for a token not of ours. */
  sessionByToken(token: string): Promise<ExistingSession | null>;
  /** The Checkout session of this id (its hosted page's address), null when none. */
  session(sessionId: string): Promise<ExistingSession | null>;
  merchantById(merchantId: string): Promise<{ merchantId: string } | undefined>;
  /**
   * The wallets the session's hosted page offers now (enabled, some flow able to pay them), in
   * `methods` order; none once the session can no longer be paid.
   */
  walletBrands(session: ExistingSession): Promise<Wallet[]>;
}

export function registerPaySessionRoutes(router: Router, deps: PaySessionDeps): void {
  router.get(PAY_SESSION_SDK_PATH, (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    // Merchants' pages load the SDK cross-origin, also under a strict embedder policy.
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.body = PAY_SESSION_JS;
  });

  router.get(BRANDS_PATH, async (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-store');
    const token = typeof ctx.query.token === 'string' ? ctx.query.token.trim() : '';
    const sessionId = typeof ctx.query.session === 'string' ? ctx.query.session.trim() : '';
    if (!token && !sessionId) throw errors.invalid([errors.field('session', 'This value should not be blank.')]);
    let session: ExistingSession | null = null;
    if (token) session = token.length <= MAX_TOKEN_LENGTH ? await deps.sessionByToken(token) : null;
    else if (isUuid(sessionId)) session = await deps.session(sessionId);
    const merchant = session ? await deps.merchantById(session.merchantId) : undefined;
    if (!session || !merchant) throw errors.invalid([token ? errors.field('token', INVALID_SDK_SESSION_TOKEN) : errors.field('session', UNKNOWN_SDK_SESSION)]);

    ctx.body = { brands: await deps.walletBrands(session), simulated: deps.environment === 'sandbox' };
  });
}
