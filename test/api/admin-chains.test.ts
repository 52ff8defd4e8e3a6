/** `GET /admin/chains/:id`: a scheduled chain explained date by date, for operators and auditors. */
import { expect } from 'chai';
import { forEachStore } from '../support/gateway-harness';
import { scheduledPayments, startChain, untilDate } from '../support/recurring-chains';
import type { ScheduleRule } from '../../src/domain/schedule/due-dates';

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

forEachStore('Admin API: scheduled chains', (h) => {
  const get = (id: string, token: string | null = h().gateway.adminToken) =>
    h().request(`/admin/chains/${id}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});

  it('Given a chain with a charged date, a skipped date and dates to come, then each date says what became of it', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const rule: ScheduleRule = { intervalLength: 1, intervalUnit: 'day', paymentsCount: 4, delayedFirstPayment: { kind: 'none' } };
    const chain = await startChain(g, merchant.merchant_id, { rule });
    const first = chain.initial.recurring!.schedule!.firstDueDate;
    // Anchored to the due dates, not to now: moving by whole days from an hour of the day crosses
    // two due dates when the test runs late in the (UTC) day.
    await g.testClock.advance(untilDate(g, first, 1));
    await g.schedules.pause(merchant.merchant_id, chain.scheduleId, 'test');
    await g.testClock.advance(untilDate(g, dayAfter(first), 1));
    await g.schedules.run(merchant.merchant_id, chain.scheduleId, 'test');
    const [charged] = await scheduledPayments(g, chain.chainId);

    const res = await get(chain.chainId);

    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({
      chain_id: chain.chainId,
      init_payment_id: chain.chainId,
      first_recurring_date: first,
      amount: '9.99',
      currency: 'EUR',
      ended: null,
    });
    expect(res.body.schedule).to.include({ schedule_id: chain.scheduleId, interval_unit: 'day', payments_count: 4, status: 'active' });
    expect(res.body.payments.map((p: { sequence: number; outcome: string }) => [p.sequence, p.outcome])).to.deep.equal([
      [1, 'charged'],
      [2, 'skipped'],
      [3, 'upcoming'],
      [4, 'upcoming'],
    ]);
    expect(res.body.payments[0]).to.include({ due_date: first, payment_id: charged.paymentId, status: 'SETTLED' });
    expect(res.body.payments[1]).to.include({ reason: 'schedule_paused' });
  });

  it('answers 404 for a payment that starts no schedule, and 401 without the token', async () => {
    const merchant = await h().createMerchant();
    const chain = await startChain(h().gateway, merchant.merchant_id);
    expect((await get(chain.chainId, null)).status).to.equal(401);
    const missing = await get('00000000-0000-4000-8000-000000000000');
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ result: 'ERROR', error_message: 'Scheduled chain not found.' });
  });
});
