/**
 * Wallet refusals as the spec's errors (docs/api-notes.md#wallets), shared by the S2S CARD and S2S APM wallet
 * SALEs: a token of neither shape is `100000 Request data is invalid.` naming the field it came in;
 * one that cannot be trusted or opened, whichever check failed, `250003 The payment token signature
 * has expired`; a wallet the merchant cannot take `204018 Payment digital wallet not supported`.
 */
import { WalletNotConfigured, WalletTokenMalformed, WalletTokenRefused } from '../../domain/wallets/refusals';
import { parseWalletToken, type Wallet } from '../../domain/wallets/token-shape';
import { ApiError, errors, type FieldError } from '../errors';

export const walletErrors = {
  notSupported: () => new ApiError(400, 204018, 'Payment digital wallet not supported'),
  tokenRefused: () => new ApiError(400, 250003, 'The payment token signature has expired'),
  malformed: (field: string): FieldError => errors.field(field, 'This value is not a valid payment token of its wallet.'),
};

/** The shape problem of a token sent in `field`, or null when it has its wallet's shape. */
export function walletTokenProblem(wallet: Wallet, token: string, field: string): FieldError | null {
  try {
    parseWalletToken(wallet, token);
    return null;
  } catch (error) {
    if (error instanceof WalletTokenMalformed) return walletErrors.malformed(field);
    throw error;
  }
}

/** Throws the spec's error for a wallet refusal; returns for anything else. */
export function throwWalletRefusal(error: unknown, tokenField: string): void {
  if (error instanceof WalletTokenRefused) throw walletErrors.tokenRefused();
  if (error instanceof WalletNotConfigured) throw walletErrors.notSupported();
  if (error instanceof WalletTokenMalformed) throw errors.invalid([walletErrors.malformed(tokenField)]);
}
