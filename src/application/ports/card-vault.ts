/**
 * Card-on-file storage. The full card number exists only inside the vault (encrypted) and in memory
 * for the duration of a connector call; everything else in the system holds the opaque token.
 * There is deliberately no field for the CVV: it must never be stored.
 */

export interface StoredCard {
  number: string;
  expMonth: string; // MM
  expYear: string; // YYYY
  holder?: string;
}

export interface CardVault {
  /** Returns a new opaque token; storing the same card twice gives two tokens. */
  store(card: StoredCard): Promise<string>;
  /** null when the token is unknown. A record that fails its integrity check throws. */
  retrieve(token: string): Promise<StoredCard | null>;
}
