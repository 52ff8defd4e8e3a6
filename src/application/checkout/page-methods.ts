/** The methods a session's hosted page offers the payer, and what it asks for each. */
import { merchantConnectors } from '../../domain/merchant/connectors';
import { methodEnabled } from '../../domain/merchant/methods';
import { CARD_METHOD } from '../../domain/checkout/session-methods';
import { offeredMethods } from '../../domain/checkout/session-decide';
import type { ExistingSession } from '../../domain/checkout/session-state';
import { fieldsToCollect, type MethodField } from '../../domain/payment/method-fields';
import { availableWalletBrands } from '../../domain/wallets/available-brands';
import { WALLETS, isWallet, type Wallet } from '../../domain/wallets/token-shape';
import type { MerchantAccount } from '../merchant-service';
import type { CheckoutServiceDeps } from './deps';

/** A method the page offers: its identifier, what it is called, and what the page asks the payer for it. */
export interface PageMethod {
  method: string;
  /** The catalogue's kind of method in words (`QR code`); `Card` for the card. */
  label: string;
  /** Fields collected from the payer because the merchant did not send them. */
  collect: MethodField[];
}

/** What the page calls each wallet. */
export const WALLET_LABELS: Readonly<Record<Wallet, string>> = { applepay: 'Apple Pay', googlepay: 'Google Pay' };

/**
 * The session's methods the page can offer: each with its name and what the payer is asked for
 * it. A wallet only where `wallets` (the payable ones) has it; absent, where only the steps of
 * alternative methods are asked for, the wallets the merchant takes.
 */
export function pageMethods(deps: Pick<CheckoutServiceDeps, 'payments'>, session: ExistingSession, merchant: MerchantAccount, wallets?: readonly Wallet[]): PageMethod[] {
  const connectors = merchantConnectors(merchant);
  const phone = session.billingAddress.phone;
  const country = session.billingAddress.country;
  return offeredMethods(session).flatMap((method): PageMethod[] => {
    if (method === CARD_METHOD) return [{ method, label: 'Card', collect: [] }];
    if (isWallet(method)) return methodEnabled(merchant, method) && (wallets?.includes(method) ?? true) ? [{ method, label: WALLET_LABELS[method], collect: [] }] : [];
    const description = deps.payments.describeMethod(connectors, method);
    if (!description) return [];
    return [{ method, label: description.kind, collect: fieldsToCollect(description, methodParametersOf(session, method), { phone, country }) }];
  });
}

/** `parameters.<method_id>` of the session (an object, checked when the session was created). */
export function methodParametersOf(session: ExistingSession, method: string): Record<string, unknown> {
  const value = session.parameters?.[method];
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

/**
 * The wallets of the session the merchant takes and some flow can pay now (its keys, its
 * connectors), in the session's order: the page's wallet buttons and the SDK's brands, alike.
 */
export async function payableWallets(deps: Pick<CheckoutServiceDeps, 'payments'>, session: ExistingSession, merchant: MerchantAccount): Promise<Wallet[]> {
  const payable = new Set<Wallet>();
  for (const wallet of WALLETS) {
    if (offeredMethods(session).includes(wallet) && (await deps.payments.walletPayable(merchant.merchantId, merchantConnectors(merchant), wallet))) payable.add(wallet);
  }
  return availableWalletBrands({ merchant, sessionMethods: offeredMethods(session), payable: (w) => payable.has(w) });
}
