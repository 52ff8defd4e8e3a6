import { expect } from 'chai';
import sinon from 'sinon';
import { LedgerReportQueries } from '../../projections/ledger/queries';
import { forEachStore } from '../support/gateway-harness';

forEachStore('GET /admin/ledger/balances', (h) => {
  const get = (query: string, token: string | null = h().gateway.adminToken) =>
    h().request(`/admin/ledger/balances${query}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});

  it("answers a merchant's balances per currency and account, as of a time", async function () {
    const g = h();
    const merchant = await g.createMerchant();
    // A millisecond earlier: postings dated exactly at as_of count, and the sales may share this instant.
    const before = new Date(g.clock.now().getTime() - 1).toISOString();
    await g.sale(merchant, { order_amount: '10.50', order_currency: 'EUR' });
    await g.sale(merchant, { order_amount: '1500', order_currency: 'JPY' });
    const held = await g.sale(merchant, { order_amount: '7.25', order_currency: 'EUR', auth: 'Y' });
    expect(held.body.status).to.equal('PENDING');

    const all = await get(`?merchant_id=${merchant.merchant_id}`);
    expect(all.status).to.equal(200);
    expect(all.body.result).to.equal('SUCCESS');
    expect(all.body.as_of).to.equal(null);
    expect(all.body.balances.map((b: Record<string, unknown>) => [b.currency, b.account, b.balance, b.balance_text])).to.deep.equal([
      ['EUR', 'authorized_holds', 725, '7.25'],
      ['EUR', 'merchant_receivable', 1050, '10.50'],
      ['EUR', 'payer_funds', -1050, '-10.50'],
      ['EUR', 'payer_holds', -725, '-7.25'],
      ['JPY', 'merchant_receivable', 1500, '1500'],
      ['JPY', 'payer_funds', -1500, '-1500'],
    ]);

    const jpy = await get(`?merchant_id=${merchant.merchant_id}&currency=JPY`);
    expect(jpy.body.balances.map((b: Record<string, unknown>) => b.account)).to.deep.equal(['merchant_receivable', 'payer_funds']);

    const earlier = await get(`?merchant_id=${merchant.merchant_id}&as_of=${encodeURIComponent(before)}`);
    expect(earlier.body).to.deep.equal({ result: 'SUCCESS', as_of: before, balances: [] });
  });

  it("reads through the operator's report queries (on SQLite, a connection on a thread of its own), not the payment APIs' connection", async function () {
    const g = h();
    const merchant = await g.createMerchant();
    await g.sale(merchant, { order_amount: '10.50', order_currency: 'EUR' });
    const reports = sinon.spy(LedgerReportQueries.prototype, 'balances');
    try {
      const response = await get(`?merchant_id=${merchant.merchant_id}`);
      expect(response.body.balances).to.have.length(2);
      expect(reports.callCount).to.equal(1);
    } finally {
      reports.restore();
    }
  });

  it('refuses a request without the admin token', async function () {
    const response = await get('', null);
    expect(response.status).to.equal(401);
    expect(response.body.result).to.equal('ERROR');
  });

  it('refuses an unknown currency and an as_of that is not a date-time with a zone, in the error shape', async function () {
    const response = await get('?currency=eur&as_of=2024-05-01');
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
    expect(response.body.errors.map((e: { error_message: string }) => e.error_message.split(':')[0])).to.deep.equal(['currency', 'as_of']);
  });
});
