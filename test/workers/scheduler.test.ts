/**
 * The scheduler and the sandbox test clock on real stores: whole schedules walked through by
 * moving the clock, pause / run / deschedule / delete taking effect before the next due date,
 * declined charges, and exactly-once creation with two schedulers and after a crash.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { PaymentService } from '../../src/application/payments';
import { connectorRegistry } from '../../src/adapters/connectors/registry';
import { SANDBOX_CAPABILITIES } from '../../src/adapters/connectors/sandbox';
import { Scheduler } from '../../src/application/schedules/scheduler';
import type { Connector } from '../../src/application/ports/connector';
import { dueDatesOf, type ScheduleRule } from '../../src/domain/schedule/due-dates';
import { chainStreamId } from '../../src/domain/schedule/chain-events';
import { CallbackReceiver } from '../support/callback-receiver';
import { forEachStore, TestClock } from '../support/gateway-harness';
import { chainEvents, scheduledPayments, startChain, streamExists, untilDate, DAILY } from '../support/recurring-chains';

const DAY = 86_400_000;

forEachStore('Scheduled chains walked through by the sandbox test clock', (h, kind) => {
  it('Given a daily schedule of 5 payments, when the clock moves 10 days, then 5 payments are made, one per due date, in order, and the chain completes', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const chain = await startChain(g, merchant.merchant_id);
    expect(chain.initial.status).to.equal('SETTLED');
    const first = chain.initial.recurring!.schedule!;
    const expected = dueDatesOf(DAILY, first);

    const moved = await g.testClock.advance(10 * DAY);

    expect(moved.charged).to.be.at.least(5);
    const payments = await scheduledPayments(g, chain.chainId);
    expect(payments.map((p) => p.recurring!.dueDate)).to.deep.equal(expected);
    expect(payments.map((p) => p.recurring!.sequence)).to.deep.equal([1, 2, 3, 4, 5]);
    for (const p of payments) {
      expect(p.status).to.equal('SETTLED');
      expect(p.amount).to.equal(999);
      expect(p.recurring!.initPaymentId).to.equal(chain.chainId);
      // The clock stopped at each due date, so each payment is made on its own day.
      expect(p.initiatedAt.slice(0, 10)).to.equal(p.recurring!.dueDate);
      expect(p.card!.mask).to.equal('411111******1111');
    }
    const events = await chainEvents(g, chain.chainId);
    expect(events[events.length - 1]).to.deep.include({ type: 'ScheduledChainEnded' });
    expect(events[events.length - 1].data).to.include({ reason: 'completed' });
  });

  it('Given a monthly chain started on 31 January, when a year passes, then it is charged on the last day of short months and the 31st of long ones', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const year = g.clock.now().getUTCFullYear() + 1;
    await g.testClock.advance(untilDate(g, `${year}-01-31`, 9));
    const rule: ScheduleRule = { intervalLength: 1, intervalUnit: 'month', paymentsCount: 4, delayedFirstPayment: { kind: 'none' } };
    const chain = await startChain(g, merchant.merchant_id, { rule });

    await g.testClock.advance(140 * DAY);

    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const payments = await scheduledPayments(g, chain.chainId);
    expect(payments.map((p) => p.recurring!.dueDate)).to.deep.equal([
      `${year}-02-${leap ? '29' : '28'}`,
      `${year}-03-31`,
      `${year}-04-30`,
      `${year}-05-31`,
    ]);
  });

  it('Given a paused schedule, when its due dates pass, then they are skipped and recorded; after run the chain goes on with the next date', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const chain = await startChain(g, merchant.merchant_id);
    await g.schedules.pause(merchant.merchant_id, chain.scheduleId, 'test');

    await g.testClock.advance(2 * DAY + 3_600_000);
    expect(await scheduledPayments(g, chain.chainId)).to.have.length(0);
    const skipped = (await chainEvents(g, chain.chainId)).filter((e) => e.type === 'ScheduledPaymentSkipped');
    expect(skipped.map((e) => e.data.sequence)).to.deep.equal([1, 2]);
    expect(skipped[0].data).to.include({ reason: 'schedule_paused' });

    await g.schedules.run(merchant.merchant_id, chain.scheduleId, 'test');
    await g.testClock.advance(DAY);
    const payments = await scheduledPayments(g, chain.chainId);
    expect(payments.map((p) => p.recurring!.sequence)).to.deep.equal([3]);
  });

  it('Given a chain, when it is descheduled before its next date, then nothing more is charged; another chain of the schedule goes on', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const stopped = await startChain(g, merchant.merchant_id);
    const other = await startChain(g, merchant.merchant_id, { scheduleId: stopped.scheduleId });
    await g.testClock.advance(DAY + 3_600_000);
    expect(await scheduledPayments(g, stopped.chainId)).to.have.length(1);

    await g.schedules.deschedule(merchant.merchant_id, stopped.scheduleId, stopped.chainId, 'test');
    await g.testClock.advance(3 * DAY);

    expect(await scheduledPayments(g, stopped.chainId)).to.have.length(1);
    expect((await scheduledPayments(g, other.chainId)).length).to.equal(4);
    const ended = (await chainEvents(g, stopped.chainId)).find((e) => e.type === 'ScheduledChainEnded');
    expect(ended?.data).to.include({ reason: 'descheduled' });
  });

  it('Given a schedule, when it is deleted, then its chains end before their next date', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const chain = await startChain(g, merchant.merchant_id);
    await g.schedules.delete(merchant.merchant_id, chain.scheduleId, 'test');
    await g.testClock.advance(3 * DAY);
    expect(await scheduledPayments(g, chain.chainId)).to.have.length(0);
    const ended = (await chainEvents(g, chain.chainId)).find((e) => e.type === 'ScheduledChainEnded');
    expect(ended?.data).to.include({ reason: 'schedule_deleted' });
  });

  it('Given scheduled charges the sandbox declines, when they fall due, then each is declined, the merchant is called back, and the chain goes on to the end', async () => {
    const g = h().gateway;
    const receiver = await new CallbackReceiver().start();
    try {
      await g.notifier.start();
      const merchant = await h().createMerchant({ notificationUrl: receiver.url });
      const rule: ScheduleRule = { ...DAILY, paymentsCount: 3 };
      const chain = await startChain(g, merchant.merchant_id, { rule, scheduleAmount: { minor: 402, text: '4.02' } });

      await g.testClock.advance(4 * DAY);

      const payments = await scheduledPayments(g, chain.chainId);
      expect(payments.map((p) => p.status)).to.deep.equal(['DECLINED', 'DECLINED', 'DECLINED']);
      expect(payments[0].declineReason).to.equal('Insufficient funds');
      expect(payments[0].amountText).to.equal('4.02');
      await g.notifier.catchUp();
      for (const p of payments) {
        const [callback] = receiver.ofTransaction(p.paymentId);
        expect(callback, `callback of ${p.recurring!.dueDate}`).to.not.equal(undefined);
        expect(Object.fromEntries(callback.fields)).to.include({
          action: 'RECURRING_SALE',
          result: 'DECLINED',
          status: 'DECLINED',
          decline_reason: 'Insufficient funds',
          amount: '4.02',
          recurring_first_trans_id: chain.chainId,
          schedule_id: chain.scheduleId,
        });
      }
      expect((await chainEvents(g, chain.chainId)).at(-1)?.data).to.include({ reason: 'completed' });
    } finally {
      await g.notifier.stop();
      await receiver.stop();
    }
  });

  it('Given a chain whose first payment was declined, when its first date comes, then the chain ends without charging', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const chain = await startChain(g, merchant.merchant_id, { expMonth: '02' });
    expect(chain.initial.status).to.equal('DECLINED');
    await g.testClock.advance(2 * DAY);
    expect(await scheduledPayments(g, chain.chainId)).to.have.length(0);
    expect((await chainEvents(g, chain.chainId)).at(-1)?.data).to.include({ reason: 'initial_payment_failed' });
  });

  it('Given a claim recorded without its payment (an interrupted append), when the scheduler looks again, then it writes that payment with the claimed id and charges no other', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const chain = await startChain(g, merchant.merchant_id, { rule: { ...DAILY, paymentsCount: 1 } });
    const due = chain.initial.recurring!.schedule!.firstDueDate;
    const claimedId = randomUUID();
    await g.store.append(
      chainStreamId(chain.chainId),
      [
        {
          id: randomUUID(),
          type: 'ScheduledPaymentStarted',
          schemaVersion: 1,
          data: { chainId: chain.chainId, scheduleId: chain.scheduleId, sequence: 1, dueDate: due, paymentId: claimedId, startedAt: g.clock.now().toISOString() },
        },
      ],
      { kind: 'no_stream' },
    );
    expect(await streamExists(g, claimedId)).to.equal(false);

    await g.testClock.advance(2 * DAY);

    expect(await streamExists(g, claimedId)).to.equal(true);
    const payments = await scheduledPayments(g, chain.chainId);
    expect(payments.map((p) => p.paymentId)).to.deep.equal([claimedId]);
    expect(payments[0].status).to.equal('SETTLED');
  });

  if (kind === 'postgres') {
    it('Given two scheduler processes on one PostgreSQL store, when 20 chains fall due at once, then each due date is charged exactly once', async () => {
      const main = h();
      const peer = await main.startPeer();
      const merchant = await main.createMerchant();
      const rule: ScheduleRule = { ...DAILY, paymentsCount: 2 };
      const chains = [];
      for (let i = 0; i < 20; i++) chains.push(await startChain(main.gateway, merchant.merchant_id, { rule }));
      await main.gateway.readModels.catchUpToHead(10_000);
      // Time passes for both processes alike (their shared base clock), and neither has run yet.
      (main.clock as TestClock).advance(DAY + 3_600_000);
      const runs = await Promise.all([main.gateway.scheduler.runDue(), peer.gateway.scheduler.runDue()]);
      // Which scheduler wins which chain depends on timing (on a loaded machine one may win them all);
      // what must hold whatever the timing is that every date is charged once in all.
      expect(runs[0].charged + runs[1].charged).to.equal(20);
      for (const chain of chains) {
        const payments = await scheduledPayments(main.gateway, chain.chainId);
        expect(payments.map((p) => p.recurring!.sequence)).to.deep.equal([1]);
      }
      const initiated = (await main.gateway.store.readAll()).filter(
        (e) => e.type === 'PaymentInitiated' && (e.data as { recurring?: { role: string } }).recurring?.role === 'scheduled',
      );
      const chainIds = new Set(chains.map((c) => c.chainId));
      expect(initiated.filter((e) => chainIds.has((e.data as { recurring: { initPaymentId: string } }).recurring.initPaymentId))).to.have.length(20);
    });

    it('Given a scheduler that stopped between recording a charge and asking the acquirer, when another scheduler runs, then no second payment is made and reconciliation settles the first', async () => {
      const main = h();
      const g = main.gateway;
      const merchant = await main.createMerchant();
      const chain = await startChain(g, merchant.merchant_id, { rule: { ...DAILY, paymentsCount: 1 } });
      await g.readModels.catchUpToHead(10_000);
      // A process that records the claim and its payment, then never hears from the acquirer.
      const hanging = { name: 'sandbox', capabilities: SANDBOX_CAPABILITIES, authorize: () => new Promise(() => undefined) } as unknown as Connector;
      const stalled = new Scheduler({
        store: g.store,
        payments: new PaymentService({ store: g.store, connectors: connectorRegistry([hanging]), vault: (g.payments as unknown as { deps: { vault: never } }).deps.vault, clock: g.clock, logger: g.logger, baseUrl: 'http://127.0.0.1' }),
        clock: { now: () => new Date(g.clock.now().getTime() + 2 * DAY) },
        logger: g.logger,
        due: g.readModels,
      });
      void stalled.advanceChain(chain.chainId);
      let claimed: string | undefined;
      for (let i = 0; i < 200 && !claimed; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        const started = (await chainEvents(g, chain.chainId)).find((e) => e.type === 'ScheduledPaymentStarted');
        if (started && (await streamExists(g, started.data.paymentId as string))) claimed = started.data.paymentId as string;
      }
      expect(claimed, 'the stalled scheduler recorded its claim').to.be.a('string');

      await g.testClock.advance(2 * DAY);
      const payments = await scheduledPayments(g, chain.chainId);
      expect(payments.map((p) => p.paymentId)).to.deep.equal([claimed]);
      expect(payments[0].phase).to.equal('initiated');

      expect(await g.payments.reconcile(claimed!)).to.equal('authorization');
      expect((await g.payments.current(claimed!)).status).to.equal('SETTLED');
      expect(await scheduledPayments(g, chain.chainId)).to.have.length(1);
    });
  }
});
