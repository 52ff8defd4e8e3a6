/**
 * The dashboard's charts ask the ledger's analyst views for a range of days (the last 30 by
 * default), all merchants together. Given the tables, then the views read only the postings and
 * decisions of those days through an index on the day: reading every posting ever made grows with
 * the ledger (145 ms for a year of 300,000 payments, 41 ms through the day). Balances, which the
 * admin API, the CLI and the analytics page ask for, add up the postings' daily totals; approval
 * rates add up the payments decided per day.
 */
import { expect } from 'chai';
import { scoped } from '../../projections/database-schema';
import { migrateLedger } from '../../projections/ledger/migrations';
import { LedgerReportQueries } from '../../projections/ledger/queries';
import { readModelQueryPlans } from '../support/query-plans';

describe('read models: the ledger\'s reports for a range of days', () => {
  const { db, asked, planOf } = readModelQueryPlans('ledger-ranges-');

  it('Given the tables, then daily volume and approval rates of a range of days read that range, not the whole ledger', async () => {
    const reports = new LedgerReportQueries(scoped(db()));
    const range = { fromDay: '2026-10-28', toDay: '2026-11-26' };
    await reports.dailyVolume(range);
    await reports.dailyApprovalRates(range);

    expect(asked()).to.have.length(2);
    for (const query of asked()) {
      const { details, why } = planOf(query);
      expect(details.filter((d) => /^SCAN ledger_(postings|payments)\b/.test(d)), why).to.deep.equal([]);
    }
    // Days, not every payment decided in them.
    const approvals = planOf(asked()[1]!);
    expect(approvals.details.some((d) => /\bledger_daily_decisions\b/.test(d)), approvals.why).to.equal(true);
    expect(approvals.details.filter((d) => /\bledger_payments\b/.test(d)), approvals.why).to.deep.equal([]);
  });

  it('Given the tables, then balances, now or as of a time, of all merchants or one, read the daily totals and no more postings than the last day\'s', async () => {
    const reports = new LedgerReportQueries(scoped(db()));
    const asOf = new Date('2026-11-26T12:00:00.000Z');
    await reports.balances({});
    await reports.balances({ asOf });
    await reports.balances({ merchantId: 'm-1', asOf });
    await reports.balances({ merchantId: 'm-1', currency: 'EUR', asOf });

    expect(asked()).to.have.length(4);
    for (const query of asked()) {
      const { details, why } = planOf(query);
      expect(details.filter((d) => /^SCAN ledger_postings\b/.test(d)), why).to.deep.equal([]);
      expect(details.some((d) => /\bledger_daily_totals\b/.test(d)), why).to.equal(true);
    }
    // One merchant's postings of every currency and day are not that day's.
    expect(planOf(asked()[2]!).details).to.include('SEARCH ledger_postings USING INDEX ledger_postings_day_idx (<expr>=?)');
  });

  it('Given daily totals and decisions, when the gateway starts again, then its migration reads no postings and no payments', async () => {
    await db()
      .insertInto('ledger_daily_totals')
      .values({ merchant_id: 'm-1', currency: 'EUR', day: '2026-11-26', account: 'merchant_receivable', event_type: 'PaymentSettled', direction: 1, line_count: 1, amount: 100 })
      .execute();
    await db()
      .insertInto('ledger_daily_decisions')
      .values({ merchant_id: 'm-1', currency: 'EUR', day: '2026-11-26', kind: 'sale', outcome: 'approved', payment_count: 1 })
      .execute();
    asked().length = 0;
    await migrateLedger(db());

    expect(asked().map((q) => q.sql).filter((text) => /\bfrom "?ledger_(postings|payments)\b/i.test(text))).to.deep.equal([]);
  });
});
