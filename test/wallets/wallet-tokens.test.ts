/**
 * The card flow's interface (WalletTokens.open) on the sandbox's own trust material: good tokens
 * open to their card; every altered field, stale or early signature, expired message, foreign key
 * and second use is the one refusal 250003; a merchant without keys is 204018.
 */
import { expect } from 'chai';
import { createHmac, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, createCipheriv } from 'node:crypto';
import { WalletNotConfigured, WalletTokenMalformed, WalletTokenRefused } from '../../src/domain/wallets/refusals';
import { signApplePaymentData, signGoogleMessage } from '../../src/adapters/wallets/mint';
import { CARD, GATEWAY, refusal, walletWorld, type WalletWorld } from './support';

const MINUTE = 60_000;

type ApplePaymentData = { data: string; signature: string; version: string; header: Record<string, string> };

/** A copy of the token with one base64 character of `value` changed (decoding to different bytes). */
function flipBase64(value: string): string {
  const i = Math.floor(value.replace(/=+$/, '').length / 2);
  return value.slice(0, i) + (value[i] === 'A' ? 'B' : 'A') + value.slice(i + 1);
}

function flipHex(value: string): string {
  return (value[0] === '0' ? '1' : '0') + value.slice(1);
}

async function expectRefused(promise: Promise<unknown>): Promise<WalletTokenRefused> {
  const error = await refusal(promise);
  expect(error, String(error)).to.be.instanceOf(WalletTokenRefused);
  expect(error.errorCode).to.equal(250003);
  expect(error.errorMessage).to.equal('The payment token signature has expired');
  return error as WalletTokenRefused;
}

describe('Wallet tokens: the card flow opens real tokens and refuses everything else', function () {
  let w: WalletWorld;
  beforeEach(async () => {
    w = await walletWorld();
  });
  afterEach(() => w.close());

  const open = (wallet: 'applepay' | 'googlepay', token: string | object) => w.wallets.tokens.open(w.merchant, wallet, token);

  describe('round trips', function () {
    it('Given an Apple Pay token for a card, when it is opened, then the card comes back as a DPAN with its cryptogram', async () => {
      const token = await w.mintApple({ card: { ...CARD, holder: 'Jane Doe' } });
      const card = await open('applepay', JSON.stringify(token));
      expect(card).to.include({ wallet: 'applepay', pan: CARD.pan, expMonth: '12', expYear: '2030', holder: 'Jane Doe', panType: 'DPAN', eci: '7' });
      expect(card.cryptogram).to.be.a('string').and.not.be.empty;
      expect(card.transactionId).to.equal((token.paymentData as ApplePaymentData).header.transactionId);
    });

    it('Given only the paymentData of an Apple Pay token, when it is opened, then it opens like the whole token', async () => {
      const token = await w.mintApple();
      const card = await open('applepay', token.paymentData as object);
      expect(card.pan).to.equal(CARD.pan);
    });

    it('Given a Google Pay CRYPTOGRAM_3DS token, when it is opened, then the card is a DPAN with cryptogram and ECI', async () => {
      const card = await open('googlepay', JSON.stringify(w.mintGoogle({ authMethod: 'CRYPTOGRAM_3DS' })));
      expect(card).to.include({ wallet: 'googlepay', pan: CARD.pan, expMonth: '12', expYear: '2030', panType: 'DPAN', eci: '05' });
      expect(card.cryptogram).to.be.a('string').and.not.be.empty;
    });

    it('Given a Google Pay PAN_ONLY token, when it is opened, then the card is an FPAN without a cryptogram', async () => {
      const card = await open('googlepay', w.mintGoogle({ authMethod: 'PAN_ONLY' }));
      expect(card).to.include({ pan: CARD.pan, panType: 'FPAN' });
      expect(card).not.to.have.property('cryptogram');
      expect(card).not.to.have.property('eci');
    });

    it('Given a whole Google PaymentData, the token as a string or as an object, when it is opened, then both open', async () => {
      const ecv2 = w.mintGoogle();
      const asString = { apiVersion: 2, paymentMethodData: { type: 'CARD', tokenizationData: { type: 'PAYMENT_GATEWAY', token: JSON.stringify(ecv2) } } };
      expect((await open('googlepay', JSON.stringify(asString))).pan).to.equal(CARD.pan);
      const asObject = { apiVersion: 2, paymentMethodData: { type: 'CARD', tokenizationData: { token: w.mintGoogle() } } };
      expect((await open('googlepay', asObject)).pan).to.equal(CARD.pan);
    });
  });

  describe('each token is accepted once', function () {
    it('Given an Apple Pay token already opened, when it is opened again, then it is refused', async () => {
      const token = JSON.stringify(await w.mintApple());
      await open('applepay', token);
      const error = await expectRefused(open('applepay', token));
      expect(error.reason).to.match(/used before/);
    });

    it('Given a Google Pay token already opened, when it is opened again (even for another merchant), then it is refused', async () => {
      const token = JSON.stringify(w.mintGoogle());
      await open('googlepay', token);
      await expectRefused(open('googlepay', token));
      const redeemed = (await w.store.readAll()).filter((e) => e.type === 'WalletTokenRedeemed');
      expect(redeemed).to.have.length(1);
      // The stream holds no card data and not even the token's own id.
      expect(JSON.stringify(redeemed.map((e) => e.data))).not.to.include(CARD.pan);
    });

    it('Given a token refused for its signature, when a good token is opened, then a refusal did not use up anything', async () => {
      const token = (await w.mintApple()) as { paymentData: ApplePaymentData };
      await expectRefused(open('applepay', { ...token.paymentData, data: flipBase64(token.paymentData.data) }));
      expect((await open('applepay', token)).pan).to.equal(CARD.pan);
    });
  });

  describe('Apple Pay freshness (signingTime at most five minutes old, at most a minute ahead)', function () {
    const signedAgo = async (ms: number) => open('applepay', await w.mintApple({ signedAt: new Date(w.clock.time - ms) }));

    it('Given a token signed exactly five minutes ago, when it is opened, then it opens', async () => {
      expect((await signedAgo(5 * MINUTE)).pan).to.equal(CARD.pan);
    });

    it('Given a token signed five minutes and one second ago, when it is opened, then it is refused', async () => {
      await expectRefused(signedAgo(5 * MINUTE + 1000));
    });

    it('Given a token signed 60 s in the future, when it is opened, then it opens; 61 s, then it is refused', async () => {
      expect((await signedAgo(-60_000)).pan).to.equal(CARD.pan);
      await expectRefused(signedAgo(-61_000));
    });

    it('Given a good token held back until the clock has moved six minutes on, when it is opened, then it is refused', async () => {
      const token = await w.mintApple();
      w.clock.time += 6 * MINUTE;
      await expectRefused(open('applepay', token));
    });
  });

  describe('Google Pay expirations', function () {
    it('Given a token whose message expiry has passed, when it is opened, then it is refused', async () => {
      const token = w.mintGoogle({ signedAt: new Date(w.clock.time) });
      w.clock.time += 8 * 24 * 60 * MINUTE;
      await expectRefused(open('googlepay', token));
    });

    it('Given a token whose intermediate key has expired but whose message has not, when it is opened, then it is refused', async () => {
      const token = w.mintGoogle() as { signedMessage: string; intermediateSigningKey: { signedKey: string } };
      // Re-signed around the same message with an intermediate key that expired a day ago.
      const resigned = signGoogleMessage(w.material, `gateway:${GATEWAY}`, token.signedMessage, new Date(w.clock.time - 8 * 24 * 60 * MINUTE));
      const error = await expectRefused(open('googlepay', resigned));
      expect(error.reason).to.match(/intermediate signing key has expired/);
    });
  });

  describe('tampering: every field is covered', function () {
    const appleToken = async () => (await w.mintApple()).paymentData as ApplePaymentData;
    const withHeader = (t: ApplePaymentData, key: string, value: string) => ({ ...t, header: { ...t.header, [key]: value } });

    it('Given Apple data, signature, or any header field altered, when the token is opened, then each is refused', async () => {
      const t = await appleToken();
      const altered: Array<[string, object]> = [
        ['data', { ...t, data: flipBase64(t.data) }],
        ['signature', { ...t, signature: flipBase64(t.signature) }],
        ['signature truncated', { ...t, signature: t.signature.slice(0, 400) }],
        ['ephemeralPublicKey', withHeader(t, 'ephemeralPublicKey', flipBase64(t.header.ephemeralPublicKey))],
        ['publicKeyHash', withHeader(t, 'publicKeyHash', flipBase64(t.header.publicKeyHash))],
        ['transactionId', withHeader(t, 'transactionId', flipHex(t.header.transactionId))],
        ['applicationData added', withHeader(t, 'applicationData', 'ab12')],
      ];
      for (const [field, token] of altered) {
        const error = await refusal(open('applepay', token));
        expect(error, field).to.be.instanceOf(WalletTokenRefused);
      }
    });

    it('Given Apple data altered and signed again by the trusted signer, when it is opened, then the GCM tag refuses it', async () => {
      const t = await appleToken();
      const changed = { ...t, data: flipBase64(t.data) };
      changed.signature = await signApplePaymentData(w.material, changed as never, w.clock.now());
      const error = await expectRefused(open('applepay', changed));
      expect(error.reason).to.match(/does not decrypt/);
    });

    it('Given Apple header keys swapped for another key and signed again, when it is opened, then it is refused', async () => {
      const t = await appleToken();
      const otherEphemeral = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
      const changed = withHeader(t, 'ephemeralPublicKey', otherEphemeral) as ApplePaymentData;
      changed.signature = await signApplePaymentData(w.material, changed as never, w.clock.now());
      await expectRefused(open('applepay', changed));
    });

    it('Given Google signature, signedMessage, signedKey or its signatures altered, when the token is opened, then each is refused', async () => {
      const t = w.mintGoogle() as { signature: string; signedMessage: string; intermediateSigningKey: { signedKey: string; signatures: string[] } };
      const key = JSON.parse(t.intermediateSigningKey.signedKey) as { keyValue: string; keyExpiration: string };
      const message = JSON.parse(t.signedMessage) as Record<string, string>;
      const altered: Array<[string, object]> = [
        ['signature', { ...t, signature: flipBase64(t.signature) }],
        ['signedMessage', { ...t, signedMessage: `${t.signedMessage} ` }],
        ['signedMessage.tag', { ...t, signedMessage: JSON.stringify({ ...message, tag: flipBase64(message.tag) }) }],
        ['signedMessage.encryptedMessage', { ...t, signedMessage: JSON.stringify({ ...message, encryptedMessage: flipBase64(message.encryptedMessage) }) }],
        ['signedMessage.ephemeralPublicKey', { ...t, signedMessage: JSON.stringify({ ...message, ephemeralPublicKey: flipBase64(message.ephemeralPublicKey) }) }],
        ['intermediateSigningKey.signedKey keyExpiration', { ...t, intermediateSigningKey: { ...t.intermediateSigningKey, signedKey: JSON.stringify({ ...key, keyExpiration: String(Number(key.keyExpiration) + 1) }) } }],
        ['intermediateSigningKey.signedKey keyValue', { ...t, intermediateSigningKey: { ...t.intermediateSigningKey, signedKey: JSON.stringify({ ...key, keyValue: flipBase64(key.keyValue) }) } }],
        ['intermediateSigningKey.signatures', { ...t, intermediateSigningKey: { ...t.intermediateSigningKey, signatures: [flipBase64(t.intermediateSigningKey.signatures[0])] } }],
      ];
      for (const [field, token] of altered) {
        const error = await refusal(open('googlepay', token));
        expect(error, field).to.be.instanceOf(WalletTokenRefused);
      }
    });

    it('Given a Google protocolVersion altered, when the token is opened, then it is refused before any crypto, as not an accepted token', async () => {
      const t = w.mintGoogle();
      const error = await refusal(open('googlepay', { ...t, protocolVersion: 'ECv1' }));
      expect(error).to.be.instanceOf(WalletTokenMalformed);
      expect([error.errorCode, error.errorMessage]).to.deep.equal([100000, 'Request data is invalid.']);
    });

    it('Given a Google message with a wrong tag but signed again by a trusted intermediate, when it is opened, then the tag refuses it', async () => {
      const t = w.mintGoogle() as { signedMessage: string };
      const message = JSON.parse(t.signedMessage) as Record<string, string>;
      const resigned = signGoogleMessage(w.material, `gateway:${GATEWAY}`, JSON.stringify({ ...message, tag: flipBase64(message.tag) }), w.clock.now());
      const error = await expectRefused(open('googlepay', resigned));
      expect(error.reason).to.match(/tag/);
    });

    it('Given a Google token for another recipient, when it is opened, then its signature does not verify for this gateway', async () => {
      await expectRefused(open('googlepay', w.mintGoogle({ recipientId: 'gateway:someoneelse' })));
    });

    it('Given a Google token for another Gateway Merchant ID, when it is opened, then it is refused', async () => {
      const error = await expectRefused(open('googlepay', w.mintGoogle({ gatewayMerchantId: 'another-merchant' })));
      expect(error.reason).to.match(/gatewayMerchantId/);
    });

    it('Given a configured Gateway Merchant ID, when tokens carry it or the client_key, then only the configured one opens', async () => {
      await w.wallets.settings.update(w.merchant.merchantId, { google: { gatewayMerchantId: 'shop-42' } });
      expect((await open('googlepay', w.mintGoogle({ gatewayMerchantId: 'shop-42' }))).pan).to.equal(CARD.pan);
      await expectRefused(open('googlepay', w.mintGoogle()));
    });
  });

  describe('keys', function () {
    it('Given an Apple Pay token encrypted to another processing key, when it is opened, then no key matches its publicKeyHash', async () => {
      const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
      const error = await expectRefused(open('applepay', await w.mintApple({ processingKey: other })));
      expect(error.reason).to.match(/publicKeyHash/);
    });

    it('Given an Apple Pay token for another merchant identifier, when it is opened, then it does not decrypt', async () => {
      await expectRefused(open('applepay', await w.mintApple({ merchantIdentifier: 'merchant.com.other' })));
    });

    it('Given a Google Pay token encrypted to another key, when it is opened, then the tag does not verify with the merchant key', async () => {
      const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
      await expectRefused(open('googlepay', w.mintGoogle({ recipientKey: other })));
    });

    it('Given a merchant without wallet keys, when a token is opened, then the wallet is not supported (204018)', async () => {
      const token = await w.mintApple();
      const error = await refusal(w.wallets.tokens.open({ merchantId: 'a1b2c3d4-0000-4000-8000-000000000000', clientKey: 'x' }, 'applepay', token));
      expect(error).to.be.instanceOf(WalletNotConfigured);
      expect([error.errorCode, error.errorMessage]).to.deep.equal([204018, 'Payment digital wallet not supported']);
      expect(await w.wallets.tokens.cardFlowAvailable('a1b2c3d4-0000-4000-8000-000000000000', 'googlepay')).to.equal(false);
      expect(await w.wallets.tokens.cardFlowAvailable(w.merchant.merchantId, 'googlepay')).to.equal(true);
    });
  });

  describe('a signer the sandbox does not trust', function () {
    it('Given tokens signed with another sandbox\'s roots, when they are opened here, then both wallets refuse them', async () => {
      const stranger = await walletWorld();
      try {
        await expectRefused(open('applepay', await stranger.mintApple({ processingKey: w.appleKey })));
        await expectRefused(open('googlepay', stranger.mintGoogle({ recipientKey: w.googleKey, gatewayMerchantId: w.merchant.clientKey })));
      } finally {
        stranger.close();
      }
    });

    it('Given a Google message encrypted correctly but signed by an untrusted key, when it is opened, then it is refused', async () => {
      // Build a well-formed message to the merchant's key, signed with a root nobody trusts.
      const ephemeral = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const point = ephemeral.publicKey.export({ format: 'der', type: 'spki' }).subarray(-65);
      const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: createPublicKey(w.googleKey) });
      const keys = Buffer.from(hkdfSync('sha256', Buffer.concat([point, shared]), Buffer.alloc(32), Buffer.from('Google'), 64));
      const cipher = createCipheriv('aes-256-ctr', keys.subarray(0, 32), Buffer.alloc(16));
      const encrypted = Buffer.concat([cipher.update('{}'), cipher.final()]);
      const signedMessage = JSON.stringify({
        encryptedMessage: encrypted.toString('base64'),
        ephemeralPublicKey: point.toString('base64'),
        tag: createHmac('sha256', keys.subarray(32)).update(encrypted).digest('base64'),
      });
      const stranger = await walletWorld();
      try {
        await expectRefused(open('googlepay', signGoogleMessage(stranger.material, `gateway:${GATEWAY}`, signedMessage, w.clock.now())));
      } finally {
        stranger.close();
      }
    });
  });
});
