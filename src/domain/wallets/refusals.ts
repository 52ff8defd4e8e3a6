/**
 * How a wallet token is refused. Each refusal names the spec's error it becomes at the API edge;
 * `reason` says what failed, for the operator's log, and never holds card data.
 */

/** The token is not one of the accepted shapes: `100000 Request data is invalid.` */
export class WalletTokenMalformed extends Error {
  readonly errorCode = 100000;
  readonly errorMessage = 'Request data is invalid.';
  constructor(readonly reason: string) {
    super(`wallet token malformed: ${reason}`);
    this.name = 'WalletTokenMalformed';
  }
}

/**
 * The token is well formed but cannot be trusted or opened: a failed signature, chain, tag, expiry
 * or freshness check, no key matching it, or a token seen before. One refusal for all of them, so
 * a sender learns nothing about which check failed: `250003 The payment token signature has expired`.
 */
export class WalletTokenRefused extends Error {
  readonly errorCode = 250003;
  readonly errorMessage = 'The payment token signature has expired';
  constructor(readonly reason: string) {
    super(`wallet token refused: ${reason}`);
    this.name = 'WalletTokenRefused';
  }
}

/**
 * The merchant has not set up what the card flow needs for this wallet (no keys, or the wallet is
 * unknown): `204018 Payment digital wallet not supported`. Flows that can fall back to the virtual
 * flow do so instead of answering with it.
 */
export class WalletNotConfigured extends Error {
  readonly errorCode = 204018;
  readonly errorMessage = 'Payment digital wallet not supported';
  constructor(readonly reason: string) {
    super(`wallet not configured: ${reason}`);
    this.name = 'WalletNotConfigured';
  }
}
