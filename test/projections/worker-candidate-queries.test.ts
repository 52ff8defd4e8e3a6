/**
 * The workers' periodic questions to the payments and transactions read models (payer actions to
 * expire, payments and operations to reconcile every 30 s, payouts to settle every second) are
 * asked for the life of the gateway. Given the tables, then each of them is answered through an
 * index: a scan of every payment ever made grows with the history (about 100 ms at 50,000
 * payments) and holds the workers' thread each time.
 */
import { expect } from 'chai';
import { scoped } from '../../projections/database-schema';
import { PaymentQueries } from '../../projections/payments/queries';
import { TransactionQueries } from '../../projections/transactions/queries';
import { readModelQueryPlans } from '../support/query-plans';

describe('read models: the workers\' candidate queries', () => {
  const { db, asked, planOf } = readModelQueryPlans('worker-queries-');

  it('Given the tables, then expiry, reconciliation and sandbox payouts find their candidates without scanning them', async () => {
    const payments = new PaymentQueries(scoped(db()));
    const now = '2026-01-01T00:00:00.000Z';
    await payments.abandonedPayerActions(now, 500);
    await payments.expiredPayerActions(now, 500);
    await payments.unansweredPayments(now, 200);
    await payments.pendingPayouts(now, 200);
    await new TransactionQueries(scoped(db())).paymentsWithUnansweredOperations(now, 200);

    expect(asked()).to.have.length(5);
    for (const query of asked()) {
      const { details, why } = planOf(query);
      expect(details.filter((d) => /^SCAN (payments|transactions)\b/.test(d)), why).to.deep.equal([]);
    }
  });
});
