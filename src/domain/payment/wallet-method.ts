/**
 * A wallet as an S2S APM method (`brand=applepay|googlepay`): it takes one parameter, the token
 * (`parameters[paymentToken]`, the token JSON exactly as the wallet gave it). Checked like any
 * method's parameters (method-fields.ts), whichever flow then pays it.
 */
import { MAX_TOKEN_CHARS, type Wallet } from '../wallets/token-shape';
import type { MethodDescription } from './method-fields';

export const WALLET_TOKEN_PARAMETER = 'paymentToken';

export function walletMethodDescription(wallet: Wallet): MethodDescription {
  return {
    method: wallet,
    kind: 'wallet token',
    fields: [{ name: WALLET_TOKEN_PARAMETER, presence: 'required', label: 'Payment token', maxLength: MAX_TOKEN_CHARS }],
  };
}
