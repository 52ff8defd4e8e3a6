/**
 * Given a payment just made, when an operator asks the ledger or the callback deliveries about it,
 * then the route first waits for the read model it answers from, not only for the payment read
 * models a merchant's next request reads (in `npm start` those four were all it waited for).
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { CALLBACK_DELIVERIES_PROJECTION } from '../../projections/callback-deliveries/module';
import { LEDGER_PROJECTION } from '../../projections/ledger/module';
import { forEachStore } from '../support/gateway-harness';

forEachStore('admin routes wait for the read model they read', (h) => {
  afterEach(() => sinon.restore());
  const get = (path: string) => h().request(path, { headers: { Authorization: `Bearer ${h().gateway.adminToken}` } });

  it('GET /admin/ledger/balances waits for the ledger', async function () {
    const merchant = await h().createMerchant();
    await h().sale(merchant);
    const waits = sinon.spy(h().gateway.readModels, 'catchUpToHead');

    const response = await get(`/admin/ledger/balances?merchant_id=${merchant.merchant_id}`);

    expect(response.status).to.equal(200);
    expect(response.body.balances).to.not.be.empty;
    expect(waits.args.map((args) => args[1])).to.deep.equal([[LEDGER_PROJECTION]]);
  });

  it('GET /admin/callbacks waits for the callback deliveries', async function () {
    const merchant = await h().createMerchant();
    const sale = await h().sale(merchant);
    const waits = sinon.spy(h().gateway.readModels, 'catchUpToHead');

    const response = await get(`/admin/callbacks?payment_id=${sale.body.trans_id}`);

    expect(response.status).to.equal(200);
    expect(waits.args.map((args) => args[1])).to.deep.equal([[CALLBACK_DELIVERIES_PROJECTION]]);
  });
});
