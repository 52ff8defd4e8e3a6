/**
 * Schedules and their chains. A chain row appears when a payment that starts a schedule is
 * initiated, moves on with every automatic payment claimed or skipped, and closes when the chain
 * ends. Its `next_due_date` is recomputed from the schedule's current interval whenever that
 * changes, because every due date is counted from the chain's first one.
 *
 * A deleted schedule or a deschedule of every chain makes the open chains due at once, so the
 * scheduler ends them promptly instead of at their next date.
 */
import type { Insertable, Selectable, Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import type { PaymentInitiated } from '../../src/domain/payment/events';
import { CHAIN_EVENT_TYPES, type ChainEvent } from '../../src/domain/schedule/chain-events';
import { dueDateOf, type IntervalUnit } from '../../src/domain/schedule/due-dates';
import { SCHEDULE_EVENT_TYPES, type ScheduleEvent } from '../../src/domain/schedule/schedule-events';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import type { ScheduledChainsTable, ScheduleTables, SchedulesTable } from './tables';

/** A chain that must be looked at now: before any real due date. */
export const DUE_NOW = '0000-01-01';

const SCHEDULE_TYPES: ReadonlySet<string> = new Set(SCHEDULE_EVENT_TYPES);
const CHAIN_TYPES: ReadonlySet<string> = new Set(CHAIN_EVENT_TYPES);

type ScheduleRow = Selectable<SchedulesTable>;
type ChainRow = Selectable<ScheduledChainsTable>;

const SCHEDULE_COLUMNS = [
  'merchant_id',
  'name',
  'interval_length',
  'interval_unit',
  'payments_count',
  'delayed_first_payment',
  'status',
  'detached_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof SchedulesTable)[];

const CHAIN_COLUMNS = [
  'merchant_id',
  'schedule_id',
  'init_payment_id',
  'first_due_date',
  'anchor_day',
  'next_sequence',
  'next_due_date',
  'status',
  'end_reason',
  'payments_started',
  'payments_skipped',
  'started_at',
  'updated_at',
] as const satisfies readonly (keyof ScheduledChainsTable)[];

const SCHEDULE_UPSERT: UpsertSpec<ScheduleTables, 'schedules'> = {
  table: 'schedules',
  columns: ['schedule_id', ...SCHEDULE_COLUMNS],
  key: ['schedule_id'],
  update: SCHEDULE_COLUMNS,
};

const CHAIN_UPSERT: UpsertSpec<ScheduleTables, 'scheduled_chains'> = {
  table: 'scheduled_chains',
  columns: ['chain_id', ...CHAIN_COLUMNS],
  key: ['chain_id'],
  update: CHAIN_COLUMNS,
};

const startsSchedule = (e: StoredEvent): boolean =>
  e.type === 'PaymentInitiated' && Boolean((e.data as PaymentInitiated['data']).recurring?.schedule);

/** The date the scheduler should look at the chain next, by the schedule as it is now. */
function nextDue(chain: ChainRow, schedule: ScheduleRow | undefined): string {
  if (!schedule || schedule.status === 'deleted' || chain.next_sequence > Number(schedule.payments_count)) return DUE_NOW;
  if (schedule.detached_at !== null && chain.started_at <= schedule.detached_at) return DUE_NOW;
  return dueDateOf(
    { intervalLength: Number(schedule.interval_length), intervalUnit: schedule.interval_unit as IntervalUnit },
    { firstDueDate: chain.first_due_date, anchorDay: Number(chain.anchor_day) },
    chain.next_sequence,
  );
}

/** Applies schedule and chain events, and starts a chain row for each payment that starts a schedule. */
export async function applyToSchedules(trx: Transaction<ScheduleTables>, events: StoredEvent[]): Promise<void> {
  const relevant = events.filter((e) => SCHEDULE_TYPES.has(e.type) || CHAIN_TYPES.has(e.type) || startsSchedule(e));
  if (relevant.length === 0) return;

  const scheduleIds = new Set<string>();
  const chainIds = new Set<string>();
  const wholeSchedules = new Set<string>();
  for (const e of relevant) {
    if (SCHEDULE_TYPES.has(e.type)) {
      scheduleIds.add(String(e.data.scheduleId));
      if (e.type !== 'ScheduleCreated') wholeSchedules.add(String(e.data.scheduleId));
    } else if (CHAIN_TYPES.has(e.type)) {
      chainIds.add(String(e.data.chainId));
      scheduleIds.add(String(e.data.scheduleId));
    } else {
      scheduleIds.add((e.data as PaymentInitiated['data']).recurring!.schedule!.scheduleId);
    }
  }
  const schedules = new Map<string, ScheduleRow>();
  for (const part of chunked([...scheduleIds], 5_000)) {
    for (const row of await trx.selectFrom('schedules').selectAll().where('schedule_id', 'in', part).execute()) {
      schedules.set(row.schedule_id, row);
    }
  }
  const chains = new Map<string, ChainRow>();
  for (const part of chunked([...chainIds], 5_000)) {
    for (const row of await trx.selectFrom('scheduled_chains').selectAll().where('chain_id', 'in', part).execute()) {
      chains.set(row.chain_id, row);
    }
  }
  for (const part of chunked([...wholeSchedules], 5_000)) {
    const rows = await trx.selectFrom('scheduled_chains').selectAll().where('schedule_id', 'in', part).where('status', '=', 'open').execute();
    for (const row of rows) if (!chains.has(row.chain_id)) chains.set(row.chain_id, row);
  }

  const changedSchedules = new Set<string>();
  const changedChains = new Set<string>();
  const openChainsOf = (scheduleId: string) => [...chains.values()].filter((c) => c.schedule_id === scheduleId && c.status === 'open');

  for (const e of relevant) {
    if (SCHEDULE_TYPES.has(e.type)) {
      const event = { type: e.type, data: e.data } as unknown as ScheduleEvent;
      const id = event.data.scheduleId;
      const row = applySchedule(schedules.get(id), event);
      if (!row) continue;
      schedules.set(id, row);
      changedSchedules.add(id);
      if (event.type === 'ScheduleCreated' || event.type === 'SchedulePaused' || event.type === 'ScheduleResumed') continue;
      for (const chain of openChainsOf(id)) {
        chains.set(chain.chain_id, { ...chain, next_due_date: nextDue(chain, row), updated_at: row.updated_at });
        changedChains.add(chain.chain_id);
      }
    } else if (CHAIN_TYPES.has(e.type)) {
      const event = { type: e.type, data: e.data } as unknown as ChainEvent;
      const chain = chains.get(event.data.chainId);
      if (!chain) continue; // a chain event before its payment: cannot happen in one store's order
      chains.set(chain.chain_id, applyChain(chain, event, schedules.get(chain.schedule_id)));
      changedChains.add(chain.chain_id);
    } else {
      const d = e.data as PaymentInitiated['data'];
      const schedule = d.recurring!.schedule!;
      if (chains.has(d.paymentId)) continue;
      const row: ChainRow = {
        chain_id: d.paymentId,
        merchant_id: d.merchantId,
        schedule_id: schedule.scheduleId,
        init_payment_id: d.recurring!.initPaymentId,
        first_due_date: schedule.firstDueDate,
        anchor_day: schedule.anchorDay,
        next_sequence: 1,
        next_due_date: schedule.firstDueDate,
        status: 'open',
        end_reason: null,
        payments_started: 0,
        payments_skipped: 0,
        started_at: d.initiatedAt,
        updated_at: d.initiatedAt,
      };
      // A schedule deleted or descheduled before this payment was projected: due now, to end it.
      const known = schedules.get(schedule.scheduleId);
      chains.set(d.paymentId, known ? { ...row, next_due_date: nextDue(row, known) } : row);
      changedChains.add(d.paymentId);
    }
  }

  await upsertRows(trx, SCHEDULE_UPSERT, [...changedSchedules].map((id) => schedules.get(id)!) as Insertable<SchedulesTable>[]);
  await upsertRows(trx, CHAIN_UPSERT, [...changedChains].map((id) => chains.get(id)!) as Insertable<ScheduledChainsTable>[]);
}

function applySchedule(row: ScheduleRow | undefined, event: ScheduleEvent): ScheduleRow | undefined {
  switch (event.type) {
    case 'ScheduleCreated': {
      const d = event.data;
      return {
        schedule_id: d.scheduleId,
        merchant_id: d.merchantId,
        name: d.name,
        interval_length: d.rule.intervalLength,
        interval_unit: d.rule.intervalUnit,
        payments_count: d.rule.paymentsCount,
        delayed_first_payment: JSON.stringify(d.rule.delayedFirstPayment),
        status: 'active',
        detached_at: null,
        created_at: d.createdAt,
        updated_at: d.createdAt,
      };
    }
    case 'ScheduleUpdated': {
      if (!row) return undefined;
      const c = event.data.changes;
      return {
        ...row,
        name: c.name ?? row.name,
        interval_length: c.intervalLength ?? row.interval_length,
        interval_unit: c.intervalUnit ?? row.interval_unit,
        payments_count: c.paymentsCount ?? row.payments_count,
        delayed_first_payment: c.delayedFirstPayment ? JSON.stringify(c.delayedFirstPayment) : row.delayed_first_payment,
        updated_at: event.data.updatedAt,
      };
    }
    case 'SchedulePaused':
      return row && { ...row, status: 'paused', updated_at: event.data.pausedAt };
    case 'ScheduleResumed':
      return row && { ...row, status: 'active', updated_at: event.data.resumedAt };
    case 'ScheduleChainsDetached':
      return row && { ...row, detached_at: event.data.detachedAt, updated_at: event.data.detachedAt };
    case 'ScheduleDeleted':
      return row && { ...row, status: 'deleted', updated_at: event.data.deletedAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function applyChain(chain: ChainRow, event: ChainEvent, schedule: ScheduleRow | undefined): ChainRow {
  switch (event.type) {
    case 'ScheduledPaymentStarted':
    case 'ScheduledPaymentSkipped': {
      const started = event.type === 'ScheduledPaymentStarted';
      const next = { ...chain, next_sequence: event.data.sequence + 1 };
      return {
        ...next,
        next_due_date: nextDue(next, schedule),
        payments_started: Number(chain.payments_started) + (started ? 1 : 0),
        payments_skipped: Number(chain.payments_skipped) + (started ? 0 : 1),
        updated_at: started ? event.data.startedAt : event.data.skippedAt,
      };
    }
    case 'ScheduledChainEnded':
      return { ...chain, status: 'ended', end_reason: event.data.reason, next_due_date: null, updated_at: event.data.endedAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
