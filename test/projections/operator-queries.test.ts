/**
 * The read-model queries behind the dashboard and the metrics' gauges, on SQLite and PostgreSQL:
 * payment search (every filter, newest first, page by page), the callback backlog and failing URLs,
 * chains and chains due, and the ledger's analyst views as the charts read them.
 */
import { expect } from 'chai';
import { allProjectionNames } from '../../projections';
import { CallbackQueries } from '../../projections/callback-deliveries/queries';
import { scoped } from '../../projections/database-schema';
import { LedgerReportQueries } from '../../projections/ledger/queries';
import { apmSale } from '../support/apm-client';
import { forEachStore, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { payout, topUp } from '../support/payout-client';
import { startChain } from '../support/recurring-chains';

forEachStore('Operator queries', (h) => {
  let t: TestGateway;
  let shop: TestMerchant;
  let other: TestMerchant;
  const ids: Record<string, string> = {};
  before(async () => {
    t = h();
    shop = await t.createMerchant({ name: 'Shop', notificationUrl: 'http://127.0.0.1:9/unreachable' });
    other = await t.createMerchant({ name: 'Other' });
    ids.first = (await t.sale(shop, { order_id: 'A-1', order_currency: 'EUR', order_amount: '10.00' })).body.trans_id;
    ids.declined = (await t.sale(shop, { order_id: 'A-2', card_exp_month: '02', order_currency: 'EUR' })).body.trans_id;
    ids.usd = (await t.sale(shop, { order_id: 'A-3', order_currency: 'USD', order_amount: '5.00' })).body.trans_id;
    await t.creditVoid(shop, ids.usd, '1.00');
    ids.other = (await t.sale(other, { order_id: 'B-1' })).body.trans_id;
    await startChain(t.gateway, other.merchant_id);
    await t.gateway.readModels.catchUpToHead(5000, allProjectionNames());
  });

  it('Given payments, then the search filters by merchant, order, id, status, method and days, newest first, a page at a time', async () => {
    const search = (filter: Parameters<typeof t.gateway.readModels.payments.searchPayments>[0]) => t.gateway.readModels.payments.searchPayments(filter);
    const all = await search({ merchantId: shop.merchant_id });
    expect(all.payments.map((p) => p.paymentId)).to.deep.equal([ids.usd, ids.declined, ids.first]);
    expect(all.next).to.equal(null);

    expect((await search({ orderId: 'A-2' })).payments.map((p) => p.paymentId)).to.deep.equal([ids.declined]);
    expect((await search({ paymentId: ids.other })).payments.map((p) => p.merchantId)).to.deep.equal([other.merchant_id]);
    expect((await search({ merchantId: shop.merchant_id, statuses: ['DECLINED'] })).payments.map((p) => p.paymentId)).to.deep.equal([ids.declined]);
    expect((await search({ merchantId: shop.merchant_id, method: 'visa' })).payments).to.have.length(3);
    expect((await search({ merchantId: shop.merchant_id, method: 'mastercard' })).payments).to.have.length(0);
    expect((await search({ channel: 'checkout' })).payments).to.have.length(0);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect((await search({ merchantId: shop.merchant_id, from: `${today}T00:00:00.000Z` })).payments).to.have.length(3);
    expect((await search({ merchantId: shop.merchant_id, to: `${today}T00:00:00.000Z` })).payments).to.have.length(0);

    const first = await search({ merchantId: shop.merchant_id, limit: 2 });
    expect(first.payments.map((p) => p.paymentId)).to.deep.equal([ids.usd, ids.declined]);
    const second = await search({ merchantId: shop.merchant_id, limit: 2, before: first.next! });
    expect(second.payments.map((p) => p.paymentId)).to.deep.equal([ids.first]);
    expect(second.next).to.equal(null);
  });

  it('Given an S2S APM sale, one made with an alias and a payout, then the method filter finds each by the method it was made with, as the card brand finds cards', async () => {
    const apm = await t.createMerchant({ name: 'Methods' });
    const redirect = (await apmSale(t, apm, { payer_email: 'success@gmail.com' })).body.trans_id;
    const alias = (await apmSale(t, apm, { brand: 'vcard', payer_email: 'success@gmail.com' })).body.trans_id;
    await topUp(t, apm, 'GHS', 10_000);
    const paidOut = (await payout(t, apm)).body.trans_id;
    const card = (await t.sale(apm, { order_id: 'M-1' })).body.trans_id;
    await t.gateway.readModels.catchUpToHead(5000, allProjectionNames());
    const found = async (method: string) => (await t.gateway.readModels.payments.searchPayments({ merchantId: apm.merchant_id, method })).payments.map((p) => p.paymentId);
    expect(await found('sb-redirect')).to.deep.equal([redirect]);
    expect(await found('SB-REDIRECT')).to.deep.equal([redirect]);
    expect(await found('vcard')).to.deep.equal([alias]);
    expect(await found('sb-momo')).to.deep.equal([paidOut]);
    expect(await found('visa')).to.deep.equal([card]);
    const [row] = (await t.gateway.readModels.payments.searchPayments({ paymentId: paidOut })).payments;
    expect(row).to.include({ method: 'sb-momo', kind: 'credit', cardBrand: '', cardMask: '' });
  });

  it('Given callbacks to an unreachable URL, then the URL is listed as failing, and its deliveries wait in the backlog until due', async () => {
    const callbacks = new CallbackQueries(scoped(t.gateway.readDb));
    expect(await callbacks.failingUrls(10)).to.deep.equal([]);
    await t.gateway.notifier.start();
    try {
      await t.gateway.notifier.catchUp();
    } finally {
      await t.gateway.notifier.stop();
    }
    await t.gateway.readModels.catchUpToHead(5000, allProjectionNames());
    const failing = await callbacks.failingUrls(10);
    expect(failing).to.have.length(1);
    expect(failing[0]).to.include({ url: 'http://127.0.0.1:9/unreachable', failed: 0, retrying: 4 });
    expect(failing[0].merchantIds).to.deep.equal([shop.merchant_id]);
    expect(failing[0].lastError).to.be.a('string');
    // The failed listing holds the retried ones, newest first, as the listing of all of them orders them.
    const newest = (await callbacks.list({ merchantId: shop.merchant_id })).map((d) => d.delivery_id);
    expect(newest).to.have.length(4);
    expect((await callbacks.list({ failed: true })).map((d) => d.delivery_id)).to.deep.equal(newest);
    expect((await callbacks.list({ failed: true, merchantId: shop.merchant_id, limit: 2 })).map((d) => d.delivery_id)).to.deep.equal(newest.slice(0, 2));
    expect(await callbacks.list({ failed: true, merchantId: other.merchant_id })).to.deep.equal([]);

    // Retried after a minute: pending now, due then.
    const now = t.clock.now().getTime();
    expect(await callbacks.backlog(new Date(now).toISOString())).to.deep.equal({ pending: 4, due: 0, inFlight: 0 });
    expect(await callbacks.backlog(new Date(now + 5 * 60_000).toISOString())).to.deep.equal({ pending: 4, due: 4, inFlight: 0 });
  });

  it('Given a chain, then it is listed with where it stands, and counted as due on its due date', async () => {
    const chains = await t.gateway.readModels.schedules.listChains({ limit: 10 });
    expect(chains).to.have.length(1);
    expect(chains[0]).to.include({ merchantId: other.merchant_id, status: 'open', paymentsStarted: 0 });
    expect(await t.gateway.readModels.schedules.listChains({ merchantId: shop.merchant_id, limit: 10 })).to.deep.equal([]);
    expect(await t.gateway.readModels.schedules.countChainsDue(t.clock.now().toISOString().slice(0, 10))).to.equal(0);
    expect(await t.gateway.readModels.schedules.countChainsDue(chains[0].nextDueDate!)).to.equal(1);
  });

  it('Given settled, declined and refunded payments, then the views give daily volume, approvals, refund rates, postings and balances', async () => {
    const ledger = new LedgerReportQueries(scoped(t.gateway.readDb));
    const day = t.clock.now().toISOString().slice(0, 10);
    const volume = await ledger.dailyVolume({ merchantId: shop.merchant_id, fromDay: day, toDay: day });
    expect(volume.map((v) => [v.currency, v.settledAmount, v.refundedAmount])).to.deep.equal([
      ['EUR', 1000, 0],
      ['USD', 500, 100],
    ]);
    const approvals = await ledger.dailyApprovalRates({ merchantId: shop.merchant_id, currency: 'EUR' });
    expect(approvals.map((a) => [a.approvedCount, a.declinedCount])).to.deep.equal([[1, 1]]);
    const refunds = await ledger.refundRates({ merchantId: shop.merchant_id });
    expect(refunds.find((r) => r.currency === 'USD')).to.include({ settledAmount: 500, refundedAmount: 100 });
    const postings = await ledger.postingsOfPayment(ids.usd);
    expect(postings.map((p) => [p.eventType, p.account, p.amount])).to.deep.equal([
      ['PaymentSettled', 'payer_funds', -500],
      ['PaymentSettled', 'merchant_receivable', 500],
      ['RefundSucceeded', 'payer_funds', 100],
      ['RefundSucceeded', 'merchant_receivable', -100],
    ]);
    const balances = await ledger.balances({ merchantId: shop.merchant_id, currency: 'USD' });
    expect(balances.find((b) => b.account === 'merchant_receivable')?.balance).to.equal(400);
  });
});
