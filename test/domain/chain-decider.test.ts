/**
 * Given the events of a schedule and of one of its chains, and the payment that started the chain,
 * when the scheduler looks at the chain at some instant, then this step and these chain events.
 * Chain and schedule states are always folded from events, as the scheduler builds them.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { ChainSchedule } from '../../src/domain/payment/events';
import {
  chainEventsFor,
  dueInstant,
  evolveChain,
  initialChainState,
  nextChainStep,
  type ChainSource,
  type ChainStep,
} from '../../src/domain/schedule/chain-decide';
import type { ChainEvent } from '../../src/domain/schedule/chain-events';
import { dueDateOf, dueDatesOf, INTERVAL_UNITS, type ScheduleRule } from '../../src/domain/schedule/due-dates';
import type { ScheduleEvent } from '../../src/domain/schedule/schedule-events';
import { evolveSchedule, initialScheduleState, type ExistingSchedule } from '../../src/domain/schedule/schedule-state';

const SCHEDULE_ID = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const CHAIN_ID = 'c4a1e2d3-0000-4000-8000-000000000001';
const NEXT_PAYMENT_ID = 'c4a1e2d3-0000-4000-8000-0000000000ff';
const paymentId = (n: number) => `c4a1e2d3-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;

/** The chain's starting payment was initiated here; its first automatic payment is due 2026-02-01. */
const STARTED_AT = '2026-01-01T12:00:00.000Z';
const FIRST_DUE = '2026-02-01';

const MONTHLY: ScheduleRule = { intervalLength: 1, intervalUnit: 'month', paymentsCount: 3, delayedFirstPayment: { kind: 'none' } };

const anchor = (firstDueDate = FIRST_DUE, anchorDay = Number(firstDueDate.slice(8))): ChainSchedule => ({
  scheduleId: SCHEDULE_ID,
  firstDueDate,
  anchorDay,
  amount: 1000,
  amountText: '10.00',
  amountSent: false,
});

const source = (o: Partial<ChainSource> = {}): ChainSource => ({
  paymentId: CHAIN_ID,
  outcome: 'succeeded',
  schedule: anchor(),
  startedAt: STARTED_AT,
  ...o,
});

// Schedule events.
const created = (rule: ScheduleRule = MONTHLY): ScheduleEvent => ({
  type: 'ScheduleCreated',
  data: { scheduleId: SCHEDULE_ID, merchantId: 'merchant-1', name: 'Plan', rule, createdAt: '2025-12-01T00:00:00.000Z' },
});
const paused = (at: string): ScheduleEvent => ({ type: 'SchedulePaused', data: { scheduleId: SCHEDULE_ID, pausedAt: at } });
const resumed = (at: string): ScheduleEvent => ({ type: 'ScheduleResumed', data: { scheduleId: SCHEDULE_ID, resumedAt: at } });
const detached = (at: string): ScheduleEvent => ({ type: 'ScheduleChainsDetached', data: { scheduleId: SCHEDULE_ID, detachedAt: at } });
const deleted = (at: string): ScheduleEvent => ({ type: 'ScheduleDeleted', data: { scheduleId: SCHEDULE_ID, deletedAt: at } });
const updated = (changes: Partial<ScheduleRule>, at = '2026-01-20T00:00:00.000Z'): ScheduleEvent => ({
  type: 'ScheduleUpdated',
  data: { scheduleId: SCHEDULE_ID, changes, updatedAt: at },
});

// Chain events, as the scheduler writes them.
const charged = (sequence: number, dueDate: string, at = dueInstant(dueDate)): ChainEvent => ({
  type: 'ScheduledPaymentStarted',
  data: { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, sequence, dueDate, paymentId: paymentId(sequence), startedAt: at },
});
const skipped = (sequence: number, dueDate: string, at = dueInstant(dueDate)): ChainEvent => ({
  type: 'ScheduledPaymentSkipped',
  data: { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, sequence, dueDate, reason: 'schedule_paused', skippedAt: at },
});
const ended = (reason: Extract<ChainEvent, { type: 'ScheduledChainEnded' }>['data']['reason'], at: string): ChainEvent => ({
  type: 'ScheduledChainEnded',
  data: { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, reason, endedAt: at },
});

function scheduleOf(events: ScheduleEvent[]): ExistingSchedule {
  const state = events.reduce(evolveSchedule, initialScheduleState());
  if (!state.exists) throw new Error('the given schedule events do not create a schedule');
  return state;
}

/**
 * given(schedule events, chain events, source).when(now) → { step, events }: the step decided and
 * the chain events it leads to, with NEXT_PAYMENT_ID as the id of the payment a charge creates.
 */
function given(scheduleEvents: ScheduleEvent[], chainEvents: ChainEvent[] = [], src: ChainSource = source()) {
  const schedule = scheduleOf(scheduleEvents);
  const chain = chainEvents.reduce(evolveChain, initialChainState());
  return {
    when(now: string): { step: ChainStep; events: ChainEvent[] } {
      const step = nextChainStep(chain, schedule, src, now);
      return { step, events: chainEventsFor(step, { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, paymentId: NEXT_PAYMENT_ID, now }) };
    },
  };
}

const chargeEvent = (sequence: number, dueDate: string, now: string): ChainEvent => ({
  type: 'ScheduledPaymentStarted',
  data: { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, sequence, dueDate, paymentId: NEXT_PAYMENT_ID, startedAt: now },
});
const skipEvent = (sequence: number, dueDate: string, now: string): ChainEvent => ({
  type: 'ScheduledPaymentSkipped',
  data: { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, sequence, dueDate, reason: 'schedule_paused', skippedAt: now },
});
const endEvent = (reason: Extract<ChainEvent, { type: 'ScheduledChainEnded' }>['data']['reason'], now: string): ChainEvent[] => [
  { type: 'ScheduledChainEnded', data: { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, reason, endedAt: now } },
];

const FEB_1 = dueInstant('2026-02-01');
const NOW_FEB_1 = '2026-02-01T08:30:00.000Z';

describe('Scheduled chain decider', () => {
  describe('evolveChain', () => {
    it('Given no events, then the chain is at sequence 0, open, with no payment', () => {
      expect(initialChainState()).to.deep.equal({ lastSequence: 0, ended: null, lastPaymentId: null, lastDueDate: null });
    });

    it('Given a charge, a skip and an end, then the last sequence, the last payment and the reason are folded', () => {
      const state = [charged(1, '2026-02-01'), skipped(2, '2026-03-01'), ended('completed', '2026-03-02T00:00:00.000Z')].reduce(evolveChain, initialChainState());
      expect(state).to.deep.equal({ lastSequence: 2, ended: 'completed', lastPaymentId: paymentId(1), lastDueDate: '2026-03-01' });
    });
  });

  describe('ended chains and ending', () => {
    it('Given an ended chain, when the scheduler looks, then nothing happens, whatever the schedule', () => {
      const endedChain = [charged(1, '2026-02-01'), ended('descheduled', '2026-02-10T00:00:00.000Z')];
      for (const schedule of [[created()], [created(), deleted('2026-02-11T00:00:00.000Z')], [created(), paused('2026-02-11T00:00:00.000Z')]]) {
        const { step, events } = given(schedule, endedChain).when('2026-06-01T00:00:00.000Z');
        expect(step).to.deep.equal({ kind: 'none' });
        expect(events).to.deep.equal([]);
      }
    });

    it('Given a deleted schedule, when the scheduler looks, then the chain ends with schedule_deleted', () => {
      const now = '2026-01-15T00:00:00.000Z';
      expect(given([created(), deleted('2026-01-10T00:00:00.000Z')]).when(now).events).to.deep.equal(endEvent('schedule_deleted', now));
      // Even a chain whose starting payment is still undecided.
      expect(given([created(), deleted('2026-01-10T00:00:00.000Z')], [], source({ outcome: 'undecided' })).when(now).events).to.deep.equal(
        endEvent('schedule_deleted', now),
      );
    });

    it('Given the chains were detached after the starting payment, when the scheduler looks, then the chain ends with descheduled', () => {
      const now = '2026-01-15T00:00:00.000Z';
      expect(given([created(), detached('2026-01-10T00:00:00.000Z')]).when(now).events).to.deep.equal(endEvent('descheduled', now));
    });

    it('Given the chains were detached at the very instant the starting payment began, then the chain ends with descheduled', () => {
      const now = '2026-01-15T00:00:00.000Z';
      expect(given([created(), detached(STARTED_AT)]).when(now).events).to.deep.equal(endEvent('descheduled', now));
    });

    it('Given the chains were detached before the starting payment began, when its first date is due, then the chain charges', () => {
      const { events } = given([created(), detached('2026-01-01T11:59:59.999Z')]).when(NOW_FEB_1);
      expect(events).to.deep.equal([chargeEvent(1, '2026-02-01', NOW_FEB_1)]);
    });

    it('Given a failed starting payment, when the scheduler looks, then the chain ends with initial_payment_failed', () => {
      const now = '2026-01-02T00:00:00.000Z';
      expect(given([created()], [], source({ outcome: 'failed' })).when(now).events).to.deep.equal(endEvent('initial_payment_failed', now));
    });

    it('Given a starting payment still undecided, when the scheduler looks, then it waits with no date', () => {
      const { step, events } = given([created()], [], source({ outcome: 'undecided' })).when('2026-03-01T00:00:00.000Z');
      expect(step).to.deep.equal({ kind: 'wait', until: null });
      expect(events).to.deep.equal([]);
    });

    it('Given every payment was charged or skipped, when the scheduler looks, then the chain ends with completed', () => {
      const now = '2026-04-02T00:00:00.000Z';
      const history = [charged(1, '2026-02-01'), skipped(2, '2026-03-01'), charged(3, '2026-04-01')];
      expect(given([created()], history).when(now).events).to.deep.equal(endEvent('completed', now));
    });

    it('Given a schedule shortened below the payments already made, when the scheduler looks, then the chain ends with completed', () => {
      const now = '2026-03-15T00:00:00.000Z';
      const history = [charged(1, '2026-02-01'), charged(2, '2026-03-01')];
      expect(given([created(), updated({ paymentsCount: 1 })], history).when(now).events).to.deep.equal(endEvent('completed', now));
    });
  });

  describe('waiting and charging', () => {
    it('Given the next date is in the future, when the scheduler looks, then it waits until that date at midnight UTC', () => {
      const { step, events } = given([created()]).when('2026-01-31T23:59:59.999Z');
      expect(step).to.deep.equal({ kind: 'wait', until: '2026-02-01T00:00:00.000Z' });
      expect(events).to.deep.equal([]);
    });

    it('Given the first date is due, when the scheduler looks at its midnight, then payment 1 is charged on that date', () => {
      expect(given([created()]).when(FEB_1).events).to.deep.equal([chargeEvent(1, '2026-02-01', FEB_1)]);
    });

    it('Given payment 1 was charged, when the scheduler looks on the next date, then payment 2 is charged on the date one interval after the first', () => {
      const now = '2026-03-01T06:00:00.000Z';
      const dueDate = dueDateOf(MONTHLY, anchor(), 2);
      expect(dueDate).to.equal('2026-03-01');
      expect(given([created()], [charged(1, '2026-02-01')]).when(now).events).to.deep.equal([chargeEvent(2, dueDate, now)]);
    });

    it('Given payment 1 was charged, when the scheduler looks before the next date, then it waits for the second date', () => {
      const { step } = given([created()], [charged(1, '2026-02-01')]).when('2026-02-15T00:00:00.000Z');
      expect(step).to.deep.equal({ kind: 'wait', until: '2026-03-01T00:00:00.000Z' });
    });

    it('Given a scheduler that fell behind, when it looks again and again, then it walks every date in order and then completes', () => {
      const now = '2026-09-01T00:00:00.000Z';
      const history: ChainEvent[] = [];
      const steps: ChainStep[] = [];
      for (let i = 0; i < 10; i++) {
        const { step, events } = given([created()], history).when(now);
        steps.push(step);
        if (step.kind === 'none') break;
        history.push(...events);
      }
      expect(steps).to.deep.equal([
        { kind: 'charge', sequence: 1, dueDate: '2026-02-01' },
        { kind: 'charge', sequence: 2, dueDate: '2026-03-01' },
        { kind: 'charge', sequence: 3, dueDate: '2026-04-01' },
        { kind: 'end', reason: 'completed' },
        { kind: 'none' },
      ]);
    });

    it('Given a chain anchored on the 31st of a monthly schedule, then it is charged Jan 31, Feb 28, Mar 31', () => {
      const src = source({ schedule: anchor('2026-01-31', 31) });
      const at = (date: string) => `${date}T01:00:00.000Z`;
      expect(given([created()], [], src).when(at('2026-01-31')).events).to.deep.equal([chargeEvent(1, '2026-01-31', at('2026-01-31'))]);
      expect(given([created()], [charged(1, '2026-01-31')], src).when(at('2026-02-28')).events).to.deep.equal([
        chargeEvent(2, '2026-02-28', at('2026-02-28')),
      ]);
      expect(given([created()], [charged(1, '2026-01-31'), charged(2, '2026-02-28')], src).when(at('2026-03-31')).events).to.deep.equal([
        chargeEvent(3, '2026-03-31', at('2026-03-31')),
      ]);
      // Not yet due on Mar 30: the day comes from the anchor, not from the Feb 28 before it.
      expect(given([created()], [charged(1, '2026-01-31'), charged(2, '2026-02-28')], src).when(at('2026-03-30')).step).to.deep.equal({
        kind: 'wait',
        until: '2026-03-31T00:00:00.000Z',
      });
    });
  });

  describe('schedule updates', () => {
    it('Given the interval grew to 2 months after payment 1, then payment 2 is due 2 months after the first date', () => {
      const schedule = [created(), updated({ intervalLength: 2 })];
      const history = [charged(1, '2026-02-01')];
      expect(given(schedule, history).when('2026-03-01T00:00:00.000Z').step).to.deep.equal({ kind: 'wait', until: '2026-04-01T00:00:00.000Z' });
      expect(given(schedule, history).when('2026-04-01T00:00:00.000Z').events).to.deep.equal([chargeEvent(2, '2026-04-01', '2026-04-01T00:00:00.000Z')]);
    });

    it('Given the unit changed to weeks after payment 1, then payment 2 is due one week after the first date', () => {
      const schedule = [created(), updated({ intervalUnit: 'week' }, '2026-02-03T00:00:00.000Z')];
      const history = [charged(1, '2026-02-01')];
      expect(dueDateOf({ intervalLength: 1, intervalUnit: 'week' }, anchor(), 2)).to.equal('2026-02-08');
      expect(given(schedule, history).when('2026-02-05T00:00:00.000Z').step).to.deep.equal({ kind: 'wait', until: '2026-02-08T00:00:00.000Z' });
      const now = '2026-02-08T00:00:00.000Z';
      expect(given(schedule, history).when(now).events).to.deep.equal([chargeEvent(2, '2026-02-08', now)]);
    });

    it('Given the interval shortened to weeks after three monthly payments, then the dates it puts behind the chain are skipped, not charged in a burst', () => {
      const rule: ScheduleRule = { ...MONTHLY, paymentsCount: 12 };
      const schedule = [created(rule), updated({ intervalUnit: 'week' }, '2026-04-02T00:00:00.000Z')];
      const history = [charged(1, '2026-02-01'), charged(2, '2026-03-01'), charged(3, '2026-04-01')];
      const now = '2026-04-02T01:00:00.000Z';
      const decided = given(schedule, history).when(now);
      // Payment 4 under weekly dates falls on 22 February: long before the chain's last date.
      expect(decided.events).to.deep.equal([
        { type: 'ScheduledPaymentSkipped', data: { chainId: CHAIN_ID, scheduleId: SCHEDULE_ID, sequence: 4, dueDate: '2026-02-22', reason: 'schedule_changed', skippedAt: now } },
      ]);
      // Walking on: every date up to 1 April is skipped, the first later one waits.
      let chain = [...history];
      for (let n = 4; n <= 9; n++) chain = [...chain, skipped(n, dueDateOf({ intervalLength: 1, intervalUnit: 'week' }, anchor(), n))];
      expect(given(schedule, chain).when(now).step).to.deep.equal({ kind: 'wait', until: '2026-04-05T00:00:00.000Z' });
    });
  });

  describe('pauses', () => {
    it('Given a paused schedule, when a date falls due, then the payment is skipped', () => {
      const { events } = given([created(), paused('2026-01-20T00:00:00.000Z')]).when(NOW_FEB_1);
      expect(events).to.deep.equal([skipEvent(1, '2026-02-01', NOW_FEB_1)]);
    });

    it('Given a pause that began exactly at the due instant, when the scheduler looks, then the payment is skipped', () => {
      const { events } = given([created(), paused(FEB_1)]).when(NOW_FEB_1);
      expect(events).to.deep.equal([skipEvent(1, '2026-02-01', NOW_FEB_1)]);
    });

    it('Given the schedule was paused at the due instant and has been resumed since, when the scheduler looks, then that payment is still skipped', () => {
      const schedule = [created(), paused('2026-01-20T00:00:00.000Z'), resumed('2026-02-01T06:00:00.000Z')];
      expect(given(schedule).when(NOW_FEB_1).events).to.deep.equal([skipEvent(1, '2026-02-01', NOW_FEB_1)]);
      // The next date falls while active again: it is charged.
      const now = '2026-03-01T00:00:00.000Z';
      expect(given(schedule, [skipped(1, '2026-02-01')]).when(now).events).to.deep.equal([chargeEvent(2, '2026-03-01', now)]);
    });

    it('Given a late scheduler and a pause after the due instant that still holds, when it looks, then the payment is skipped', () => {
      const { events } = given([created(), paused('2026-02-01T05:00:00.000Z')]).when(NOW_FEB_1);
      expect(events).to.deep.equal([skipEvent(1, '2026-02-01', NOW_FEB_1)]);
    });

    it('Given a late scheduler and a pause and resume both after the due instant, when it looks, then the payment is charged', () => {
      const schedule = [created(), paused('2026-02-01T03:00:00.000Z'), resumed('2026-02-01T05:00:00.000Z')];
      expect(given(schedule).when(NOW_FEB_1).events).to.deep.equal([chargeEvent(1, '2026-02-01', NOW_FEB_1)]);
    });

    it('Given the schedule was resumed before the due instant, when the date falls due, then the payment is charged', () => {
      const schedule = [created(), paused('2026-01-20T00:00:00.000Z'), resumed('2026-01-31T23:59:59.999Z')];
      expect(given(schedule).when(NOW_FEB_1).events).to.deep.equal([chargeEvent(1, '2026-02-01', NOW_FEB_1)]);
    });

    it('Given the schedule was resumed exactly at the due instant, when the date falls due, then the payment is charged', () => {
      const schedule = [created(), paused('2026-01-20T00:00:00.000Z'), resumed(FEB_1)];
      expect(given(schedule).when(NOW_FEB_1).events).to.deep.equal([chargeEvent(1, '2026-02-01', NOW_FEB_1)]);
    });

    it('Given a paused schedule and a date not yet due, when the scheduler looks, then it waits rather than skipping early', () => {
      const { step } = given([created(), paused('2026-01-20T00:00:00.000Z')]).when('2026-01-25T00:00:00.000Z');
      expect(step).to.deep.equal({ kind: 'wait', until: FEB_1 });
    });

    it('Given a paused schedule whose chain made every payment, when the scheduler looks, then the chain completes', () => {
      const now = '2026-04-02T00:00:00.000Z';
      const history = [charged(1, '2026-02-01'), charged(2, '2026-03-01'), skipped(3, '2026-04-01')];
      expect(given([created(), paused('2026-03-15T00:00:00.000Z')], history).when(now).events).to.deep.equal(endEvent('completed', now));
    });
  });

  describe('property: a chain left alone charges exactly its due dates', () => {
    const anyRule = fc.record({
      intervalLength: fc.integer({ min: 1, max: 6 }),
      intervalUnit: fc.constantFrom(...INTERVAL_UNITS),
      paymentsCount: fc.integer({ min: 1, max: 8 }),
      delayedFirstPayment: fc.constant({ kind: 'none' } as const),
    });
    const anyFirstDue = fc
      .record({ year: fc.integer({ min: 2020, max: 2040 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) })
      .map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
    const anyAnchorShift = fc.integer({ min: 0, max: 3 });

    it('Given any schedule and anchor, when a late scheduler looks until nothing is left, then it charged dueDatesOf in order and completed', () => {
      fc.assert(
        fc.property(anyRule, anyFirstDue, anyAnchorShift, (rule, firstDue, shift) => {
          // Anchor days past the date's own day model a chain begun at a month end.
          const chainAnchor = anchor(firstDue, Math.min(31, Number(firstDue.slice(8)) + shift));
          const src = source({ schedule: chainAnchor });
          const now = '2099-01-01T00:00:00.000Z';
          const history: ChainEvent[] = [];
          const charges: string[] = [];
          let last: ChainStep = { kind: 'none' };
          for (let i = 0; i <= rule.paymentsCount + 1; i++) {
            const { step, events } = given([created(rule)], history, src).when(now);
            last = step;
            if (step.kind === 'charge') charges.push(step.dueDate);
            if (step.kind !== 'charge') break;
            history.push(...events);
          }
          expect(last).to.deep.equal({ kind: 'end', reason: 'completed' });
          expect(charges).to.deep.equal(dueDatesOf(rule, chainAnchor));
        }),
        { numRuns: 200 },
      );
    });
  });
});
