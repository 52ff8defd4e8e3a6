/**
 * The operator's pages aggregate and search whole tables. On the embedded SQLite read models they
 * read through the report connection (a thread of its own), never the connection the payment APIs
 * answer from on the HTTP thread: given a payment, when an operator searches payments and opens the
 * analytics, then those queries ran on the report connection.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import type { CompiledQuery } from 'kysely';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

describe('Dashboard pages on the report connection (SQLite)', function () {
  let t: TestGateway;
  let cookie: string;

  before(async function () {
    t = await startTestGateway({ kind: 'sqlite' });
    const merchant = await t.createMerchant();
    await t.sale(merchant, { order_amount: '10.50', order_currency: 'EUR' });
    const signIn = await t.request('/dashboard/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.gateway.adminToken!, next: '/dashboard/health' }),
    });
    cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  });

  after(async function () {
    await t?.stop();
  });

  /** The SQL each connection ran while `work` ran. */
  async function queriesDuring(work: () => Promise<void>): Promise<{ report: string[]; own: string[] }> {
    expect(t.gateway.reportDb).not.to.equal(t.gateway.readDb);
    const report = sinon.spy(t.gateway.reportDb.getExecutor(), 'executeQuery');
    const own = sinon.spy(t.gateway.readDb.getExecutor(), 'executeQuery');
    try {
      await work();
      const sqlOf = (spy: sinon.SinonSpy) => spy.getCalls().map((call) => (call.args[0] as CompiledQuery).sql);
      return { report: sqlOf(report), own: sqlOf(own) };
    } finally {
      report.restore();
      own.restore();
    }
  }

  it('searches payments there', async function () {
    const { report, own } = await queriesDuring(async () => {
      const page = await t.request('/dashboard/payments?method=nosuchbrand', { headers: { cookie } });
      expect(page.status).to.equal(200);
    });
    expect(report.some((text) => /from "payments"/.test(text))).to.equal(true);
    expect(own.some((text) => /from "payments"/.test(text))).to.equal(false);
  });

  it('reads the ledger reports there', async function () {
    const { report, own } = await queriesDuring(async () => {
      const page = await t.request('/dashboard/analytics', { headers: { cookie } });
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('merchant_receivable');
    });
    expect(report.some((text) => /from "ledger_daily_totals"/.test(text))).to.equal(true);
    expect(report.some((text) => /from "v_daily_volume"/.test(text))).to.equal(true);
    expect(report.some((text) => /from "v_approval_rate_daily"/.test(text))).to.equal(true);
    expect(own.some((text) => /ledger_postings|ledger_daily_totals|v_daily_volume|v_refund_rate|v_approval_rate/.test(text))).to.equal(false);
  });
});
