/**
 * The wallet streams.
 *
 * - `merchant-wallet-<merchant id>`: the merchant's wallet settings (`WalletSettingsChanged`), apart
 *   from the merchant stream so the settings every request reads stay small and the keys, always
 *   encrypted, are read only by the wallet flows.
 * - `wallet-domain-<domain>`: which merchant a domain's association file belongs to
 *   (`WalletDomainClaimed`, `WalletDomainReleased`): one merchant per domain, found by the host
 *   a request came to.
 * - `wallet-token-<wallet>-<sha256 of the token's id>`: `WalletTokenRedeemed`, appended expecting
 *   no stream, so a token's transactionId / messageId is accepted once, across every process.
 *
 * None of them holds card data.
 */
import type { AppleWalletSettings, GoogleWalletSettings } from './settings';
import type { Wallet } from './token-shape';

export const WALLET_EVENT_SCHEMA_VERSION = 1;

export interface WalletSettingsChanges {
  apple?: Partial<AppleWalletSettings>;
  google?: Partial<GoogleWalletSettings>;
  domains?: string[];
  domainAssociation?: string | null;
}

export interface WalletSettingsChanged {
  type: 'WalletSettingsChanged';
  data: { merchantId: string; changes: WalletSettingsChanges; changedAt: string };
}

export interface WalletDomainClaimed {
  type: 'WalletDomainClaimed';
  data: { domain: string; merchantId: string; claimedAt: string };
}

export interface WalletDomainReleased {
  type: 'WalletDomainReleased';
  data: { domain: string; merchantId: string; releasedAt: string };
}

export interface WalletTokenRedeemed {
  type: 'WalletTokenRedeemed';
  data: { wallet: Wallet; merchantId: string; redeemedAt: string };
}

export type WalletSettingsEvent = WalletSettingsChanged;
export type WalletDomainEvent = WalletDomainClaimed | WalletDomainReleased;

export const walletSettingsStreamId = (merchantId: string): string => `merchant-wallet-${merchantId}`;
export const walletDomainStreamId = (domain: string): string => `wallet-domain-${domain}`;
/** `idHash`: hex SHA-256 of the token's transactionId (Apple) or messageId (Google). */
export const walletTokenStreamId = (wallet: Wallet, idHash: string): string => `wallet-token-${wallet}-${idHash}`;
