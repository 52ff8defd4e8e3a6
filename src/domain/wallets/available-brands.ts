/**
 * Which wallets a Checkout SDK page may offer (docs/wallets.md#the-checkout-sdk, `getAvailableBrands()`): the
 * merchant's enabled wallets that some flow can pay, in `methods` order: the session's `methods`
 * when it names any, else the merchant's `methods` setting when it is a list, else the wallets'
 * own order. Whether the payer's device can use each one is the browser's to say, afterwards.
 */
import { methodEnabled, methodsSettingOf, type MethodsSetting } from '../merchant/methods';
import type { Environment } from '../merchant/events';
import { WALLETS, isWallet, type Wallet } from './token-shape';

export interface BrandsInput {
  merchant: { methods?: MethodsSetting; environment: Environment };
  /** The Checkout session's `methods`; absent or empty: it did not name any. */
  sessionMethods?: readonly string[];
  /** Whether the card flow or a connector offering the wallet can pay it for this merchant. */
  payable: (wallet: Wallet) => boolean;
}

export function availableWalletBrands(input: BrandsInput): Wallet[] {
  const setting = methodsSettingOf(input.merchant);
  const order: readonly string[] = input.sessionMethods?.length ? input.sessionMethods : setting === 'all' ? WALLETS : setting;
  const seen = new Set<string>();
  return order.filter((method): method is Wallet => {
    if (!isWallet(method) || seen.has(method)) return false;
    seen.add(method);
    return methodEnabled(input.merchant, method) && input.payable(method);
  });
}
