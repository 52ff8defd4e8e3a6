/**
 * The operator's listings show the newest first: callback deliveries (GET /admin/callbacks, the
 * dashboard's callback pages), all of them or one merchant's, and the dashboard's payment search,
 * all or one merchant's, or one order's whoever the merchant. Given the tables, then each listing
 * reads its rows through an index, in order where it can, and stops at its limit: sorting or
 * reading every row grows with every callback or payment ever recorded (about 150 ms at 150,000
 * deliveries or 200,000 payments). The failed deliveries may be found through their status and
 * sorted: they are what the status index holds apart.
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

  it('Given the tables, then the payment search by an order id, with no merchant named, finds the order\'s payments through an index', async () => {
    await new PaymentQueries(scoped(db())).searchPayments({ orderId: 'ORDER-1', limit: 50 });

    expect(asked()).to.have.length(1);
    const { details, why } = planOf(asked()[0]);
    expect(details.some((d) => /^SEARCH payments USING (COVERING )?INDEX \w+ \(order_id=\?\)/.test(d)), why).to.equal(true);
  });
});
