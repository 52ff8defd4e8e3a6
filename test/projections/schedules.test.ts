/**
 * Given stored schedule, payment and chain events, when the projector catches up, then these rows of
 * `schedules` and `scheduled_chains`. The chain rows are the scheduler's to-do list, so most cases
 * are about `next_due_date`: the chain's next date by the schedule as it is now, or DUE_NOW when the
 * scheduler should look at once (to end the chain).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { ANY, type StoredEvent } from '../../src/application/ports/event-store';
import type { PaymentInitiated } from '../../src/domain/payment/events';
import { CHAIN_EVENT_SCHEMA_VERSION, chainStreamId, type ChainEndReason, type ChainEvent } from '../../src/domain/schedule/chain-events';
import type { ScheduleRule } from '../../src/domain/schedule/due-dates';
import { SCHEDULE_EVENT_SCHEMA_VERSION, scheduleStreamId, type ScheduleChanges, type ScheduleEvent } from '../../src/domain/schedule/schedule-events';
import { schedulesProjection } from '../../projections/schedules/module';
import { DUE_NOW } from '../../projections/schedules/projection';
import { scoped } from '../../projections/database-schema';
import type { ScheduledChainsTable, SchedulesTable } from '../../projections/schedules/tables';
import { appendPaymentEvents, paymentInitiated } from '../support/payment-fixtures';
import { projectionSpec, rowsOf } from '../support/projection-spec';
import { forEachDialect } from './harness';

const MERCHANT_ID = 'merchant-1';
const CREATED_AT = '2026-01-01T00:00:00.000Z';
const MONTHLY: ScheduleRule = { intervalLength: 1, intervalUnit: 'month', paymentsCount: 3, delayedFirstPayment: { kind: 'none' } };

type ScheduleRow = Selectable<SchedulesTable>;
type ChainRow = Selectable<ScheduledChainsTable>;

// Events of one schedule.
const scheduleEvents = (scheduleId: string) => ({
  created: (rule: ScheduleRule = MONTHLY, at = CREATED_AT): ScheduleEvent => ({
    type: 'ScheduleCreated',
    data: { scheduleId, merchantId: MERCHANT_ID, name: 'Monthly plan', rule, createdAt: at },
  }),
  updated: (changes: ScheduleChanges, at: string): ScheduleEvent => ({ type: 'ScheduleUpdated', data: { scheduleId, changes, updatedAt: at } }),
  paused: (at: string): ScheduleEvent => ({ type: 'SchedulePaused', data: { scheduleId, pausedAt: at } }),
  resumed: (at: string): ScheduleEvent => ({ type: 'ScheduleResumed', data: { scheduleId, resumedAt: at } }),
  detached: (at: string): ScheduleEvent => ({ type: 'ScheduleChainsDetached', data: { scheduleId, detachedAt: at } }),
  deleted: (at: string): ScheduleEvent => ({ type: 'ScheduleDeleted', data: { scheduleId, deletedAt: at } }),
});

// Events of one chain.
const chainEvents = (chainId: string, scheduleId: string) => ({
  started: (sequence: number, dueDate: string, at = `${dueDate}T01:00:00.000Z`): ChainEvent => ({
    type: 'ScheduledPaymentStarted',
    data: { chainId, scheduleId, sequence, dueDate, paymentId: randomUUID(), startedAt: at },
  }),
  skipped: (sequence: number, dueDate: string, at = `${dueDate}T01:00:00.000Z`): ChainEvent => ({
    type: 'ScheduledPaymentSkipped',
    data: { chainId, scheduleId, sequence, dueDate, reason: 'schedule_paused', skippedAt: at },
  }),
  ended: (reason: ChainEndReason, at: string): ChainEvent => ({ type: 'ScheduledChainEnded', data: { chainId, scheduleId, reason, endedAt: at } }),
});

/** The initial payment of a chain that starts the schedule: its own id is the chain's. */
function chainStart(scheduleId: string, o: { initiatedAt: string; firstDueDate: string; anchorDay?: number; paymentId?: string }): PaymentInitiated {
  const paymentId = o.paymentId ?? randomUUID();
  return paymentInitiated({
    paymentId,
    recurringInit: true,
    initiatedAt: o.initiatedAt,
    recurring: {
      role: 'initial',
      initPaymentId: paymentId,
      token: 't',
      schedule: {
        scheduleId,
        firstDueDate: o.firstDueDate,
        anchorDay: o.anchorDay ?? Number(o.firstDueDate.slice(8)),
        amount: 1000,
        amountText: '10.00',
        amountSent: false,
      },
    },
  });
}

forEachDialect('schedules read models', (fixture) => {
  // Given helpers: each appends to the store; `project` catches the projector up.
  const appendSchedule = (scheduleId: string, events: ScheduleEvent[]) =>
    fixture().store.append(
      scheduleStreamId(scheduleId),
      events.map((e) => ({ id: randomUUID(), type: e.type, schemaVersion: SCHEDULE_EVENT_SCHEMA_VERSION, data: e.data as unknown as Record<string, unknown> })),
      ANY,
    );
  const appendChain = (chainId: string, events: ChainEvent[]) =>
    fixture().store.append(
      chainStreamId(chainId),
      events.map((e) => ({ id: randomUUID(), type: e.type, schemaVersion: CHAIN_EVENT_SCHEMA_VERSION, data: e.data as unknown as Record<string, unknown> })),
      ANY,
    );
  const appendStart = (initiated: PaymentInitiated) => appendPaymentEvents(fixture().store, initiated.data.paymentId, [initiated]);
  const project = () => fixture().projector.catchUp();

  const scheduleRow = (scheduleId: string): Promise<ScheduleRow | undefined> =>
    fixture().db.selectFrom('schedules').selectAll().where('schedule_id', '=', scheduleId).executeTakeFirst();
  const chainRow = (chainId: string): Promise<ChainRow | undefined> =>
    fixture().db.selectFrom('scheduled_chains').selectAll().where('chain_id', '=', chainId).executeTakeFirst();
  const nextDueDates = async (...chainIds: string[]) => Promise.all(chainIds.map(async (id) => (await chainRow(id))?.next_due_date));

  /** A monthly schedule of 3 payments and one open chain on it, first due 2026-02-01. */
  async function givenOneChain(rule: ScheduleRule = MONTHLY) {
    const scheduleId = randomUUID();
    const s = scheduleEvents(scheduleId);
    await appendSchedule(scheduleId, [s.created(rule)]);
    const start = chainStart(scheduleId, { initiatedAt: '2026-01-01T10:00:00.000Z', firstDueDate: '2026-02-01' });
    await appendStart(start);
    const chainId = start.data.paymentId;
    return { scheduleId, chainId, s, c: chainEvents(chainId, scheduleId) };
  }

  describe('schedules', function () {
    it('Given updates, a pause, a resume, a detach and a delete, then the row follows each one', async function () {
      const scheduleId = randomUUID();
      const s = scheduleEvents(scheduleId);
      const pick = (row: ScheduleRow | undefined) =>
        row && [row.name, row.interval_length, row.interval_unit, row.payments_count, JSON.parse(row.delayed_first_payment), row.status, row.detached_at, row.updated_at];
      const steps: [ScheduleEvent, unknown[]][] = [
        [s.created(), ['Monthly plan', 1, 'month', 3, { kind: 'none' }, 'active', null, CREATED_AT]],
        [
          s.updated({ name: 'Bi-weekly', intervalLength: 2, intervalUnit: 'week', delayedFirstPayment: { kind: 'to_day_of_month', dayOfMonth: 5 } }, '2026-01-02T00:00:00.000Z'),
          ['Bi-weekly', 2, 'week', 3, { kind: 'to_day_of_month', dayOfMonth: 5 }, 'active', null, '2026-01-02T00:00:00.000Z'],
        ],
        [s.updated({ paymentsCount: 9 }, '2026-01-03T00:00:00.000Z'), ['Bi-weekly', 2, 'week', 9, { kind: 'to_day_of_month', dayOfMonth: 5 }, 'active', null, '2026-01-03T00:00:00.000Z']],
        [s.paused('2026-01-04T00:00:00.000Z'), ['Bi-weekly', 2, 'week', 9, { kind: 'to_day_of_month', dayOfMonth: 5 }, 'paused', null, '2026-01-04T00:00:00.000Z']],
        [s.resumed('2026-01-05T00:00:00.000Z'), ['Bi-weekly', 2, 'week', 9, { kind: 'to_day_of_month', dayOfMonth: 5 }, 'active', null, '2026-01-05T00:00:00.000Z']],
        [
          s.detached('2026-01-06T00:00:00.000Z'),
          ['Bi-weekly', 2, 'week', 9, { kind: 'to_day_of_month', dayOfMonth: 5 }, 'active', '2026-01-06T00:00:00.000Z', '2026-01-06T00:00:00.000Z'],
        ],
        [
          s.deleted('2026-01-07T00:00:00.000Z'),
          ['Bi-weekly', 2, 'week', 9, { kind: 'to_day_of_month', dayOfMonth: 5 }, 'deleted', '2026-01-06T00:00:00.000Z', '2026-01-07T00:00:00.000Z'],
        ],
      ];
      for (const [event, expected] of steps) {
        await appendSchedule(scheduleId, [event]);
        await project();
        expect(pick(await scheduleRow(scheduleId)), event.type).to.deep.equal(expected);
      }
    });
  });

  describe('chains', function () {
    it('Given ScheduledPaymentSkipped, then the chain moves on and counts the skip, not a payment', async function () {
      const { chainId, c } = await givenOneChain();
      await appendChain(chainId, [c.started(1, '2026-02-01'), c.skipped(2, '2026-03-01', '2026-03-01T00:00:07.000Z')]);
      await project();

      expect(await chainRow(chainId)).to.include({
        next_sequence: 3,
        next_due_date: '2026-04-01',
        payments_started: 1,
        payments_skipped: 1,
        updated_at: '2026-03-01T00:00:07.000Z',
      });
    });

    it('Given the last payment of the schedule was claimed, then the chain is due now, so the scheduler completes it', async function () {
      const { chainId, c } = await givenOneChain();
      await appendChain(chainId, [c.started(1, '2026-02-01'), c.started(2, '2026-03-01'), c.skipped(3, '2026-04-01')]);
      await project();

      expect(await chainRow(chainId)).to.include({ next_sequence: 4, next_due_date: DUE_NOW, status: 'open', payments_started: 2, payments_skipped: 1 });
    });

    it('Given a chain anchored on the 31st, then its next dates are clamped month by month without drifting', async function () {
      const scheduleId = randomUUID();
      await appendSchedule(scheduleId, [scheduleEvents(scheduleId).created({ ...MONTHLY, paymentsCount: 4 })]);
      const start = chainStart(scheduleId, { initiatedAt: '2025-12-31T10:00:00.000Z', firstDueDate: '2026-01-31', anchorDay: 31 });
      await appendStart(start);
      const chainId = start.data.paymentId;
      const c = chainEvents(chainId, scheduleId);
      await appendChain(chainId, [c.started(1, '2026-01-31')]);
      await project();
      expect((await chainRow(chainId))?.next_due_date).to.equal('2026-02-28');

      await appendChain(chainId, [c.started(2, '2026-02-28')]);
      await project();
      expect((await chainRow(chainId))?.next_due_date).to.equal('2026-03-31');
    });
  });

  describe('schedule changes reaching open chains', function () {
    /** Two open chains (one at sequence 1, one at 2) and an ended one, on one monthly schedule of 3. */
    async function givenThreeChains() {
      const scheduleId = randomUUID();
      const s = scheduleEvents(scheduleId);
      await appendSchedule(scheduleId, [s.created()]);
      const early = chainStart(scheduleId, { initiatedAt: '2026-01-01T10:00:00.000Z', firstDueDate: '2026-02-01' });
      const late = chainStart(scheduleId, { initiatedAt: '2026-01-15T10:00:00.000Z', firstDueDate: '2026-02-15' });
      const gone = chainStart(scheduleId, { initiatedAt: '2026-01-02T10:00:00.000Z', firstDueDate: '2026-02-02' });
      for (const start of [early, late, gone]) await appendStart(start);
      const [a, b, g] = [early, late, gone].map((p) => p.data.paymentId);
      await appendChain(a, [chainEvents(a, scheduleId).started(1, '2026-02-01')]);
      await appendChain(g, [chainEvents(g, scheduleId).ended('descheduled', '2026-01-20T00:00:00.000Z')]);
      // Projected now, so the schedule event below finds the chains in the database, not in its own batch.
      await project();
      expect(await nextDueDates(a, b, g)).to.deep.equal(['2026-03-01', '2026-02-15', null]);
      return { scheduleId, s, a, b, g };
    }

    it('Given a schedule whose interval changes, then each open chain is due on its next date counted from its first one', async function () {
      const { scheduleId, s, a, b, g } = await givenThreeChains();
      await appendSchedule(scheduleId, [s.updated({ intervalLength: 2 }, '2026-02-05T00:00:00.000Z')]);
      await project();
      // a: 2026-02-01 + 2 months (its sequence 2); b: still its first date; g: ended, untouched.
      expect(await nextDueDates(a, b, g)).to.deep.equal(['2026-04-01', '2026-02-15', null]);
      expect((await chainRow(a))?.updated_at).to.equal('2026-02-05T00:00:00.000Z');

      await appendSchedule(scheduleId, [s.updated({ intervalUnit: 'week', intervalLength: 1 }, '2026-02-06T00:00:00.000Z')]);
      await project();
      expect(await nextDueDates(a, b, g)).to.deep.equal(['2026-02-08', '2026-02-15', null]);
    });

    it('Given a schedule shortened to fewer payments than a chain made, then that chain is due now and the others keep their date', async function () {
      const { scheduleId, s, a, b, g } = await givenThreeChains();
      await appendSchedule(scheduleId, [s.updated({ paymentsCount: 1 }, '2026-02-05T00:00:00.000Z')]);
      await project();
      expect(await nextDueDates(a, b, g)).to.deep.equal([DUE_NOW, '2026-02-15', null]);
    });

    it('Given a schedule renamed, paused or resumed, then no chain date moves', async function () {
      const { scheduleId, s, a, b, g } = await givenThreeChains();
      await appendSchedule(scheduleId, [s.updated({ name: 'Renamed' }, '2026-02-05T00:00:00.000Z'), s.paused('2026-02-06T00:00:00.000Z')]);
      await project();
      expect(await nextDueDates(a, b, g)).to.deep.equal(['2026-03-01', '2026-02-15', null]);
      await appendSchedule(scheduleId, [s.resumed('2026-02-07T00:00:00.000Z')]);
      await project();
      expect(await nextDueDates(a, b, g)).to.deep.equal(['2026-03-01', '2026-02-15', null]);
    });

    it('Given ScheduleDeleted, then every open chain is due now and ended chains stay without a date', async function () {
      const { scheduleId, s, a, b, g } = await givenThreeChains();
      await appendSchedule(scheduleId, [s.deleted('2026-02-05T00:00:00.000Z')]);
      await project();
      expect(await nextDueDates(a, b, g)).to.deep.equal([DUE_NOW, DUE_NOW, null]);
      expect(await chainRow(a)).to.include({ status: 'open', updated_at: '2026-02-05T00:00:00.000Z' });

      // A payment claimed in a race with the delete still leaves the chain due now.
      await appendChain(b, [chainEvents(b, scheduleId).started(1, '2026-02-15')]);
      await project();
      expect(await nextDueDates(b)).to.deep.equal([DUE_NOW]);
    });

    it('Given ScheduleChainsDetached, then chains started at or before it are due now and a chain started later keeps its date', async function () {
      const { scheduleId, s, a, b, g } = await givenThreeChains();
      // Detached at the very instant chain b started: b counts as started before it.
      const detachedAt = '2026-01-15T10:00:00.000Z';
      const after = chainStart(scheduleId, { initiatedAt: '2026-01-15T10:00:00.001Z', firstDueDate: '2026-02-20' });
      await appendStart(after);
      const d = after.data.paymentId;
      await appendSchedule(scheduleId, [s.detached(detachedAt)]);
      await project();
      expect(await nextDueDates(a, b, g, d)).to.deep.equal([DUE_NOW, DUE_NOW, null, '2026-02-20']);

      // The later chain goes on normally.
      await appendChain(d, [chainEvents(d, scheduleId).started(1, '2026-02-20')]);
      await project();
      expect(await nextDueDates(d)).to.deep.equal(['2026-03-20']);
    });

    it('Given a chain whose payment is initiated after a detach was projected, then it is due on its first date', async function () {
      const { scheduleId, s } = await givenThreeChains();
      await appendSchedule(scheduleId, [s.detached('2026-01-16T00:00:00.000Z')]);
      await project();
      const later = chainStart(scheduleId, { initiatedAt: '2026-01-17T00:00:00.000Z', firstDueDate: '2026-02-17' });
      await appendStart(later);
      await project();
      expect(await nextDueDates(later.data.paymentId)).to.deep.equal(['2026-02-17']);
    });

    it('Given ScheduledChainEnded after a delete, then the chain is ended with no date', async function () {
      const { scheduleId, s, a } = await givenThreeChains();
      await appendSchedule(scheduleId, [s.deleted('2026-02-05T00:00:00.000Z')]);
      await appendChain(a, [chainEvents(a, scheduleId).ended('schedule_deleted', '2026-02-05T00:01:00.000Z')]);
      await project();
      expect(await chainRow(a)).to.include({ status: 'ended', end_reason: 'schedule_deleted', next_due_date: null });
    });
  });

  describe('batches', function () {
    /** A whole history touching every event type, with events of two chains interleaved. */
    async function givenHistory(): Promise<StoredEvent[]> {
      const scheduleId = randomUUID();
      const s = scheduleEvents(scheduleId);
      const early = chainStart(scheduleId, { initiatedAt: '2026-01-01T10:00:00.000Z', firstDueDate: '2026-02-01' });
      const mid = chainStart(scheduleId, { initiatedAt: '2026-01-10T10:00:00.000Z', firstDueDate: '2026-01-31', anchorDay: 31 });
      const late = chainStart(scheduleId, { initiatedAt: '2026-03-10T10:00:00.000Z', firstDueDate: '2026-04-10' });
      const [a, b, c] = [early, mid, late].map((p) => p.data.paymentId);
      const ca = chainEvents(a, scheduleId);
      const cb = chainEvents(b, scheduleId);
      const cc = chainEvents(c, scheduleId);

      await appendSchedule(scheduleId, [s.created({ ...MONTHLY, paymentsCount: 6 })]);
      await appendStart(early);
      await appendStart(mid);
      await appendChain(b, [cb.started(1, '2026-01-31')]);
      await appendChain(a, [ca.started(1, '2026-02-01')]);
      await appendSchedule(scheduleId, [s.paused('2026-02-20T00:00:00.000Z')]);
      await appendChain(b, [cb.skipped(2, '2026-02-28')]);
      await appendSchedule(scheduleId, [s.resumed('2026-02-28T12:00:00.000Z'), s.updated({ intervalLength: 2 }, '2026-03-02T00:00:00.000Z')]);
      await appendChain(a, [ca.started(2, '2026-04-01')]);
      await appendSchedule(scheduleId, [s.detached('2026-03-05T00:00:00.000Z')]);
      await appendChain(b, [cb.ended('descheduled', '2026-03-05T00:01:00.000Z')]);
      await appendStart(late);
      await appendSchedule(scheduleId, [s.updated({ intervalUnit: 'week' }, '2026-03-20T00:00:00.000Z')]);
      await appendChain(c, [cc.started(1, '2026-04-10')]);
      await appendSchedule(scheduleId, [s.deleted('2026-04-15T00:00:00.000Z')]);
      // Chains a and c are still open: the scheduler has yet to end them.
      return fixture().store.readAll();
    }

    async function rows() {
      const db = fixture().db;
      return {
        schedules: await db.selectFrom('schedules').selectAll().orderBy('schedule_id').execute(),
        chains: await db.selectFrom('scheduled_chains').selectAll().orderBy('chain_id').execute(),
      };
    }

    async function applyInBatches(batches: StoredEvent[][]) {
      const db = fixture().db;
      await db.deleteFrom('scheduled_chains').execute();
      await db.deleteFrom('schedules').execute();
      const projection = schedulesProjection();
      for (const batch of batches) await db.transaction().execute((trx) => projection.apply(scoped(trx), batch));
      return rows();
    }

    it('Given one history, when it is split in two batches at any point, then the rows are those of one batch', async function () {
      const events = await givenHistory();
      const whole = await applyInBatches([events]);
      expect(whole.schedules).to.have.length(1);
      expect(whole.chains.map((r) => [r.status, r.next_due_date])).to.have.deep.members([
        ['open', DUE_NOW],
        ['ended', null],
        ['open', DUE_NOW],
      ]);
      for (let split = 1; split < events.length; split++) {
        const parts = await applyInBatches([events.slice(0, split), events.slice(split)]);
        expect(parts, `split after event ${split} (${events[split - 1].type})`).to.deep.equal(whole);
      }
    });

    it('Given one history, when the projector applies it one event per batch, then the rows are those of one batch', async function () {
      const events = await givenHistory();
      await fixture().newProjector({ batchSize: 1 }).catchUp();
      const oneByOne = await rows();
      expect(await applyInBatches([events])).to.deep.equal(oneByOne);
    });

    it('Given a history before the delete, then the rows say where each chain stands', async function () {
      // The same history cut before the delete, to check the rows the split test compares are meaningful.
      const events = await givenHistory();
      const cut = events.findIndex((e) => e.type === 'ScheduleDeleted');
      const { chains } = await applyInBatches([events.slice(0, cut)]);
      const byFirstDate = new Map(chains.map((r) => [r.first_due_date, r]));
      // a: payment 2 claimed, then detached with every chain started before 2026-03-05: due now.
      expect(byFirstDate.get('2026-02-01')).to.include({ status: 'open', next_sequence: 3, next_due_date: DUE_NOW, payments_started: 2 });
      expect(byFirstDate.get('2026-01-31')).to.include({ status: 'ended', end_reason: 'descheduled', payments_started: 1, payments_skipped: 1 });
      // c: started after the detach; payment 1 claimed, next is one 2-week interval later.
      expect(byFirstDate.get('2026-04-10')).to.include({ status: 'open', next_sequence: 2, next_due_date: '2026-04-24' });
    });
  });
});

describe('schedules and chains rows, event by event', function () {
  const spec = projectionSpec(schedulesProjection());

  /** A monthly schedule of 3 and the payment that starts a chain on it, first due 2026-02-01. */
  function oneChain() {
    const scheduleId = randomUUID();
    const start = chainStart(scheduleId, { initiatedAt: '2026-01-01T10:00:00.000Z', firstDueDate: '2026-02-01' });
    const chainId = start.data.paymentId;
    return { scheduleId, chainId, created: scheduleEvents(scheduleId).created(), start, c: chainEvents(chainId, scheduleId) };
  }

  it('Given ScheduleCreated, then a schedules row holds the rule, active, never detached', async function () {
    const scheduleId = randomUUID();
    const rule: ScheduleRule = { intervalLength: 2, intervalUnit: 'week', paymentsCount: 5, delayedFirstPayment: { kind: 'to_day_of_week', dayOfWeek: 3 } };

    await spec.given([scheduleEvents(scheduleId).created(rule)]).then(rowsOf('schedules'), [
      {
        schedule_id: scheduleId,
        merchant_id: MERCHANT_ID,
        name: 'Monthly plan',
        interval_length: 2,
        interval_unit: 'week',
        payments_count: 5,
        delayed_first_payment: JSON.stringify({ kind: 'to_day_of_week', dayOfWeek: 3 }),
        status: 'active',
        detached_at: null,
        created_at: CREATED_AT,
        updated_at: CREATED_AT,
      },
    ]);
  });

  it('Given a PaymentInitiated that starts a schedule, then an open chain row is due on its first date, sequence 1', async function () {
    const { scheduleId, chainId, created, start } = oneChain();

    await spec.given([created, start]).then(rowsOf('scheduled_chains'), [
      {
        chain_id: chainId,
        merchant_id: MERCHANT_ID,
        schedule_id: scheduleId,
        init_payment_id: chainId,
        first_due_date: '2026-02-01',
        anchor_day: 1,
        next_sequence: 1,
        next_due_date: '2026-02-01',
        status: 'open',
        end_reason: null,
        payments_started: 0,
        payments_skipped: 0,
        started_at: '2026-01-01T10:00:00.000Z',
        updated_at: '2026-01-01T10:00:00.000Z',
      },
    ]);
  });

  it('Given payments that start no schedule (a plain sale, an initial payment without schedule), then no chain row', async function () {
    const id = randomUUID();
    const initialOnly = paymentInitiated({ paymentId: id, recurringInit: true, recurring: { role: 'initial', initPaymentId: id, token: 't' } });

    await spec.given([paymentInitiated(), initialOnly]).then(rowsOf('scheduled_chains'), []);
  });

  it('Given ScheduledPaymentStarted sequence 1, then the chain moves to sequence 2 on the second date, one payment started', async function () {
    const { created, start, c } = oneChain();

    await spec
      .given([created, start])
      .given([c.started(1, '2026-02-01', '2026-02-01T00:00:05.000Z')])
      .then(rowsOf('scheduled_chains', ['next_sequence', 'next_due_date', 'status', 'payments_started', 'payments_skipped', 'updated_at']), [
        { next_sequence: 2, next_due_date: '2026-03-01', status: 'open', payments_started: 1, payments_skipped: 0, updated_at: '2026-02-01T00:00:05.000Z' },
      ]);
  });

  it('Given ScheduledChainEnded, then the chain is ended with its reason and no next date', async function () {
    const { created, start, c } = oneChain();

    await spec
      .given([created, start, c.started(1, '2026-02-01'), c.ended('descheduled', '2026-02-10T00:00:00.000Z')])
      .then(rowsOf('scheduled_chains', ['status', 'end_reason', 'next_due_date', 'next_sequence', 'payments_started', 'updated_at']), [
        { status: 'ended', end_reason: 'descheduled', next_due_date: null, next_sequence: 2, payments_started: 1, updated_at: '2026-02-10T00:00:00.000Z' },
      ]);
  });
});
