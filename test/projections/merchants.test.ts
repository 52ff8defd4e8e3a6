import { expect } from 'chai';
import { T0, T2, T3, appendMerchantEvents, merchantRegistered, merchantSettingsChanged } from '../support/payment-fixtures';
import { forEachDialect } from './harness';

forEachDialect('merchants read model', (fixture) => {
  it('projects a registered merchant, found by client key, merchant key and id', async function () {
    const registered = merchantRegistered({
      merchantId: 'm-100',
      name: 'Ticket Shop',
      environment: 'production',
      clientKey: 'client-key-100',
      merchantKey: 'merchant-key-100',
      passwordCiphertext: 'v1:abc:def:ghi',
      paymentMode: 'SMS/DMS',
      ipAllowlist: ['203.0.113.0/24', '198.51.100.7'],
      refundsEnabled: false,
    });
    await appendMerchantEvents(fixture().store, 'm-100', [registered]);

    await fixture().projector.catchUp();

    const expected = {
      merchantId: 'm-100',
      name: 'Ticket Shop',
      environment: 'production',
      clientKey: 'client-key-100',
      merchantKey: 'merchant-key-100',
      passwordCiphertext: 'v1:abc:def:ghi',
      paymentMode: 'SMS/DMS',
      notificationUrl: 'https://shop.example.com/notify',
      ipAllowlist: ['203.0.113.0/24', '198.51.100.7'],
      refundsEnabled: false,
      // Registered without Protocol Mapping, as every merchant before it existed: all off.
      protocolMapping: { fields: [], returnParameters: [], requiredFields: [] },
      registeredAt: T0,
      updatedAt: T0,
    };
    const readModels = fixture().readModels;
    expect(await readModels.merchantByClientKey('client-key-100')).to.deep.equal(expected);
    expect(await readModels.merchantByMerchantKey('merchant-key-100')).to.deep.equal(expected);
    expect(await readModels.merchantById('m-100')).to.deep.equal(expected);
    expect(await readModels.merchantByClientKey('merchant-key-100')).to.equal(undefined);
    expect(await readModels.merchantById('m-404')).to.equal(undefined);
  });

  it('applies settings changes on top of the registration, keeping keys and registration time', async function () {
    await appendMerchantEvents(fixture().store, 'm-1', [
      merchantRegistered({ merchantId: 'm-1', clientKey: 'ck-1', merchantKey: 'mk-1', refundsEnabled: true }),
    ]);
    await fixture().projector.catchUp();

    await appendMerchantEvents(fixture().store, 'm-1', [
      merchantSettingsChanged('m-1', { name: 'Renamed Shop', refundsEnabled: false }, T2),
      merchantSettingsChanged('m-1', { ipAllowlist: ['10.0.0.0/8'], notificationUrl: null, paymentMode: 'DMS' }, T3),
    ]);
    await fixture().projector.catchUp();

    expect(await fixture().readModels.merchantById('m-1')).to.deep.include({
      name: 'Renamed Shop',
      refundsEnabled: false,
      ipAllowlist: ['10.0.0.0/8'],
      notificationUrl: null,
      paymentMode: 'DMS',
      clientKey: 'ck-1',
      merchantKey: 'mk-1',
      registeredAt: T0,
      updatedAt: T3,
    });
  });

  it('lists merchants in registration order', async function () {
    await appendMerchantEvents(fixture().store, 'm-b', [merchantRegistered({ merchantId: 'm-b', registeredAt: T2 })]);
    await appendMerchantEvents(fixture().store, 'm-a', [merchantRegistered({ merchantId: 'm-a', registeredAt: T0 })]);
    await appendMerchantEvents(fixture().store, 'm-c', [merchantSettingsChanged('m-c', { name: 'never registered' })]);

    await fixture().projector.catchUp();

    const merchants = await fixture().readModels.listMerchants();
    expect(merchants.map((m) => m.merchantId)).to.deep.equal(['m-a', 'm-b']);
    expect(merchants.every((m) => typeof m.refundsEnabled === 'boolean')).to.equal(true);
  });
});
