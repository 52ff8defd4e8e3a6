/** What each schedule event does to its schedule row: one apply function per event type. */
import type { ScheduleEvent } from '../../src/domain/schedule/schedule-events';
import type { ScheduleRow } from './next-due';

type ScheduleEventOf<T extends ScheduleEvent['type']> = Extract<ScheduleEvent, { type: T }>;
/** The row after the event; undefined for an event about a schedule never created. */
type Apply<T extends ScheduleEvent['type']> = (row: ScheduleRow | undefined, event: ScheduleEventOf<T>) => ScheduleRow | undefined;

const APPLY: { readonly [T in ScheduleEvent['type']]: Apply<T> } = {
  ScheduleCreated: (_row, { data: d }) => ({
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
  }),
  ScheduleUpdated: (row, { data: { changes: c, updatedAt } }) =>
    row && {
      ...row,
      name: c.name ?? row.name,
      interval_length: c.intervalLength ?? row.interval_length,
      interval_unit: c.intervalUnit ?? row.interval_unit,
      payments_count: c.paymentsCount ?? row.payments_count,
      delayed_first_payment: c.delayedFirstPayment ? JSON.stringify(c.delayedFirstPayment) : row.delayed_first_payment,
      updated_at: updatedAt,
    },
  SchedulePaused: (row, { data }) => row && { ...row, status: 'paused', updated_at: data.pausedAt },
  ScheduleResumed: (row, { data }) => row && { ...row, status: 'active', updated_at: data.resumedAt },
  ScheduleChainsDetached: (row, { data }) => row && { ...row, detached_at: data.detachedAt, updated_at: data.detachedAt },
  ScheduleDeleted: (row, { data }) => row && { ...row, status: 'deleted', updated_at: data.deletedAt },
};

export function applySchedule(row: ScheduleRow | undefined, event: ScheduleEvent): ScheduleRow | undefined {
  return (APPLY[event.type] as Apply<ScheduleEvent['type']>)(row, event);
}
