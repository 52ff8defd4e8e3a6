/**
 * A SALE takes the merchant's cached settings without confirming them first: its first write
 * carries their version as a check. Whatever changed since the settings were cached must still
 * hold for the very next SALE, and a SALE under unchanged settings must not read the merchant's
 * stream version at all.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import sinon from 'sinon';
import { orderStreamId } from '../../src/domain/order/order-reservation';
import type { SandboxWalletMaterial } from '../../src/adapters/wallets/sandbox-trust';
import { forEachStore, type TestMerchant } from '../support/gateway-harness';
import { giveWalletKeys, mintToken, sandboxWallets, walletSaleFields } from '../support/wallet-payments';

forEachStore('S2S SALE under cached merchant settings', (h) => {
  afterEach(() => sinon.restore());

  /** Given a merchant whose settings this gateway cached with a first, settled SALE. */
  async function merchantWithCachedSettings(opts: Parameters<ReturnType<typeof h>['createMerchant']>[0] = {}): Promise<TestMerchant> {
    const merchant = await h().createMerchant(opts);
    const first = await h().sale(merchant);
    expect(first.body, 'given a first SALE').to.include({ result: 'SUCCESS', status: 'SETTLED' });
    return merchant;
  }

  async function nothingRecordedFor(merchant: TestMerchant, orderId: string): Promise<void> {
    expect(await h().initiatedForOrder(merchant, orderId), 'no payment').to.deep.equal([]);
    expect(await h().gateway.store.readStream(orderStreamId(merchant.merchant_id, orderId)), 'no order reservation').to.deep.equal([]);
  }

  it('an IP allowlist that now excludes the caller refuses the next SALE, and records nothing', async () => {
    const merchant = await merchantWithCachedSettings();
    await h().gateway.merchants.update(merchant.merchant_id, { ipAllowlist: ['10.0.0.0/8'] });
    const orderId = `ord-${randomUUID()}`;

    const res = await h().sale(merchant, { order_id: orderId });

    expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Request from this ip is not allowed.' });
    await nothingRecordedFor(merchant, orderId);
  });

  it('fields marked Required since refuse the next SALE without them, and record nothing', async () => {
    const merchant = await merchantWithCachedSettings();
    await h().gateway.merchants.update(merchant.merchant_id, {
      protocolMapping: { fields: [], returnParameters: [], requiredFields: ['payer_country', 'payer_zip'] },
    });
    const orderId = `ord-${randomUUID()}`;

    const res = await h().sale(merchant, { order_id: orderId, payer_country: undefined, payer_zip: undefined, payer_address: undefined, payer_city: undefined });

    expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
    expect(res.body.errors).to.deep.equal([
      { error_code: 100000, error_message: 'payer_country: This value should not be blank.' },
      { error_code: 100000, error_message: 'payer_zip: This value should not be blank.' },
    ]);
    await nothingRecordedFor(merchant, orderId);
  });

  it('fields no longer Required are not asked of the next SALE, though the cached settings required them', async () => {
    const merchant = await merchantWithCachedSettings({
      protocolMapping: { fields: [], returnParameters: [], requiredFields: ['payer_country', 'payer_zip'] },
    });
    await h().gateway.merchants.update(merchant.merchant_id, { protocolMapping: { fields: [], returnParameters: [], requiredFields: [] } });

    const res = await h().sale(merchant, { payer_country: undefined, payer_zip: undefined, payer_address: undefined, payer_city: undefined });

    expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
  });

  it('a change that does not concern the SALE lets it through once, its order id claimed once', async () => {
    const merchant = await merchantWithCachedSettings();
    await h().gateway.merchants.update(merchant.merchant_id, { refundsEnabled: false });
    const orderId = `ord-${randomUUID()}`;

    const res = await h().sale(merchant, { order_id: orderId });

    expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED', order_id: orderId });
    expect(await h().initiatedForOrder(merchant, orderId)).to.have.length(1);
    expect(await h().gateway.store.readStream(orderStreamId(merchant.merchant_id, orderId))).to.have.length(1);
  });

  it('a SALE under unchanged cached settings does not read the merchant stream version', async () => {
    const merchant = await merchantWithCachedSettings();
    const versionReads = sinon.spy(h().gateway.store, 'streamVersion');

    const res = await h().sale(merchant);

    expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    expect(versionReads.callCount, 'version reads during the SALE').to.equal(0);
    // The spy does watch the store the merchants are read from: a status lookup confirms them.
    await h().status(merchant, res.body.trans_id);
    expect(versionReads.callCount, 'version reads during a status lookup').to.be.greaterThan(0);
  });

  describe('a wallet SALE repeating an order, which writes nothing', () => {
    let material: SandboxWalletMaterial;
    before(async () => {
      material = await sandboxWallets(h());
    });

    it('is refused by an IP allowlist that now excludes the caller, not answered from the original', async () => {
      const merchant = await h().createMerchant();
      const keys = await giveWalletKeys(h(), merchant);
      const token = await mintToken(h(), material, merchant, keys, 'googlepay');
      const fields = walletSaleFields(merchant, 'googlepay', token);
      const first = await h().post(fields);
      expect(first.body, 'given a first wallet SALE').to.include({ result: 'SUCCESS', status: 'SETTLED' });
      await h().gateway.merchants.update(merchant.merchant_id, { ipAllowlist: ['10.0.0.0/8'] });

      const repeat = await h().post(fields);

      expect(repeat.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Request from this ip is not allowed.' });
    });
  });

  it('a refusal under unchanged cached settings is answered once, without asking again', async () => {
    const merchant = await merchantWithCachedSettings();
    const lookups = sinon.spy(h().gateway.merchants, 'byClientKey');

    const res = await h().sale(merchant, { hash: '0'.repeat(32) });

    expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Hash is not valid' });
    expect(lookups.callCount).to.equal(1);
  });
});
