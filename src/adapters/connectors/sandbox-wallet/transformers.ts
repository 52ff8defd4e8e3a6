/**
 * What travels between the gateway and the sandbox's wallet provider: its references, and how it
 * reads a token and the payer it decides by. Stateless: a lookup decides from what the gateway
 * recorded, as its first answer did.
 */
import { randomBytes } from 'node:crypto';
import { parseWalletToken, type Wallet } from '../../../domain/wallets/token-shape';

export const SANDBOX_WALLET_DESCRIPTOR = 'SANDBOX*WALLET';

/** The payer emails (or S2S APM identifiers) that decline; anyone else's token pays. */
export const SANDBOX_WALLET_FAIL = 'fail@gmail.com';

export const SANDBOX_WALLET_REASONS = {
  declined: 'Declined by the wallet provider',
  invalidToken: 'Payment token is not valid',
  unsupported: 'Payment method not supported by this provider',
  noHolds: 'Authorizations are not supported by this provider',
} as const;

export const newReference = (wallet: Wallet): string => `sbw_${wallet}_${randomBytes(12).toString('hex')}`;

/** Whether the token has its wallet's shape (a provider decrypts it; the sandbox only reads its shape). */
export function tokenReadable(wallet: Wallet, token: string): boolean {
  try {
    parseWalletToken(wallet, token);
    return true;
  } catch {
    return false;
  }
}

/** `fail@gmail.com` declines (the sandbox payers of docs/apm.md#how-the-sandbox-decides); the payer already approved in the wallet otherwise. */
export const declinedPayer = (who: string | undefined): boolean => (who ?? '').trim().toLowerCase() === SANDBOX_WALLET_FAIL;
