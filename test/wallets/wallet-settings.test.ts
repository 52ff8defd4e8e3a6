/**
 * A merchant's wallet settings: keys pasted as one line (and refused otherwise, saying how),
 * P-256 only, stored encrypted and bound to the merchant; at most 99 domains, each with one
 * merchant; the domain association file found by the host.
 */
import { expect } from 'chai';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { WalletSettingsInvalid } from '../../src/domain/wallets/settings';
import { walletKeyCipher } from '../../src/adapters/wallets/node-wallet-crypto';
import { applePublicKeyHash } from '../../src/adapters/wallets/apple-ec-v1';
import { oneLine, p256, refusal, walletWorld, type WalletWorld } from './support';

const OTHER_MERCHANT = 'c0ffee00-0000-4000-8000-000000000001';

async function invalid(promise: Promise<unknown>, setting: string): Promise<string> {
  const error = await refusal(promise);
  expect(error, String(error)).to.be.instanceOf(WalletSettingsInvalid);
  expect((error as WalletSettingsInvalid).setting).to.equal(setting);
  return error.message;
}

describe('Wallet settings', function () {
  let w: WalletWorld;
  beforeEach(async () => {
    w = await walletWorld();
  });
  afterEach(() => w.close());
  const update = (input: Parameters<WalletWorld['wallets']['settings']['update']>[1], merchantId = w.merchant.merchantId) =>
    w.wallets.settings.update(merchantId, input);

  describe('the one-line key format', function () {
    it('Given a key pasted with line breaks, spaces, or text around it, when set, then it is refused saying how to paste it', async () => {
      const pem = p256().privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      const line = oneLine(p256().privateKey);
      for (const pasted of [pem, pem.trim(), line.replace('-----MIG', '----- MIG'), ` ${line}`, `${line}\n`, line.replace('END PRIVATE', 'END EC PRIVATE')]) {
        const message = await invalid(update({ apple: { processingPrivateKey: pasted } }), 'Processing Private Key');
        expect(message).to.equal(
          'Processing Private Key must be pasted as one line: -----BEGIN PRIVATE KEY----- (or EC PRIVATE KEY), the key, -----END PRIVATE KEY-----, without spaces or line breaks.',
        );
      }
    });

    it('Given PKCS#8 and SEC1 P-256 keys on one line, when set, then both are taken and the public key hash is shown', async () => {
      const pkcs8 = p256().privateKey;
      let view = await update({ apple: { processingPrivateKey: oneLine(pkcs8, 'pkcs8') } });
      expect(view.apple?.processingPublicKeyHash).to.equal(applePublicKeyHash(pkcs8));
      const sec1 = p256().privateKey;
      view = await update({ apple: { processingPrivateKey: oneLine(sec1, 'sec1') } });
      expect(view.apple?.processingPublicKeyHash).to.equal(applePublicKeyHash(sec1));
    });

    it('Given a one-line key of another curve or kind (P-384, RSA), when set, then it is refused as not P-256', async () => {
      const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
      for (const key of [p384, rsa]) {
        const message = await invalid(update({ google: { privateKey: oneLine(key) } }), 'Google Private Key');
        expect(message).to.match(/P-256/);
      }
    });
  });

  describe('keys at rest', function () {
    it('Given keys set, then no event holds them in clear, and a ciphertext opens only for its own merchant', async () => {
      const key = p256().privateKey;
      const line = oneLine(key);
      const body = line.replace(/-----[A-Z ]+-----/g, '');
      await update({ apple: { processingPrivateKey: line }, google: { privateKey: line } });
      const events = await w.store.readStream(`merchant-wallet-${w.merchant.merchantId}`);
      const text = JSON.stringify(events.map((e) => e.data));
      expect(text).not.to.include(body.slice(20, 60));
      const state = await w.wallets.settings.state(w.merchant.merchantId);
      const vaultKey = randomBytes(32);
      const cipher = walletKeyCipher(vaultKey);
      const sealed = cipher.seal(w.merchant.merchantId, 'secret');
      expect(cipher.open(w.merchant.merchantId, sealed)).to.equal('secret');
      expect(() => cipher.open(OTHER_MERCHANT, sealed)).to.throw();
      expect(state.apple?.processingPrivateKeyCiphertext).to.match(/^v1:/);
    });

    it('Given the view of the settings, then it says which keys are set and never shows them', async () => {
      const view = await w.wallets.settings.view(w.merchant.merchantId);
      expect(view.apple).to.include({ processingPrivateKeySet: true, privateKeySet: false, merchantIdentifier: 'merchant.com.example.shop' });
      expect(view.google).to.include({ privateKeySet: true, environment: 'TEST', gateway: 'examplegateway', gatewayMerchantId: null });
      expect(JSON.stringify(view)).not.to.match(/Ciphertext|BEGIN/);
    });
  });

  describe('the other settings', function () {
    it('Given valid Apple and Google settings, when set, then they are shown; and re-sending them records nothing new', async () => {
      const input = {
        apple: { country: 'DE', shopName: 'Example Shop', merchantCapabilities: ['supports3DS', 'supportsDebit'], supportedNetworks: ['visa', 'masterCard'] },
        google: { environment: 'PRODUCTION', gatewayMerchantId: 'shop-42' },
      };
      const view = await update(input);
      expect(view.apple).to.include({ country: 'DE', shopName: 'Example Shop' });
      expect(view.apple?.supportedNetworks).to.deep.equal(['visa', 'masterCard']);
      expect(view.google).to.include({ environment: 'PRODUCTION', gatewayMerchantId: 'shop-42' });
      const before = (await w.store.readStream(`merchant-wallet-${w.merchant.merchantId}`)).length;
      await update(input);
      expect((await w.store.readStream(`merchant-wallet-${w.merchant.merchantId}`)).length).to.equal(before);
    });

    it('Given a bad value for each setting, when set, then the setting is named', async () => {
      await invalid(update({ apple: { merchantIdentifier: 'com.example' } }), 'Merchant Identifier');
      await invalid(update({ apple: { country: 'Germany' } }), 'Country');
      await invalid(update({ apple: { merchantCapabilities: ['supports3DS', 'supportsBitcoin'] } }), 'Merchant Capabilities');
      await invalid(update({ apple: { supportedNetworks: ['visa', 'VISA'] } }), 'Supported Networks');
      await invalid(update({ apple: { certificate: 'not a certificate' } }), 'Certificate');
      await invalid(update({ google: { environment: 'STAGING' } }), 'Environment');
      await invalid(update({ google: { gateway: 'has spaces' } }), 'Gateway');
      await invalid(update({ google: { gatewayMerchantId: 'has spaces' } }), 'Gateway Merchant ID');
    });
  });

  describe('domains and the association file', function () {
    const domains = (n: number) => Array.from({ length: n }, (_, i) => `shop${i}.example.com`);

    it('Given 99 domains, when set, then all are registered; the 100th is refused', async () => {
      const view = await update({ domains: domains(99) });
      expect(view.domains).to.have.length(99);
      const message = await invalid(update({ domains: domains(100) }), 'domains');
      expect(message).to.equal('A merchant may register at most 99 wallet domains (got 100).');
      expect((await w.wallets.settings.view(w.merchant.merchantId)).domains).to.have.length(99);
    });

    it('Given a domain of one merchant, when another claims it, then it is refused until the first lets it go', async () => {
      await update({ domains: ['shop.example.com'] });
      const message = await invalid(update({ domains: ['other.example.com', 'shop.example.com'] }, OTHER_MERCHANT), 'domains');
      expect(message).to.match(/shop\.example\.com is registered to another merchant/);
      // Nothing of the refused change stays claimed.
      expect((await w.wallets.settings.view(OTHER_MERCHANT)).domains).to.deep.equal([]);
      await update({ domains: [] });
      expect((await update({ domains: ['shop.example.com'] }, OTHER_MERCHANT)).domains).to.deep.equal(['shop.example.com']);
    });

    it('Given a file and domains, when a host asks for the file, then its merchant\'s file comes back; other hosts get none', async () => {
      await update({ domains: ['Shop.Example.com', 'www.example.com'], domainAssociation: 'association-file-content' });
      expect(await w.wallets.settings.domainAssociationFor('shop.example.com')).to.equal('association-file-content');
      expect(await w.wallets.settings.domainAssociationFor('WWW.EXAMPLE.COM')).to.equal('association-file-content');
      expect(await w.wallets.settings.domainAssociationFor('unknown.example.com')).to.equal(null);
      await update({ domainAssociation: null });
      expect(await w.wallets.settings.domainAssociationFor('shop.example.com')).to.equal(null);
    });

    it('Given invalid domain names, when set, then they are refused', async () => {
      await invalid(update({ domains: ['https://shop.example.com'] }), 'domains');
      await invalid(update({ domains: ['localhost'] }), 'domains');
    });
  });
});
