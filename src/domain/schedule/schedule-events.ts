/**
 * Events of one schedule stream (`schedule-<schedule id>`). A schedule is a merchant's template of
 * automatic payments (interval, count, first-payment delay); recurring chains of sale and debit
 * payments both follow it. Chains keep their own streams (see chain-events.ts), so pausing,
 * resuming or deleting a schedule is one event whatever number of chains use it.
 */
import type { ScheduleRule } from './due-dates';

export const SCHEDULE_EVENT_SCHEMA_VERSION = 1;

export interface ScheduleCreated {
  type: 'ScheduleCreated';
  data: { scheduleId: string; merchantId: string; name: string; rule: ScheduleRule; createdAt: string };
}

/** Only what the merchant sent; everything else stays as it was. */
export type ScheduleChanges = Partial<{ name: string } & ScheduleRule>;

export interface ScheduleUpdated {
  type: 'ScheduleUpdated';
  data: { scheduleId: string; changes: ScheduleChanges; updatedAt: string };
}

/** Due dates that fall while paused are skipped, not made up later. */
export interface SchedulePaused {
  type: 'SchedulePaused';
  data: { scheduleId: string; pausedAt: string };
}

export interface ScheduleResumed {
  type: 'ScheduleResumed';
  data: { scheduleId: string; resumedAt: string };
}

/** Deschedule without a chain: every chain started before this stops; the schedule stays usable. */
export interface ScheduleChainsDetached {
  type: 'ScheduleChainsDetached';
  data: { scheduleId: string; detachedAt: string };
}

export interface ScheduleDeleted {
  type: 'ScheduleDeleted';
  data: { scheduleId: string; deletedAt: string };
}

export type ScheduleEvent =
  | ScheduleCreated
  | ScheduleUpdated
  | SchedulePaused
  | ScheduleResumed
  | ScheduleChainsDetached
  | ScheduleDeleted;

export const SCHEDULE_EVENT_TYPES: readonly ScheduleEvent['type'][] = [
  'ScheduleCreated',
  'ScheduleUpdated',
  'SchedulePaused',
  'ScheduleResumed',
  'ScheduleChainsDetached',
  'ScheduleDeleted',
];

export const scheduleStreamId = (scheduleId: string): string => `schedule-${scheduleId}`;
