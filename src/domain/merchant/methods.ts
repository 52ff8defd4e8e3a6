/**
 * Which alternative payment methods (S2S APM `brand`, Checkout `methods`) a merchant may take:
 * its `methods` setting (docs/apm.md#which-methods-a-merchant-takes). `all` is every method the deployment's connectors offer;
 * a list names them; an empty list is none. A merchant that never set it (every merchant registered
 * before the setting existed, and every new one until an operator sets it) gets its environment's
 * default: in the sandbox everything, so the quick start works; in production nothing until the
 * operator says so.
 */
import type { Environment } from './environment';

export type MethodsSetting = 'all' | string[];

/** The wallets' identifiers, methods like any other in this setting (docs/wallets.md#setting-up-a-merchant). */
export const WALLET_METHODS: readonly string[] = ['applepay', 'googlepay'];

/** Whether a method identifier names a wallet (their tokens are the only holds S2S APM takes). */
export const isWalletMethod = (method: string): boolean => WALLET_METHODS.includes(method);

export function methodsSettingOf(merchant: { methods?: MethodsSetting; environment: Environment }): MethodsSetting {
  if (merchant.methods !== undefined) return merchant.methods;
  return merchant.environment === 'sandbox' ? 'all' : [];
}

/** Whether the merchant may take `method` (a method the deployment offers: that is checked apart). */
export function methodEnabled(merchant: { methods?: MethodsSetting; environment: Environment }, method: string): boolean {
  const setting = methodsSettingOf(merchant);
  return setting === 'all' || setting.includes(method);
}

/** `all`, `none` or a comma-separated list, as operators write it; null when a list names nothing. */
export function parseMethodsSetting(text: string): MethodsSetting | null {
  const value = text.trim();
  if (value === 'all') return 'all';
  if (value === 'none') return [];
  const names = [...new Set(value.split(',').map((name) => name.trim()).filter(Boolean))];
  return names.length === 0 ? null : names;
}
