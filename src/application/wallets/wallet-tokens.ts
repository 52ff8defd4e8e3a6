/**
 * The interface the payment flows use for wallet tokens.
 *
 * - Virtual flow: `parse` checks the token's shape only; the token then goes to the connector as
 *   it came, undecrypted, and nothing of it is stored.
 * - Card flow: `open` verifies and decrypts the token with the merchant's keys, accepts each token
 *   once, and hands back the card, in memory only, for the vault. `openForPayment` does the same
 *   but hands the one-time record back instead of appending it, for the payment to append together
 *   with its own claim (an S2S order reservation, a Checkout attempt): a repeat of the same order
 *   then meets the reservation first and gets the original outcome, never "token used before".
 *
 * Refusals: WalletTokenMalformed (100000 Request data is invalid.), WalletTokenRefused (250003),
 * WalletNotConfigured (204018) from src/domain/wallets/refusals.ts.
 */
import { createHash } from 'node:crypto';
import { newId } from '../new-id';
import type { Clock } from '../ports/clock';
import { NO_STREAM, WrongExpectedVersionError, type EventStore, type ExpectedVersion, type NewEvent } from '../ports/event-store';
import type { WalletCrypto, WalletKeyCipher } from '../ports/wallet-crypto';
import { WALLET_EVENT_SCHEMA_VERSION, walletTokenStreamId, type WalletTokenRedeemed } from '../../domain/wallets/events';
import { WalletNotConfigured, WalletTokenRefused } from '../../domain/wallets/refusals';
import { parseWalletToken, type Wallet, type WalletToken } from '../../domain/wallets/token-shape';
import { appleWalletCard, googleWalletCard, type WalletCard } from '../../domain/wallets/wallet-card';
import type { WalletSettingsState } from '../../domain/wallets/deciders';
import type { WalletSettingsService } from './wallet-settings';

/** The merchant a token is for: its id, and its client_key (Google's default Gateway Merchant ID). */
export interface WalletMerchant {
  merchantId: string;
  clientKey: string;
}

/** A token opened for a payment: the card (memory only) and the token's one-time record, not yet appended. */
export interface OpenedWalletToken {
  card: WalletCard;
  /** Append expecting no stream, in the same write as the payment; a conflict there means the token was used before. */
  redemption: { streamId: string; events: NewEvent[]; expected: ExpectedVersion };
}

/** Whether a failed append was the one-time record of a token that was used before. */
export const isTokenReuse = (error: unknown, redemption: OpenedWalletToken['redemption']): boolean =>
  error instanceof WrongExpectedVersionError && error.streamId === redemption.streamId;

/** The keys the card flow needs, decrypted, or why there are none. */
type CardFlowKeys =
  | { wallet: 'applepay'; processingKeyPems: string[]; merchantIdentifier: string }
  | { wallet: 'googlepay'; privateKeyPems: string[]; recipientId: string; gatewayMerchantId: string | null };

export class WalletTokens {
  constructor(
    private readonly deps: {
      store: EventStore;
      crypto: WalletCrypto;
      cipher: WalletKeyCipher;
      clock: Clock;
      settings: WalletSettingsService;
    },
  ) {}

  /** Shape only (the virtual flow): throws WalletTokenMalformed. */
  parse(wallet: Wallet, token: string | object): WalletToken {
    return parseWalletToken(wallet, token);
  }

  /** Whether the merchant has what the card flow needs for `wallet` (its keys and identity). */
  async cardFlowAvailable(merchantId: string, wallet: Wallet): Promise<boolean> {
    return missingForCardFlow(wallet, await this.deps.settings.state(merchantId)) === null;
  }

  /**
   * The card flow: shape, signature, chain or root keys, freshness, decryption, the merchant's
   * Gateway Merchant ID (Google), then the one-time claim of the token's id. The card returned
   * must go to the vault and nowhere else.
   */
  async open(merchant: WalletMerchant, wallet: Wallet, token: string | object): Promise<WalletCard> {
    const opened = await this.openForPayment(merchant, wallet, token);
    try {
      await this.deps.store.append(opened.redemption.streamId, opened.redemption.events, opened.redemption.expected);
    } catch (error) {
      if (isTokenReuse(error, opened.redemption)) throw new WalletTokenRefused('the token was used before');
      throw error;
    }
    return opened.card;
  }

  /**
   * The card flow's checks and decryption as in `open`, and whether the token was accepted before;
   * its one-time record is handed back for the caller to append with the payment (see the top).
   */
  async openForPayment(merchant: WalletMerchant, wallet: Wallet, token: string | object): Promise<OpenedWalletToken> {
    const parsed = parseWalletToken(wallet, token);
    const keys = await this.keysFor(merchant.merchantId, wallet);
    const now = this.deps.clock.now();
    let card: WalletCard;
    if (parsed.wallet === 'applepay' && keys.wallet === 'applepay') {
      const decrypted = await this.deps.crypto.openApple(parsed.paymentData, keys, now);
      card = appleWalletCard(decrypted, parsed.paymentData.header.transactionId);
    } else if (parsed.wallet === 'googlepay' && keys.wallet === 'googlepay') {
      const decrypted = await this.deps.crypto.openGoogle(parsed.token, keys, now);
      card = googleWalletCard(decrypted);
      const expected = keys.gatewayMerchantId ?? merchant.clientKey;
      const carried = (decrypted as { gatewayMerchantId?: unknown }).gatewayMerchantId;
      if (carried !== expected) throw new WalletTokenRefused('gatewayMerchantId is not this merchant');
    } else {
      throw new WalletNotConfigured(`no ${wallet} keys`);
    }
    const redemption = this.redemptionOf(wallet, card.transactionId, merchant.merchantId, now);
    // Refused here already when it was used before; the append with the payment settles a race.
    if ((await this.deps.store.streamVersion(redemption.streamId)) !== null) throw new WalletTokenRefused('the token was used before');
    return { card, redemption };
  }

  /** A token's id is accepted once, in whichever process: the first append to its stream wins. */
  private redemptionOf(wallet: Wallet, transactionId: string, merchantId: string, now: Date): OpenedWalletToken['redemption'] {
    const idHash = createHash('sha256').update(transactionId, 'utf8').digest('hex');
    const event: WalletTokenRedeemed = { type: 'WalletTokenRedeemed', data: { wallet, merchantId, redeemedAt: now.toISOString() } };
    return {
      streamId: walletTokenStreamId(wallet, idHash),
      events: [{ id: newId(), type: event.type, schemaVersion: WALLET_EVENT_SCHEMA_VERSION, data: { ...event.data } }],
      expected: NO_STREAM,
    };
  }

  private async keysFor(merchantId: string, wallet: Wallet): Promise<CardFlowKeys> {
    const settings = await this.deps.settings.state(merchantId);
    const missing = missingForCardFlow(wallet, settings);
    if (missing) throw new WalletNotConfigured(missing);
    if (wallet === 'applepay') {
      const apple = settings.apple!;
      return {
        wallet,
        processingKeyPems: [this.deps.cipher.open(merchantId, apple.processingPrivateKeyCiphertext!)],
        merchantIdentifier: apple.merchantIdentifier!,
      };
    }
    const google = settings.google!;
    return {
      wallet,
      privateKeyPems: [this.deps.cipher.open(merchantId, google.privateKeyCiphertext!)],
      recipientId: `gateway:${google.gateway}`,
      gatewayMerchantId: google.gatewayMerchantId,
    };
  }
}

/** What the card flow lacks for `wallet`, or null when it has everything. */
export function missingForCardFlow(wallet: Wallet, settings: WalletSettingsState): string | null {
  if (wallet === 'applepay') {
    if (!settings.apple?.processingPrivateKeyCiphertext) return 'no Apple Pay Processing Private Key';
    if (!settings.apple.merchantIdentifier) return 'no Apple Pay Merchant Identifier';
    return null;
  }
  if (!settings.google?.privateKeyCiphertext) return 'no Google Pay private key';
  if (!settings.google.gateway) return 'no Google Pay Gateway';
  return null;
}
