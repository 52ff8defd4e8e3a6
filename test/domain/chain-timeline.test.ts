/** Given a chain's events and its schedule, then every due date with what became of it. */
import { expect } from 'chai';
import { chainTimeline } from '../../src/domain/schedule/chain-timeline';
import type { ChainEvent } from '../../src/domain/schedule/chain-events';
import type { ExistingSchedule } from '../../src/domain/schedule/schedule-state';
import type { ChainSchedule } from '../../src/domain/payment/events';

const schedule: ExistingSchedule = {
  exists: true,
  scheduleId: 's-1',
  merchantId: 'm-1',
  name: 'Monthly',
  rule: { intervalLength: 1, intervalUnit: 'month', paymentsCount: 4, delayedFirstPayment: { kind: 'none' } },
  status: 'active',
  pauses: [],
  detachedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const anchor: ChainSchedule = { scheduleId: 's-1', firstDueDate: '2026-01-31', anchorDay: 31, amount: 999, amountText: '9.99', amountSent: false };
const started = (sequence: number, dueDate: string, paymentId: string): ChainEvent => ({
  type: 'ScheduledPaymentStarted',
  data: { chainId: 'c', scheduleId: 's-1', sequence, dueDate, paymentId, startedAt: `${dueDate}T00:00:00.000Z` },
});

describe('chain timeline', () => {
  it('Given a charge, a decline and a skip, then charged dates carry their payment and outcome, the rest are to come by the schedule', () => {
    const events: ChainEvent[] = [
      started(1, '2026-01-31', 'p1'),
      started(2, '2026-02-28', 'p2'),
      { type: 'ScheduledPaymentSkipped', data: { chainId: 'c', scheduleId: 's-1', sequence: 3, dueDate: '2026-03-31', reason: 'schedule_paused', skippedAt: '2026-03-31T00:00:00.000Z' } },
    ];
    const payments = new Map([
      ['p1', { status: 'SETTLED', declineReason: null }],
      ['p2', { status: 'DECLINED', declineReason: 'Insufficient funds' }],
    ]);
    const t = chainTimeline(events, schedule, anchor, payments);
    expect(t.ended).to.equal(null);
    expect(t.entries).to.deep.equal([
      { sequence: 1, dueDate: '2026-01-31', outcome: 'charged', paymentId: 'p1', at: '2026-01-31T00:00:00.000Z', status: 'SETTLED', reason: null },
      { sequence: 2, dueDate: '2026-02-28', outcome: 'charged', paymentId: 'p2', at: '2026-02-28T00:00:00.000Z', status: 'DECLINED', reason: 'Insufficient funds' },
      { sequence: 3, dueDate: '2026-03-31', outcome: 'skipped', reason: 'schedule_paused', at: '2026-03-31T00:00:00.000Z' },
      { sequence: 4, dueDate: '2026-04-30', outcome: 'upcoming' },
    ]);
  });

  it('Given an ended chain, then nothing is to come and the end says why', () => {
    const events: ChainEvent[] = [
      started(1, '2026-01-31', 'p1'),
      { type: 'ScheduledChainEnded', data: { chainId: 'c', scheduleId: 's-1', reason: 'descheduled', endedAt: '2026-02-10T00:00:00.000Z' } },
    ];
    const t = chainTimeline(events, schedule, anchor, new Map());
    expect(t.entries.map((e) => e.outcome)).to.deep.equal(['charged']);
    expect(t.ended).to.deep.equal({ reason: 'descheduled', at: '2026-02-10T00:00:00.000Z' });
  });
});
