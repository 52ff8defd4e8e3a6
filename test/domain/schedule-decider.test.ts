/**
 * Given the events of one schedule, when the merchant sends a command, then these events (or this
 * refusal). The decider is pure, so every case is a fold of past events and one decision.
 */
import { decideSchedule, type ScheduleCommand } from '../../src/domain/schedule/schedule-decide';
import type { ScheduleRule } from '../../src/domain/schedule/due-dates';
import type { ScheduleCreated, ScheduleEvent } from '../../src/domain/schedule/schedule-events';
import { evolveSchedule, initialScheduleState, type ScheduleState } from '../../src/domain/schedule/schedule-state';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for<ScheduleCommand, ScheduleState, ScheduleEvent>({
  decide: decideSchedule,
  evolve: evolveSchedule,
  initialState: initialScheduleState,
});

const SCHEDULE_ID = '3f6c1a2b-8d4e-4f5a-9b6c-7d8e9f0a1b2c';
const MERCHANT_ID = 'merchant-1';
const T0 = '2026-01-10T09:00:00.000Z';
const T1 = '2026-01-11T09:00:00.000Z';
const T2 = '2026-01-12T09:00:00.000Z';
const T3 = '2026-01-13T09:00:00.000Z';

const RULE: ScheduleRule = {
  intervalLength: 1,
  intervalUnit: 'month',
  paymentsCount: 12,
  delayedFirstPayment: { kind: 'by_interval', length: 2, unit: 'week' },
};

const created: ScheduleCreated = {
  type: 'ScheduleCreated',
  data: { scheduleId: SCHEDULE_ID, merchantId: MERCHANT_ID, name: 'Monthly plan', rule: RULE, createdAt: T0 },
};
const paused = (at: string): ScheduleEvent => ({ type: 'SchedulePaused', data: { scheduleId: SCHEDULE_ID, pausedAt: at } });
const resumed = (at: string): ScheduleEvent => ({ type: 'ScheduleResumed', data: { scheduleId: SCHEDULE_ID, resumedAt: at } });
const detached = (at: string): ScheduleEvent => ({ type: 'ScheduleChainsDetached', data: { scheduleId: SCHEDULE_ID, detachedAt: at } });
const deleted = (at: string): ScheduleEvent => ({ type: 'ScheduleDeleted', data: { scheduleId: SCHEDULE_ID, deletedAt: at } });

const create: ScheduleCommand = {
  type: 'CreateSchedule',
  data: { scheduleId: SCHEDULE_ID, merchantId: MERCHANT_ID, name: 'Monthly plan', rule: RULE, now: T0 },
};
const update = (changes: Extract<ScheduleCommand, { type: 'UpdateSchedule' }>['data']['changes'], now = T1): ScheduleCommand => ({
  type: 'UpdateSchedule',
  data: { changes, now },
});
const pause = (now = T1): ScheduleCommand => ({ type: 'PauseSchedule', data: { now } });
const run = (now = T1): ScheduleCommand => ({ type: 'RunSchedule', data: { now } });
const detach = (now = T1): ScheduleCommand => ({ type: 'DetachScheduleChains', data: { now } });
const remove = (now = T1): ScheduleCommand => ({ type: 'DeleteSchedule', data: { now } });

const EVERY_LATER_COMMAND: ScheduleCommand[] = [update({ name: 'Renamed' }), pause(), run(), detach(), remove()];

describe('Schedule decider', () => {
  describe('CreateSchedule', () => {
    it('Given no schedule, when it is created, then ScheduleCreated carries the rule and the creation time', () => {
      spec
        .given([])
        .when(create)
        .then([created])
        .thenState({ exists: true, status: 'active', pauses: [], detachedAt: null, createdAt: T0, updatedAt: T0 } as Partial<ScheduleState>);
    });

    it('Given a schedule with that id, when it is created again, then it is refused with schedule_exists', () => {
      spec.given([created]).when(create).thenThrows('schedule_exists');
    });

    it('Given a deleted schedule, when one with the same id is created, then the id is still taken (schedule_exists)', () => {
      spec.given([created, deleted(T1)]).when(create).thenThrows('schedule_exists');
    });
  });

  describe('UpdateSchedule', () => {
    it('Given a schedule, when some fields change, then ScheduleUpdated records only those that differ', () => {
      spec
        .given([created])
        .when(update({ name: 'Monthly plan', intervalLength: 2, intervalUnit: 'month', paymentsCount: 6 }))
        .then([{ type: 'ScheduleUpdated', data: { scheduleId: SCHEDULE_ID, changes: { intervalLength: 2, paymentsCount: 6 }, updatedAt: T1 } }])
        .thenState({ name: 'Monthly plan', rule: { ...RULE, intervalLength: 2, paymentsCount: 6 }, updatedAt: T1 } as Partial<ScheduleState>);
    });

    it('Given a schedule, when the name and the first-payment delay change, then both are recorded and folded', () => {
      const delay = { kind: 'to_day_of_month', dayOfMonth: 15 } as const;
      spec
        .given([created])
        .when(update({ name: 'Mid-month plan', delayedFirstPayment: delay }))
        .then([{ type: 'ScheduleUpdated', data: { scheduleId: SCHEDULE_ID, changes: { name: 'Mid-month plan', delayedFirstPayment: delay }, updatedAt: T1 } }])
        .thenState({ name: 'Mid-month plan', rule: { ...RULE, delayedFirstPayment: delay } } as Partial<ScheduleState>);
    });

    it('Given a schedule, when the update repeats its current values, then nothing is recorded', () => {
      spec
        .given([created])
        .when(update({ name: 'Monthly plan', ...RULE, delayedFirstPayment: { kind: 'by_interval', length: 2, unit: 'week' } }))
        .thenNothing();
    });

    it('Given a stored rule read back with its keys reordered (as jsonb does), when the same delay is sent, then nothing is recorded', () => {
      const reordered = JSON.parse('{"kind":"by_interval","unit":"week","length":2}');
      const stored: ScheduleCreated = { ...created, data: { ...created.data, rule: { ...created.data.rule, delayedFirstPayment: reordered } } };
      spec
        .given([stored])
        .when(update({ delayedFirstPayment: { kind: 'by_interval', length: 2, unit: 'week' } }))
        .thenNothing();
    });

    it('Given a schedule, when the update is empty or only holds undefined values, then nothing is recorded', () => {
      spec.given([created]).when(update({})).thenNothing();
      spec.given([created]).when(update({ name: undefined, intervalLength: undefined })).thenNothing();
    });

    it('Given an earlier update, when the same change is sent again, then nothing more is recorded', () => {
      const earlier: ScheduleEvent = { type: 'ScheduleUpdated', data: { scheduleId: SCHEDULE_ID, changes: { intervalUnit: 'week' }, updatedAt: T1 } };
      spec.given([created, earlier]).when(update({ intervalUnit: 'week' }, T2)).thenNothing();
    });

    it('Given a paused schedule, when it is updated, then the change is recorded and it stays paused', () => {
      spec
        .given([created, paused(T1)])
        .when(update({ paymentsCount: 3 }, T2))
        .then([{ type: 'ScheduleUpdated', data: { scheduleId: SCHEDULE_ID, changes: { paymentsCount: 3 }, updatedAt: T2 } }])
        .thenState({ status: 'paused' } as Partial<ScheduleState>);
    });
  });

  describe('PauseSchedule and RunSchedule', () => {
    it('Given an active schedule, when it is paused, then SchedulePaused opens a pause span', () => {
      spec
        .given([created])
        .when(pause(T1))
        .then([paused(T1)])
        .thenState({ status: 'paused', pauses: [{ from: T1, to: null }], updatedAt: T1 } as Partial<ScheduleState>);
    });

    it('Given a paused schedule, when it is paused again, then nothing is recorded (a retry is harmless)', () => {
      spec.given([created, paused(T1)]).when(pause(T2)).thenNothing();
    });

    it('Given a paused schedule, when it is run, then ScheduleResumed closes the open pause span', () => {
      spec
        .given([created, paused(T1)])
        .when(run(T2))
        .then([resumed(T2)])
        .thenState({ status: 'active', pauses: [{ from: T1, to: T2 }], updatedAt: T2 } as Partial<ScheduleState>);
    });

    it('Given an active schedule, when it is run, then nothing is recorded (a retry is harmless)', () => {
      spec.given([created]).when(run(T1)).thenNothing();
      spec.given([created, paused(T1), resumed(T2)]).when(run(T3)).thenNothing();
    });

    it('Given a pause and a resume, when it is paused again, then a second span opens and the first is kept', () => {
      spec
        .given([created, paused(T1), resumed(T2)])
        .when(pause(T3))
        .then([paused(T3)])
        .thenState({ pauses: [{ from: T1, to: T2 }, { from: T3, to: null }] } as Partial<ScheduleState>);
    });
  });

  describe('DetachScheduleChains', () => {
    it('Given a schedule, when its chains are detached, then ScheduleChainsDetached records the instant and the schedule stays active', () => {
      spec
        .given([created])
        .when(detach(T1))
        .then([detached(T1)])
        .thenState({ status: 'active', detachedAt: T1, updatedAt: T1 } as Partial<ScheduleState>);
    });

    it('Given an earlier detach, when the chains are detached again later, then the later instant replaces it', () => {
      // A later detach also stops the chains started since the first one, so it is recorded.
      spec
        .given([created, detached(T1)])
        .when(detach(T2))
        .then([detached(T2)])
        .thenState({ detachedAt: T2 } as Partial<ScheduleState>);
    });

    it('Given a paused schedule, when its chains are detached, then it stays paused', () => {
      spec.given([created, paused(T1)]).when(detach(T2)).then([detached(T2)]).thenState({ status: 'paused' } as Partial<ScheduleState>);
    });
  });

  describe('DeleteSchedule', () => {
    it('Given a schedule, when it is deleted, then ScheduleDeleted marks it deleted', () => {
      spec
        .given([created])
        .when(remove(T1))
        .then([deleted(T1)])
        .thenState({ status: 'deleted', updatedAt: T1 } as Partial<ScheduleState>);
    });

    it('Given a paused schedule, when it is deleted, then it is deleted', () => {
      spec.given([created, paused(T1)]).when(remove(T2)).then([deleted(T2)]).thenState({ status: 'deleted' } as Partial<ScheduleState>);
    });

    it('Given a deleted schedule, when any command arrives, then it is refused with schedule_not_found', () => {
      for (const command of EVERY_LATER_COMMAND) {
        spec.given([created, deleted(T1)]).when(command).thenThrows('schedule_not_found', 'Schedule not found');
      }
    });
  });

  describe('unknown schedule', () => {
    it('Given no schedule, when any command but create arrives, then it is refused with schedule_not_found', () => {
      for (const command of EVERY_LATER_COMMAND) {
        spec.given([]).when(command).thenThrows('schedule_not_found', 'Schedule not found');
      }
    });
  });
});
