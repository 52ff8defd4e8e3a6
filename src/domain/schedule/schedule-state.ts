/** A schedule folded from its events; shared by the decider, the scheduler and the read model. */
import type { ScheduleRule } from './due-dates';
import type { ScheduleEvent } from './schedule-events';

export interface PauseSpan {
  from: string;
  /** Null while still paused. */
  to: string | null;
}

export interface ExistingSchedule {
  exists: true;
  scheduleId: string;
  merchantId: string;
  name: string;
  rule: ScheduleRule;
  status: 'active' | 'paused' | 'deleted';
  pauses: PauseSpan[];
  /** Latest deschedule of every chain: chains started at or before it are stopped. */
  detachedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ScheduleState = { exists: false } | ExistingSchedule;

export const initialScheduleState = (): ScheduleState => ({ exists: false });

export function evolveSchedule(state: ScheduleState, event: ScheduleEvent): ScheduleState {
  if (event.type === 'ScheduleCreated') {
    const d = event.data;
    return {
      exists: true,
      scheduleId: d.scheduleId,
      merchantId: d.merchantId,
      name: d.name,
      rule: d.rule,
      status: 'active',
      pauses: [],
      detachedAt: null,
      createdAt: d.createdAt,
      updatedAt: d.createdAt,
    };
  }
  if (!state.exists) return state;
  const s = state;
  switch (event.type) {
    case 'ScheduleUpdated': {
      const { name, ...rule } = event.data.changes;
      return { ...s, name: name ?? s.name, rule: { ...s.rule, ...rule }, updatedAt: event.data.updatedAt };
    }
    case 'SchedulePaused':
      return { ...s, status: 'paused', pauses: [...s.pauses, { from: event.data.pausedAt, to: null }], updatedAt: event.data.pausedAt };
    case 'ScheduleResumed':
      return {
        ...s,
        status: 'active',
        pauses: s.pauses.map((p) => (p.to === null ? { ...p, to: event.data.resumedAt } : p)),
        updatedAt: event.data.resumedAt,
      };
    case 'ScheduleChainsDetached':
      return { ...s, detachedAt: event.data.detachedAt, updatedAt: event.data.detachedAt };
    case 'ScheduleDeleted':
      return { ...s, status: 'deleted', updatedAt: event.data.deletedAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Whether the schedule was paused at `instant` (ISO-8601). */
export function pausedAt(s: ExistingSchedule, instant: string): boolean {
  return s.pauses.some((p) => p.from <= instant && (p.to === null || instant < p.to));
}
