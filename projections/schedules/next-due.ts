/** When the scheduler should look at a chain next, counted from the chain's first due date by the schedule as it is now. */
import type { Selectable } from 'kysely';
import { dueDateOf, type IntervalUnit } from '../../src/domain/schedule/due-dates';
import type { ScheduledChainsTable, SchedulesTable } from './tables';

export type ScheduleRow = Selectable<SchedulesTable>;
export type ChainRow = Selectable<ScheduledChainsTable>;

/** A chain that must be looked at now: before any real due date. */
export const DUE_NOW = '0000-01-01';

/** The date the scheduler should look at the chain next, by the schedule as it is now. */
export function nextDue(chain: ChainRow, schedule: ScheduleRow | undefined): string {
  if (!schedule || schedule.status === 'deleted' || chain.next_sequence > Number(schedule.payments_count)) return DUE_NOW;
  if (schedule.detached_at !== null && chain.started_at <= schedule.detached_at) return DUE_NOW;
  return dueDateOf(
    { intervalLength: Number(schedule.interval_length), intervalUnit: schedule.interval_unit as IntervalUnit },
    { firstDueDate: chain.first_due_date, anchorDay: Number(chain.anchor_day) },
    chain.next_sequence,
  );
}
