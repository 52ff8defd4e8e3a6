/**
 * The crypto against tokens made by the wallets themselves (see fixtures/published-vectors.ts for
 * where each comes from): a real Apple Pay token chained to Apple Root CA - G3, a real Google Pay
 * TEST token signed by Google's test root key, and Tink's ECv1 vector for the Google primitives.
 */
import { expect } from 'chai';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { decryptApplePaymentData, verifyAppleSignature } from '../../src/adapters/wallets/apple-ec-v1';
import { lengthPrefixed, openEciesKem, openGoogleToken, verifyEcdsa } from '../../src/adapters/wallets/google-ec-v2';
import { APPLE_ROOT_CA_G3_SHA256, appleRootCaG3 } from '../../src/adapters/wallets/apple-root-ca-g3';
import { WalletTokenRefused } from '../../src/domain/wallets/refusals';
import { parseWalletToken, type ApplePaymentData, type GoogleEcv2Token } from '../../src/domain/wallets/token-shape';
import { appleWalletCard, googleWalletCard } from '../../src/domain/wallets/wallet-card';
import { APPLE_ROOT_CA_G3_PEM, APPLE_VECTOR, GOOGLE_VECTOR, TINK_ECV1_VECTOR } from './fixtures/published-vectors';
import { walletWorld } from './support';

const appleData = (): ApplePaymentData => {
  const parsed = parseWalletToken('applepay', JSON.stringify(APPLE_VECTOR.token));
  if (parsed.wallet !== 'applepay') throw new Error('not Apple');
  return parsed.paymentData;
};
const googleToken = (): GoogleEcv2Token => {
  const parsed = parseWalletToken('googlepay', GOOGLE_VECTOR.token);
  if (parsed.wallet !== 'googlepay') throw new Error('not Google');
  return parsed.token;
};

const signedAt = Date.parse(APPLE_VECTOR.signingTime);

async function refused(run: () => unknown): Promise<WalletTokenRefused> {
  try {
    await run();
  } catch (error) {
    expect(error).to.be.instanceOf(WalletTokenRefused);
    return error as WalletTokenRefused;
  }
  throw new Error('expected a refusal');
}

describe('Published wallet test vectors', function () {
  describe('Apple Pay EC_v1, signed by Apple', function () {
    it('Given the built-in Apple Root CA - G3, then it is the one Apple publishes (fingerprint)', () => {
      expect(appleRootCaG3().fingerprint256).to.equal(APPLE_ROOT_CA_G3_SHA256);
      expect(new X509Certificate(APPLE_ROOT_CA_G3_PEM).fingerprint256).to.equal(APPLE_ROOT_CA_G3_SHA256);
    });

    it('Given the token a minute after it was signed and Apple\'s root, when verified, then the signature, chain and OIDs hold', async () => {
      const time = await verifyAppleSignature(appleData(), { roots: [appleRootCaG3()], now: new Date(signedAt + 60_000) });
      expect(time.toISOString()).to.equal('2023-03-07T05:33:48.000Z');
    });

    it('Given the published processing key (SEC1), when the data is decrypted, then it is the card Apple encrypted', () => {
      const decrypted = decryptApplePaymentData(appleData(), {
        processingKeys: [createPrivateKey(APPLE_VECTOR.processingKeyPem)],
        merchantIdentifier: APPLE_VECTOR.merchantIdentifier,
      });
      const card = appleWalletCard(decrypted, APPLE_VECTOR.token.header.transactionId);
      expect(card).to.include({ panType: 'DPAN', ...APPLE_VECTOR.expected });
    });

    it('Given the same token six minutes after signing, when verified, then it is stale', async () => {
      const error = await refused(() => verifyAppleSignature(appleData(), { roots: [appleRootCaG3()], now: new Date(signedAt + 6 * 60_000) }));
      expect(error.reason).to.match(/five minutes/);
    });

    it('Given a sandbox that trusts only its own root, when Apple\'s real token arrives, then its chain is refused', async () => {
      const w = await walletWorld();
      try {
        const error = await refused(() => verifyAppleSignature(appleData(), { roots: [w.material.appleRoot], now: new Date(signedAt + 60_000) }));
        expect(error.reason).to.match(/chain/);
      } finally {
        w.close();
      }
    });

    it('Given the token\'s data changed by one byte, when verified against Apple\'s root, then the signature fails', async () => {
      const data = appleData();
      const bytes = Buffer.from(data.data, 'base64');
      bytes[0] ^= 1;
      await refused(() => verifyAppleSignature({ ...data, data: bytes.toString('base64') }, { roots: [appleRootCaG3()], now: new Date(signedAt + 60_000) }));
    });
  });

  describe('Google Pay ECv2, signed by Google\'s test root key', function () {
    const trust = (nowMs: number) => ({ rootKeys: GOOGLE_VECTOR.rootKeys.keys, recipientId: GOOGLE_VECTOR.recipientId, now: new Date(nowMs) });
    const key = () => [createPrivateKey(GOOGLE_VECTOR.privateKeyPem)];

    it('Given the token at the time it was published and its recipient key, when opened, then it is the tokenized card', () => {
      const decrypted = openGoogleToken(googleToken(), trust(GOOGLE_VECTOR.openedAtMs), key());
      const card = googleWalletCard(decrypted);
      expect(card).to.include({ panType: 'DPAN', transactionId: GOOGLE_VECTOR.expected.messageId, pan: GOOGLE_VECTOR.expected.pan });
      expect(card).to.include({ expMonth: '12', expYear: '2025', cryptogram: GOOGLE_VECTOR.expected.cryptogram, eci: '07' });
    });

    it('Given the moment after its message expiration, when opened, then it is refused', async () => {
      await refused(() => openGoogleToken(googleToken(), trust(GOOGLE_VECTOR.messageExpirationMs + 1), key()));
    });

    it('Given the moment after its intermediate key expired, when opened, then it is refused', async () => {
      const error = await refused(() => openGoogleToken(googleToken(), trust(GOOGLE_VECTOR.keyExpirationMs + 1), key()));
      expect(error.reason).to.match(/intermediate signing key has expired/);
    });

    it('Given another recipient id, when opened, then the message signature does not verify', async () => {
      await refused(() => openGoogleToken(googleToken(), { ...trust(GOOGLE_VECTOR.openedAtMs), recipientId: 'gateway:someone' }, key()));
    });

    it('Given the sandbox\'s own root keys instead of Google\'s, when opened, then the intermediate key is not trusted', async () => {
      const w = await walletWorld();
      try {
        await refused(() => openGoogleToken(googleToken(), { ...trust(GOOGLE_VECTOR.openedAtMs), rootKeys: w.material.googleRootKeys.keys }, key()));
      } finally {
        w.close();
      }
    });
  });

  describe('Tink ECv1 (the same primitives with 16-byte keys)', function () {
    const token = JSON.parse(TINK_ECV1_VECTOR.token) as { signature: string; signedMessage: string };

    it('Given the vector, then its length-prefixed signature verifies with the published root key, and not for another recipient', () => {
      expect(verifyEcdsa(TINK_ECV1_VECTOR.rootKeyValue, token.signature, lengthPrefixed(['Google', TINK_ECV1_VECTOR.recipientId, 'ECv1', token.signedMessage]))).to.equal(true);
      expect(verifyEcdsa(TINK_ECV1_VECTOR.rootKeyValue, token.signature, lengthPrefixed(['Google', 'other', 'ECv1', token.signedMessage]))).to.equal(false);
    });

    it('Given the vector, then ECIES-KEM with HKDF-SHA256 opens it to the published plaintext, and a flipped tag does not', () => {
      const key = createPrivateKey({ key: Buffer.from(TINK_ECV1_VECTOR.merchantPrivateKeyPkcs8Base64, 'base64'), format: 'der', type: 'pkcs8' });
      const message = JSON.parse(token.signedMessage) as { encryptedMessage: string; ephemeralPublicKey: string; tag: string };
      expect(openEciesKem(message, key, 16)?.toString('utf8')).to.equal(TINK_ECV1_VECTOR.plaintext);
      const tag = Buffer.from(message.tag, 'base64');
      tag[0] ^= 1;
      expect(openEciesKem({ ...message, tag: tag.toString('base64') }, key, 16)).to.equal(null);
    });
  });
});
