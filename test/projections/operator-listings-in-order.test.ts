/**
 * The operator's listings show the newest first: callback deliveries (GET /admin/callbacks, the
 * dashboard's callback pages), all of them or one merchant's, and the dashboard's payment search,
 * all or one merchant's, or one order's whoever the merchant. Given the tables, then each listing
 * reads its rows through an index, in order where it can, and stops at its limit: sorting or
 * reading every row grows with every callback or payment ever recorded (about 150 ms at 150,000
 * deliveries or 200,000 payments). The failed deliveries, all or one merchant's, are read a status
 * at a time, each newest first.
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

  it('Given the tables, then the failed deliveries, all or one merchant\'s, are read newest first through an index, never sorted', async () => {
    const callbacks = new CallbackQueries(scoped(db()));
    await callbacks.list({ failed: true, limit: 100 });
    await callbacks.list({ merchantId: 'm-1', failed: true, limit: 100 });

    expect(asked()).to.have.length(4);
    for (const query of asked()) {
      const { details, why } = planOf(query);
      expect(details.filter((d) => /TEMP B-TREE/.test(d)), why).to.deep.equal([]);
      expect(details.filter((d) => /^SCAN callback_deliveries$/.test(d)), why).to.deep.equal([]);
    }
    // One merchant's are not picked out of every merchant's failures.
    for (const query of asked().slice(2)) {
      const { details, why } = planOf(query);
      expect(details.some((d) => /USING (COVERING )?INDEX \w+ \(merchant_id=\? AND status=\?\)/.test(d)), why).to.equal(true);
    }
  });

  it('Given deliveries in every state, then the failed listing holds the failed and the retried ones, newest first, up to its limit', async () => {
    const rows: Array<[position: number, merchant: string, status: string, attempts: number]> = [
      [1, 'm-1', 'failed', 3],
      [2, 'm-1', 'delivered', 1],
      [3, 'm-1', 'pending', 1],
      [4, 'm-1', 'pending', 0],
      [5, 'm-2', 'failed', 3],
      [6, 'm-1', 'in_flight', 2],
      [7, 'm-1', 'pending', 2],
      [8, 'm-1', 'failed', 3],
      [9, 'm-1', 'delivered', 2],
    ];
    await db()
      .insertInto('callback_deliveries')
      .values(
        rows.map(([position, merchant, status, attempts]) => ({
          delivery_id: `d-${position}`,
          payment_id: `p-${position}`,
          merchant_id: merchant,
          source_event_type: 'PaymentSettled',
          url: 'https://merchant.example/cb',
          status,
          attempts,
          next_attempt_at: null,
          lease_until: null,
          last_status_code: null,
          last_error: null,
          scheduled_at: '2026-11-01T10:00:00.000Z',
          delivered_at: null,
          updated_at: '2026-11-01T10:00:00.000Z',
          scheduled_position: BigInt(position),
          state: '{}',
        })),
      )
      .execute();
    const callbacks = new CallbackQueries(scoped(db()));
    const ids = async (filter: Parameters<CallbackQueries['list']>[0]) => (await callbacks.list(filter)).map((d) => d.delivery_id);

    expect(await ids({ failed: true })).to.deep.equal(['d-8', 'd-7', 'd-5', 'd-3', 'd-1']);
    expect(await ids({ failed: true, limit: 3 })).to.deep.equal(['d-8', 'd-7', 'd-5']);
    expect(await ids({ failed: true, merchantId: 'm-1', limit: 3 })).to.deep.equal(['d-8', 'd-7', 'd-3']);
    expect(await ids({ limit: 3 })).to.deep.equal(['d-9', 'd-8', 'd-7']);
    const [newest] = await callbacks.list({ failed: true, limit: 1 });
    expect(newest).to.not.have.property('position');
    expect(newest).to.include({ delivery_id: 'd-8', status: 'failed', attempts: 3, merchant_id: 'm-1' });
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
