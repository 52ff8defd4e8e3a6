import type { BrowserAttributes } from '../../../domain/payment/events';
import type { Wallet } from '../../../domain/wallets/token-shape';
import type { PayOutcome } from '../attempt/command';
import type { CardInput } from '../card-input';

/** What the payer submitted with the hosted page's form. */
export interface PayInput {
  /** The method the payer chose on the page (one of the session's); absent: the card. */
  method?: string;
  /** The card's fields; absent when an alternative method is chosen. */
  card?: CardInput;
  /** What the page collected for an alternative method, by the method's field names (`phone`, `bankDetails[cbu]`). */
  methodFields?: Record<string, string>;
  billing?: { country?: string; state?: string };
  email?: string;
  browser?: BrowserAttributes;
  /** The payer's address as the gateway saw it (used when the session has no `customer.ip`). */
  payerIp: string;
}

/** What the page's wallet button hands over: the wallet's token for this payment. */
export interface WalletPayInput {
  wallet: Wallet;
  token: string;
  payerIp: string;
  browser?: BrowserAttributes;
}

/** How paying with a wallet on the page went: as any attempt, or refused (the spec's code and message) before one started. */
export type WalletPayOutcome = PayOutcome | { kind: 'wallet_refused'; code: number; message: string };
