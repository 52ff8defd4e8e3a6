/**
 * Card-on-file storage. The full card number exists only inside the vault (encrypted) and in memory
 * for the duration of a connector call; everything else in the system holds the opaque token.
 * There is deliberately no field for the CVV: it must never be stored.
 *
 * A stored card belongs to the merchant whose payment stored it. Every lookup names the merchant
 * asking, and a token of another merchant is answered exactly like a token that does not exist.
 */

export interface StoredCard {
  number: string;
  expMonth: string; // MM
  expYear: string; // YYYY
  holder?: string;
}

export interface CardVault {
  /** Returns a new opaque token owned by `merchantId`; storing the same card twice gives two tokens. */
  store(card: StoredCard, merchantId: string): Promise<string>;
  /** null when the token is unknown or belongs to another merchant. A record that fails its integrity check throws. */
  retrieve(token: string, merchantId: string): Promise<StoredCard | null>;
}

/** Records written before cards had owners, and the one-time step that gives each its merchant. */
export interface UnownedCardTokens {
  unownedTokens(): Promise<string[]>;
  /** Re-seals the record bound to its owner; a token already owned is left alone. */
  claim(token: string, merchantId: string): Promise<void>;
}
