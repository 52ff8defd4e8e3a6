/**
 * What a page needs to open the payer's own wallet for a session (docs/wallets.md#the-wallet-on-the-hosted-page):
 *
 * - `GET /checkout/:sessionId/wallet/:wallet/request`: the wallet's payment request, built from
 *   the merchant's wallet settings and the session's amount;
 * - `POST /checkout/:sessionId/wallet/applepay/validation`: Apple Pay's merchant session, from
 *   Apple's endpoint with the merchant identity certificate, for `completeMerchantValidation`;
 * - the hosted page's script that asks them (device-wallet-script.ts).
 *
 * The token the wallet then makes goes to `/checkout/:sessionId/wallet/:wallet/token`. Like that
 * route these answer any origin (a shop's page with the Checkout SDK asks them too): the session's
 * id is the credential, and nothing here is secret.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { CheckoutPageModel } from '../../application/checkout/checkout-service';
import type { DeviceWallets, PagePayee } from '../../application/wallets';
import { isUuid } from '../../domain/ids';
import { formatMinor } from '../../domain/money';
import { isWallet, type Wallet } from '../../domain/wallets/token-shape';
import { ApiError, errors } from '../errors';
import { ASSET_CACHE_CONTROL } from './assets';
import { DEVICE_WALLET_JS, DEVICE_WALLET_JS_PATH } from './device-wallet-script';

export interface DeviceWalletRouteDeps {
  baseUrl: string;
  pageModel(sessionId: string): Promise<CheckoutPageModel | null | undefined>;
  clientKeyOf(merchantId: string): Promise<string | undefined>;
  device: Pick<DeviceWallets, 'paymentRequest' | 'merchantSession'>;
}

export const APPLE_PAY_VALIDATION_FAILED = 'Apple Pay merchant validation failed, try again.';

const walletNotSupported = (why?: string) =>
  new ApiError(400, 204018, 'Payment digital wallet not supported', why ? [errors.field('wallet', why)] : undefined);

export function registerDeviceWalletRoutes(router: Router, deps: DeviceWalletRouteDeps): void {
  const ownHost = new URL(deps.baseUrl).hostname;

  router.get(DEVICE_WALLET_JS_PATH, (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', ASSET_CACHE_CONTROL);
    ctx.body = DEVICE_WALLET_JS;
  });

  /** The session and its merchant, while the session offers `wallet` and may still be paid. */
  const payable = async (ctx: Koa.Context, wallet: string): Promise<{ model: CheckoutPageModel; payee: PagePayee; wallet: Wallet }> => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-store');
    const sessionId = ctx.params.sessionId;
    const unknownSession = () => errors.invalid([errors.field('session', 'The session does not exist.')]);
    if (!isUuid(sessionId)) throw unknownSession();
    const model = await deps.pageModel(sessionId);
    if (!model) throw unknownSession();
    if (!isWallet(wallet) || model.session.hostedFields || model.view !== 'form' || !model.methods.some((m) => m.method === wallet)) {
      throw walletNotSupported();
    }
    const clientKey = await deps.clientKeyOf(model.session.merchantId);
    if (clientKey === undefined) throw unknownSession();
    return { model, wallet, payee: { merchantId: model.session.merchantId, name: model.merchantName, clientKey } };
  };

  router.get('/checkout/:sessionId/wallet/:wallet/request', async (ctx) => {
    const { model, payee, wallet } = await payable(ctx, ctx.params.wallet);
    const { amount, currency } = model.session.order;
    const answer = await deps.device.paymentRequest(payee, wallet, { value: formatMinor(amount, currency), currency });
    if (!answer.ok) throw walletNotSupported(answer.message);
    ctx.body =
      answer.wallet === 'applepay'
        ? { wallet: answer.wallet, payment_request: answer.request }
        : { wallet: answer.wallet, environment: answer.request.environment, payment_request: answer.request.request };
  });

  router.post('/checkout/:sessionId/wallet/applepay/validation', async (ctx) => {
    const { payee } = await payable(ctx, 'applepay');
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
    const domain = typeof body.domain === 'string' && body.domain.trim() ? body.domain.trim().toLowerCase() : ownHost;
    const outcome = await deps.device.merchantSession(payee, domain, ownHost);
    if (outcome.ok) {
      ctx.body = outcome.merchantSession;
      return;
    }
    if (outcome.kind === 'not_set_up') throw walletNotSupported(outcome.message);
    throw new ApiError(502, 502, APPLE_PAY_VALIDATION_FAILED);
  });
}
