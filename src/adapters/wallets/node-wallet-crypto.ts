/**
 * The WalletCrypto port over Node's crypto and pkijs, against one deployment's trust roots; and
 * the WalletKeyCipher port over the vault's secret box, each key bound to its merchant.
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { WalletCrypto, WalletKeyCipher } from '../../application/ports/wallet-crypto';
import { WalletSettingsInvalid } from '../../domain/wallets/settings';
import { WalletTokenRefused } from '../../domain/wallets/refusals';
import type { ApplePaymentData, GoogleEcv2Token } from '../../domain/wallets/token-shape';
import { decryptSecret, encryptSecret } from '../vault/secret-box';
import { applePublicKeyHash, openApplePaymentData } from './apple-ec-v1';
import { openGoogleToken } from './google-ec-v2';
import type { WalletTrust } from './trust';

/** A P-256 private key, or null. */
function p256PrivateKey(pem: string): KeyObject | null {
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : null;
  } catch {
    return null;
  }
}

/** A key a TLS client may present: RSA of 2048 bits or more, or P-256; else null. */
function identityKey(pem: string): KeyObject | null {
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType === 'rsa') return (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048 ? key : null;
    return p256PrivateKey(pem);
  } catch {
    return null;
  }
}

function merchantKeys(pems: readonly string[]): KeyObject[] {
  const keys = pems.map(p256PrivateKey).filter((k): k is KeyObject => k !== null);
  if (keys.length === 0) throw new WalletTokenRefused('no usable merchant key');
  return keys;
}

export class NodeWalletCrypto implements WalletCrypto {
  constructor(private readonly trust: WalletTrust) {}

  async openApple(paymentData: ApplePaymentData, keys: { processingKeyPems: string[]; merchantIdentifier: string }, now: Date): Promise<unknown> {
    return openApplePaymentData(
      paymentData,
      { roots: this.trust.appleRoots(), now },
      { processingKeys: merchantKeys(keys.processingKeyPems), merchantIdentifier: keys.merchantIdentifier },
    );
  }

  async openGoogle(token: GoogleEcv2Token, keys: { privateKeyPems: string[]; recipientId: string }, now: Date): Promise<unknown> {
    return openGoogleToken(token, { rootKeys: this.trust.googleRootKeys(), recipientId: keys.recipientId, now }, merchantKeys(keys.privateKeyPems));
  }

  describePrivateKey(setting: string, pem: string): { applePublicKeyHash: string; uncompressedPublicKey: string } {
    const key = p256PrivateKey(pem);
    if (!key) throw new WalletSettingsInvalid(setting, `${setting} must be an elliptic-curve P-256 private key (PKCS#8 or SEC1).`);
    const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
    return { applePublicKeyHash: applePublicKeyHash(key), uncompressedPublicKey: spki.subarray(spki.length - 65).toString('base64') };
  }

  checkCertificate(setting: string, pem: string): void {
    try {
      new X509Certificate(pem);
    } catch {
      throw new WalletSettingsInvalid(setting, `${setting} is not a readable X.509 certificate.`);
    }
  }

  checkIdentityKey(setting: string, keyPem: string, certificatePem: string | null): void {
    const key = identityKey(keyPem);
    if (!key) {
      throw new WalletSettingsInvalid(setting, `${setting} must be an RSA private key of 2048 bits or more, or an elliptic-curve P-256 one (PKCS#8 or SEC1).`);
    }
    if (certificatePem && !new X509Certificate(certificatePem).checkPrivateKey(key)) {
      throw new WalletSettingsInvalid(setting, `${setting} is not the key of the Certificate.`);
    }
  }
}

/** Wallet keys sealed with the vault key, bound to the merchant (AAD), so they cannot be moved. */
export function walletKeyCipher(vaultKey: Buffer): WalletKeyCipher {
  const context = (merchantId: string) => `merchant-wallet-key:${merchantId}`;
  return {
    seal: (merchantId, plaintext) => encryptSecret(vaultKey, plaintext, context(merchantId)),
    open: (merchantId, ciphertext) => decryptSecret(vaultKey, ciphertext, context(merchantId)),
  };
}
