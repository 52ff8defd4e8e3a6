/** A wallet token's shape, checked with the SALE's fields (before the hash: it is validation). */
import { WalletTokenMalformed } from '../../../domain/wallets/refusals';
import { parseWalletToken, type Wallet } from '../../../domain/wallets/token-shape';
import { fieldProblem } from './form-fields';

export const MALFORMED_WALLET_TOKEN = 'This value is not a valid payment token of its wallet.';

/** The problem of a token sent in `field`, or null when it has its wallet's shape. */
export function walletTokenProblem(wallet: Wallet, token: string, field: string): string | null {
  try {
    parseWalletToken(wallet, token);
    return null;
  } catch (error) {
    if (error instanceof WalletTokenMalformed) return fieldProblem(field, MALFORMED_WALLET_TOKEN);
    throw error;
  }
}
