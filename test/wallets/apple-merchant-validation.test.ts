/**
 * Apple Pay's merchant validation (docs/wallets.md#apple-pay-merchant-validation): the gateway
 * calls the configured Payment Session endpoint over mutual TLS with the merchant identity
 * certificate and key of the merchant's wallet settings, and hands back Apple's merchant session.
 * A local HTTPS server under a test CA stands in for Apple; production never calls non-public
 * addresses. The identity key is any key such a certificate certifies (Apple's are RSA), and the
 * certificate's own.
 */
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { HttpsApplePayMerchantSessions } from '../../src/adapters/wallets/apple-merchant-sessions';
import { WalletSettingsInvalid, keyToOneLine } from '../../src/domain/wallets/settings';
import { MERCHANT_IDENTIFIER, refusal, walletWorld, type WalletWorld } from './support';
import { startValidationServer, testCa, type Identity, type TestCa, type ValidationServer } from './apple-validation-server';

const GATEWAY_HOST = 'pay.gateway.example';
const payee = (w: WalletWorld) => ({ merchantId: w.merchant.merchantId, name: 'Corner Bookshop', clientKey: w.merchant.clientKey });

describe('Apple Pay merchant validation', function () {
  let ca: TestCa;
  let apple: ValidationServer;
  let identity: Identity;
  before(async () => {
    ca = await testCa();
    apple = await startValidationServer(ca);
    identity = await ca.issue({ commonName: `Merchant ID: ${MERCHANT_IDENTIFIER}`, uid: MERCHANT_IDENTIFIER });
  });
  after(() => apple.stop());
  beforeEach(() => {
    apple.seen.length = 0;
    apple.answer = { status: 200, body: JSON.stringify({ merchantSessionIdentifier: 'SSH-TEST', nonce: 'n0', signature: 'c2ln' }) };
  });

  const sessions = (allowNonPublicAddresses = true) => new HttpsApplePayMerchantSessions({ url: apple.url, allowNonPublicAddresses, ca: ca.caPem, timeoutMs: 5000 });

  describe('with a merchant whose settings hold the identity certificate and key', function () {
    let w: WalletWorld;
    beforeEach(async () => {
      w = await walletWorld({ merchantSessions: sessions() });
      await w.wallets.settings.update(w.merchant.merchantId, {
        apple: { certificate: identity.certificatePem, privateKey: identity.keyLine, shopName: 'Corner Books' },
        domains: ['shop.example.com'],
      });
    });
    afterEach(() => w.close());

    it('Given the hosted page asks, When validated, Then Apple is called with the identity certificate and the page\'s domain, and its session comes back', async () => {
      const outcome = await w.wallets.device.merchantSession(payee(w), GATEWAY_HOST, GATEWAY_HOST);
      expect(outcome).to.deep.equal({ ok: true, merchantSession: { merchantSessionIdentifier: 'SSH-TEST', nonce: 'n0', signature: 'c2ln' } });
      expect(apple.seen).to.deep.equal([
        {
          path: '/paymentservices/paymentSession',
          clientSubject: `Merchant ID: ${MERCHANT_IDENTIFIER}`,
          body: { merchantIdentifier: MERCHANT_IDENTIFIER, displayName: 'Corner Books', initiative: 'web', initiativeContext: GATEWAY_HOST },
        },
      ]);
    });

    it('Given a shop\'s page on one of the merchant\'s wallet domains, Then that domain is the context; any other domain is refused before Apple is called', async () => {
      expect(await w.wallets.device.merchantSession(payee(w), 'shop.example.com', GATEWAY_HOST)).to.include({ ok: true });
      expect((apple.seen[0].body as { initiativeContext: string }).initiativeContext).to.equal('shop.example.com');
      const other = await w.wallets.device.merchantSession(payee(w), 'evil.example.net', GATEWAY_HOST);
      expect(other).to.deep.equal({ ok: false, kind: 'not_set_up', message: "evil.example.net is not one of the merchant's wallet domains." });
      expect(apple.seen).to.have.length(1);
    });

    it('Given Apple refuses or answers something that is no session, Then validation is unavailable', async () => {
      apple.answer = { status: 400, body: '{"statusMessage":"Payment Services Exception"}' };
      expect(await w.wallets.device.merchantSession(payee(w), GATEWAY_HOST, GATEWAY_HOST)).to.deep.equal({ ok: false, kind: 'unavailable' });
      apple.answer = { status: 200, body: '["not", "a", "session"]' };
      expect(await w.wallets.device.merchantSession(payee(w), GATEWAY_HOST, GATEWAY_HOST)).to.deep.equal({ ok: false, kind: 'unavailable' });
    });
  });

  it('Given a merchant without the identity certificate and key, Then validation is refused naming what its settings lack, and Apple is not called', async () => {
    const w = await walletWorld({ merchantSessions: sessions() });
    try {
      const outcome = await w.wallets.device.merchantSession(payee(w), GATEWAY_HOST, GATEWAY_HOST);
      expect(outcome).to.deep.equal({
        ok: false,
        kind: 'not_set_up',
        message: "Apple Pay merchant validation is not set up: the merchant's wallet settings lack Certificate, Private Key.",
      });
      expect(apple.seen).to.deep.equal([]);
    } finally {
      w.close();
    }
  });

  describe('the outbound call', function () {
    const request = { certificatePem: '', privateKeyPem: '', body: { merchantIdentifier: MERCHANT_IDENTIFIER, displayName: 'Shop', initiative: 'web' as const, initiativeContext: GATEWAY_HOST } };

    it('Given production (no non-public address), When the endpoint is on this machine, Then nothing is sent', async () => {
      const answer = await sessions(false).start({ ...request, certificatePem: identity.certificatePem, privateKeyPem: identity.keyPem });
      expect(answer).to.deep.equal({ ok: false, reason: 'non-public address refused' });
      const named = new HttpsApplePayMerchantSessions({ url: 'https://apple-pay-gateway.test/paymentSession', allowNonPublicAddresses: false, resolve: async () => ['8.8.8.8', '10.0.0.5'] });
      expect(await named.start(request)).to.deep.equal({ ok: false, reason: 'non-public address refused' });
      expect(apple.seen).to.deep.equal([]);
    });

    it('Given a client certificate of another CA, Then the endpoint takes it for none, and without the test CA the gateway does not trust the stand-in', async () => {
      const otherCa = await testCa();
      const foreign = await otherCa.issue({ commonName: 'Someone Else' });
      await sessions().start({ ...request, certificatePem: foreign.certificatePem, privateKeyPem: foreign.keyPem });
      expect(apple.seen.map((s) => s.clientSubject)).to.deep.equal([null]);
      const untrusting = new HttpsApplePayMerchantSessions({ url: apple.url, allowNonPublicAddresses: true });
      const answer = await untrusting.start({ ...request, certificatePem: identity.certificatePem, privateKeyPem: identity.keyPem });
      expect(answer.ok).to.equal(false);
      expect(apple.seen).to.have.length(1);
    });
  });

  describe('the identity key in the settings', function () {
    let w: WalletWorld;
    beforeEach(async () => {
      w = await walletWorld();
    });
    afterEach(() => w.close());

    it('Given an RSA key of 2048 bits (as Apple certifies), Then it is taken; a shorter RSA key is refused saying what is', async () => {
      const rsa = (bits: number) => keyToOneLine(generateKeyPairSync('rsa', { modulusLength: bits }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
      const view = await w.wallets.settings.update(w.merchant.merchantId, { apple: { privateKey: rsa(2048) } });
      expect(view.apple!.privateKeySet).to.equal(true);
      const error = await refusal(w.wallets.settings.update(w.merchant.merchantId, { apple: { privateKey: rsa(1024) } }));
      expect(error).to.be.instanceOf(WalletSettingsInvalid);
      expect(error.message).to.equal('Private Key must be an RSA private key of 2048 bits or more, or an elliptic-curve P-256 one (PKCS#8 or SEC1).');
    });

    it('Given a key that is not the certificate\'s (with it, or against the stored one), Then it is refused', async () => {
      const other = await ca.issue({ commonName: 'Other' });
      const error = await refusal(w.wallets.settings.update(w.merchant.merchantId, { apple: { certificate: identity.certificatePem, privateKey: other.keyLine } }));
      expect(error.message).to.equal('Private Key is not the key of the Certificate.');
      await w.wallets.settings.update(w.merchant.merchantId, { apple: { certificate: identity.certificatePem } });
      const later = await refusal(w.wallets.settings.update(w.merchant.merchantId, { apple: { privateKey: other.keyLine } }));
      expect(later.message).to.equal('Private Key is not the key of the Certificate.');
    });
  });
});
