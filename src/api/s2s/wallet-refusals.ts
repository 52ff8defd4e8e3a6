/**
 * Wallet refusals as the spec's errors (docs/api-notes.md#wallets), shared by the S2S CARD and S2S APM wallet
 * SALEs: a token of neither shape is `100000 Request data is invalid.` naming the field it came in;
 * one that cannot be trusted or opened, whichever check failed, `250003 The payment token signature
 * has expired`; a wallet the merchant cannot take `204018 Payment digital wallet not supported`.
 */
import { MALFORMED_WALLET_TOKEN } from '../../application/payments';
import { WalletNotConfigured, WalletTokenMalformed, WalletTokenRefused } from '../../domain/wallets/refusals';
import { ApiError, errors, type FieldError } from '../errors';

export const walletErrors = {
  notSupported: () => new ApiError(400, 204018, 'Payment digital wallet not supported'),
  tokenRefused: () => new ApiError(400, 250003, 'The payment token signature has expired'),
  malformed: (field: string): FieldError => errors.field(field, MALFORMED_WALLET_TOKEN),
};

/** Throws the spec's error for a wallet refusal; returns for anything else. */
export function throwWalletRefusal(error: unknown, tokenField: string): void {
  if (error instanceof WalletTokenRefused) throw walletErrors.tokenRefused();
  if (error instanceof WalletNotConfigured) throw walletErrors.notSupported();
  if (error instanceof WalletTokenMalformed) throw errors.invalid([walletErrors.malformed(tokenField)]);
}
