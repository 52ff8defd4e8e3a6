/**
 * What the wallet use cases need from cryptography: opening tokens against this deployment's trust
 * roots (the sandbox's own roots in the sandbox, the wallets' real roots in production), checking
 * the keys a merchant pastes, and sealing those keys at rest bound to their merchant.
 */
import type { ApplePaymentData, GoogleEcv2Token } from '../../domain/wallets/token-shape';

export interface WalletCrypto {
  /**
   * Verifies the signature, its certificate chain to a trusted root and its freshness, then
   * decrypts with the processing key `header.publicKeyHash` names. Resolves with the decrypted JSON;
   * throws WalletTokenRefused on any failure.
   */
  openApple(paymentData: ApplePaymentData, keys: { processingKeyPems: string[]; merchantIdentifier: string }, now: Date): Promise<unknown>;
  /**
   * Verifies the intermediate key with the trusted root signing keys and the message with the
   * intermediate key (recipient `recipientId`), both expirations, then decrypts. Resolves with the
   * decrypted message; throws WalletTokenRefused on any failure.
   */
  openGoogle(token: GoogleEcv2Token, keys: { privateKeyPems: string[]; recipientId: string }, now: Date): Promise<unknown>;
  /** The public facts of a P-256 private key (PEM); throws WalletSettingsInvalid naming `setting` otherwise. */
  describePrivateKey(setting: string, pem: string): { applePublicKeyHash: string; uncompressedPublicKey: string };
  /** Throws WalletSettingsInvalid naming `setting` when `pem` is not an X.509 certificate. */
  checkCertificate(setting: string, pem: string): void;
  /**
   * Throws WalletSettingsInvalid naming `setting` unless `keyPem` can be a TLS client's key (RSA
   * of 2048 bits or more, or P-256: Apple issues merchant identity certificates for RSA keys) and,
   * with `certificatePem`, is the key that certificate certifies.
   */
  checkIdentityKey(setting: string, keyPem: string, certificatePem: string | null): void;
}

/** Seals a merchant's wallet keys, bound to that merchant (a ciphertext moved to another merchant does not open). */
export interface WalletKeyCipher {
  seal(merchantId: string, plaintext: string): string;
  open(merchantId: string, ciphertext: string): string;
}
