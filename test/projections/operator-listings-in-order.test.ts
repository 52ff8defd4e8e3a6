/**
 * The operator's callback listings (GET /admin/callbacks, the dashboard's callback pages) show the
 * newest deliveries first, all of them or one merchant's. Given the tables, then each listing reads
 * the deliveries in that order through an index and stops at its limit: sorting the whole table
 * grows with every callback ever scheduled (about 400 ms at 150,000 deliveries).
 */
import { expect } from 'chai';
import { CallbackQueries } from '../../projections/callback-deliveries/queries';
import { PaymentQueries } from '../../projections/payments/queries';
import { readModelQueryPlans } from '../support/query-plans';
import { scoped } from '../../projections/database-schema';

describe('read models: the operator\'s listings, newest first', () => {
  const { db, asked, planOf } = readModelQueryPlans('operator-listings-');

  it('Given the tables, then the newest deliveries, all, by merchant or by payment, are read in order through an index, never sorted', async () => {
    const callbacks = new CallbackQueries(scoped(db()));
    await callbacks.list({ limit: 100 });
    await callbacks.list({ merchantId: 'm-1', limit: 100 });
    await callbacks.list({ paymentId: 'p-1' });

    expect(asked()).to.have.length(3);
    for (const query of asked()) {
      const { details, why } = planOf(query);
      expect(details.filter((d) => /TEMP B-TREE/.test(d)), why).to.deep.equal([]);
      expect(details.filter((d) => /^SCAN callback_deliveries$/.test(d)), why).to.deep.equal([]);
    }
  });

  it('Given the tables, then the failed deliveries, all or by merchant, are found without reading the whole table', async () => {
    const callbacks = new CallbackQueries(scoped(db()));
    await callbacks.list({ failed: true, limit: 100 });
    await callbacks.list({ merchantId: 'm-1', failed: true, limit: 100 });

    expect(asked()).to.have.length(2);
    for (const query of asked()) {
      const { details, why } = planOf(query);
      expect(details.filter((d) => /^SCAN callback_deliveries$/.test(d)), why).to.deep.equal([]);
    }
  });

  it('Given the tables, then the payment search, all or one merchant\'s, with a status or not, reads the newest payments in order through an index, never sorted', async () => {
    const payments = new PaymentQueries(scoped(db()));
    await payments.searchPayments({ limit: 50 });
    await payments.searchPayments({ merchantId: 'm-1', limit: 50 });
    await payments.searchPayments({ merchantId: 'm-1', statuses: ['SETTLED'], limit: 50 });
    await payments.searchPayments({ merchantId: 'm-1', before: '1000', limit: 50 });

    expect(asked()).to.have.length(4);
    for (const query of asked()) {
      const { details, why } = planOf(query);
      expect(details.filter((d) => /TEMP B-TREE/.test(d)), why).to.deep.equal([]);
      expect(details.filter((d) => /^SCAN payments$/.test(d)), why).to.deep.equal([]);
    }
  });
});
