/**
 * The payer paid with a wallet on this session's page (docs/wallets.md#checkout): the token pays in the
 * card flow where the merchant has the wallet's keys and a connector taking decrypted cards, else
 * in the virtual flow (Checkout falls back). A token refused, or a wallet no flow can pay, starts
 * no attempt: the payer is told and may pay another way.
 */
import { sessionPaymentKind, offeredMethods } from '../../../domain/checkout/session-decide';
import type { ExistingSession } from '../../../domain/checkout/session-state';
import { DomainError } from '../../../domain/errors';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { methodEnabled } from '../../../domain/merchant/methods';
import { WalletNotConfigured, WalletTokenMalformed, WalletTokenRefused } from '../../../domain/wallets/refusals';
import type { MerchantAccount } from '../../merchant-service';
import type { WalletInstrument } from '../../payments';
import type { Paying } from '../attempt/command';
import { attempt } from '../attempt/handler';
import type { CheckoutDeps } from '../deps';
import { merchantOf } from '../merchant-of';
import { payerOf } from '../payer-snapshot';
import { loadSession } from '../session-lookup';
import type { WalletPayInput, WalletPayOutcome } from './command';

type Refusal = Extract<WalletPayOutcome, { kind: 'wallet_refused' }>;

export async function payWithWallet(deps: CheckoutDeps, sessionId: string, input: WalletPayInput, correlationId: string): Promise<WalletPayOutcome | null> {
  const loaded = await loadSession(deps, sessionId);
  if (!loaded) return null;
  const { session, version } = loaded;
  const merchant = await merchantOf(deps, session.merchantId);
  if (!offeredMethods(session).includes(input.wallet) || !methodEnabled(merchant, input.wallet)) {
    return { kind: 'wallet_refused', code: 204018, message: 'Payment digital wallet not supported' };
  }
  const paying = await walletPaying(deps, session, merchant, input, correlationId);
  if ('kind' in paying) return paying;
  const payer = payerOf(session, { ip: input.payerIp });
  return attempt(deps, { session, version, paying, payer, correlationId, browser: input.browser });
}

/** How the token pays (the card flow's card, or the virtual flow's method and token), or why it cannot. */
async function walletPaying(
  deps: CheckoutDeps,
  session: ExistingSession,
  merchant: MerchantAccount,
  input: WalletPayInput,
  correlationId: string,
): Promise<Paying | Refusal> {
  let paying: WalletInstrument;
  try {
    paying = await deps.payments.walletInstrument({
      merchantId: session.merchantId,
      clientKey: merchant.clientKey,
      wallet: input.wallet,
      token: input.token,
      flows: 'card_or_virtual',
      connectors: merchantConnectors(merchant),
      currency: session.order.currency,
      kind: sessionPaymentKind(session),
      amount: session.order.amount,
      recurringInit: session.recurringInit,
      // The payment records the wallet as its method in either flow (checkout_payment_method).
      method: {},
      correlationId,
    });
  } catch (error) {
    if (error instanceof WalletTokenRefused || error instanceof WalletNotConfigured || error instanceof WalletTokenMalformed) {
      return { kind: 'wallet_refused', code: error.errorCode, message: error.errorMessage };
    }
    if (error instanceof DomainError && (error.code === 'no_capable_connector' || error.code === 'action_not_supported')) {
      return { kind: 'wallet_refused', code: 204005, message: 'Payment action not supported' };
    }
    throw error;
  }
  return paying.flow === 'card' ? { card: paying.card, ...(paying.method ? { method: paying.method } : {}) } : { method: paying.method, walletToken: paying.walletToken };
}
