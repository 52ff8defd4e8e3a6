/**
 * Schedules and their chains. A chain row appears when a payment that starts a schedule is
 * initiated, moves on with every automatic payment claimed or skipped, and closes when the chain
 * ends. Its `next_due_date` is recomputed from the schedule's current interval whenever that
 * changes, because every due date is counted from the chain's first one.
 *
 * A deleted schedule or a deschedule of every chain makes the open chains due at once, so the
 * scheduler ends them promptly instead of at their next date.
 */
import type { Insertable, Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import type { PaymentInitiated } from '../../src/domain/payment/events';
import { CHAIN_EVENT_TYPES, type ChainEvent } from '../../src/domain/schedule/chain-events';
import { SCHEDULE_EVENT_TYPES, type ScheduleEvent } from '../../src/domain/schedule/schedule-events';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import { applyChain, startedChain } from './chain-rows';
import { nextDue, type ChainRow, type ScheduleRow } from './next-due';
import { applySchedule } from './schedule-rows';
import type { ScheduledChainsTable, ScheduleTables, SchedulesTable } from './tables';

export { DUE_NOW } from './next-due';

const SCHEDULE_TYPES: ReadonlySet<string> = new Set(SCHEDULE_EVENT_TYPES);
const CHAIN_TYPES: ReadonlySet<string> = new Set(CHAIN_EVENT_TYPES);

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

/** The rows a batch needs, by id: schedules its events name, chains they move, open chains of schedules that change. */
function idsToLoad(relevant: StoredEvent[]) {
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
  return { scheduleIds, chainIds, wholeSchedules };
}

async function loadRows(trx: Transaction<ScheduleTables>, relevant: StoredEvent[]): Promise<ScheduleBatch> {
  const { scheduleIds, chainIds, wholeSchedules } = idsToLoad(relevant);
  const batch = new ScheduleBatch();
  for (const part of chunked([...scheduleIds], 5_000)) {
    for (const row of await trx.selectFrom('schedules').selectAll().where('schedule_id', 'in', part).execute()) {
      batch.schedules.set(row.schedule_id, row);
    }
  }
  for (const part of chunked([...chainIds], 5_000)) {
    for (const row of await trx.selectFrom('scheduled_chains').selectAll().where('chain_id', 'in', part).execute()) {
      batch.chains.set(row.chain_id, row);
    }
  }
  for (const part of chunked([...wholeSchedules], 5_000)) {
    const rows = await trx.selectFrom('scheduled_chains').selectAll().where('schedule_id', 'in', part).where('status', '=', 'open').execute();
    for (const row of rows) if (!batch.chains.has(row.chain_id)) batch.chains.set(row.chain_id, row);
  }
  return batch;
}

/** The schedule and chain rows one batch works on, and which of them changed. */
class ScheduleBatch {
  readonly schedules = new Map<string, ScheduleRow>();
  readonly chains = new Map<string, ChainRow>();
  readonly changedSchedules = new Set<string>();
  readonly changedChains = new Set<string>();

  setSchedule(row: ScheduleRow): void {
    this.schedules.set(row.schedule_id, row);
    this.changedSchedules.add(row.schedule_id);
  }

  setChain(row: ChainRow): void {
    this.chains.set(row.chain_id, row);
    this.changedChains.add(row.chain_id);
  }

  openChainsOf(scheduleId: string): ChainRow[] {
    return [...this.chains.values()].filter((c) => c.schedule_id === scheduleId && c.status === 'open');
  }
}

function applyScheduleEvent(batch: ScheduleBatch, e: StoredEvent): void {
  const event = { type: e.type, data: e.data } as unknown as ScheduleEvent;
  const id = event.data.scheduleId;
  const row = applySchedule(batch.schedules.get(id), event);
  if (!row) return;
  batch.setSchedule(row);
  if (event.type === 'ScheduleCreated' || event.type === 'SchedulePaused' || event.type === 'ScheduleResumed') return;
  for (const chain of batch.openChainsOf(id)) batch.setChain({ ...chain, next_due_date: nextDue(chain, row), updated_at: row.updated_at });
}

function applyChainEvent(batch: ScheduleBatch, e: StoredEvent): void {
  const event = { type: e.type, data: e.data } as unknown as ChainEvent;
  const chain = batch.chains.get(event.data.chainId);
  if (!chain) return; // a chain event before its payment: cannot happen in one store's order
  batch.setChain(applyChain(chain, event, batch.schedules.get(chain.schedule_id)));
}

function startChain(batch: ScheduleBatch, e: StoredEvent): void {
  const d = e.data as PaymentInitiated['data'];
  if (batch.chains.has(d.paymentId)) return;
  batch.setChain(startedChain(d, batch.schedules.get(d.recurring!.schedule!.scheduleId)));
}

/** Applies schedule and chain events, and starts a chain row for each payment that starts a schedule. */
export async function applyToSchedules(trx: Transaction<ScheduleTables>, events: StoredEvent[]): Promise<void> {
  const relevant = events.filter((e) => SCHEDULE_TYPES.has(e.type) || CHAIN_TYPES.has(e.type) || startsSchedule(e));
  if (relevant.length === 0) return;
  const batch = await loadRows(trx, relevant);
  for (const e of relevant) {
    if (SCHEDULE_TYPES.has(e.type)) applyScheduleEvent(batch, e);
    else if (CHAIN_TYPES.has(e.type)) applyChainEvent(batch, e);
    else startChain(batch, e);
  }
  await upsertRows(trx, SCHEDULE_UPSERT, [...batch.changedSchedules].map((id) => batch.schedules.get(id)!) as Insertable<SchedulesTable>[]);
  await upsertRows(trx, CHAIN_UPSERT, [...batch.changedChains].map((id) => batch.chains.get(id)!) as Insertable<ScheduledChainsTable>[]);
}
