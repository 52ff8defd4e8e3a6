/**
 * The schedule decider. Pure: ids and time come in as data. Repeating a pause, a run or an
 * update to the current values decides nothing new, so merchants may safely retry them. A
 * deschedule of every chain is recorded each time: it also stops chains started since the last one.
 */
import { canonicalJson } from '../audit/canonical-json';
import { DomainError } from '../errors';
import type { ScheduleRule } from './due-dates';
import type { ScheduleChanges, ScheduleEvent } from './schedule-events';
import type { ExistingSchedule, ScheduleState } from './schedule-state';

export type ScheduleCommand =
  | { type: 'CreateSchedule'; data: { scheduleId: string; merchantId: string; name: string; rule: ScheduleRule; now: string } }
  | { type: 'UpdateSchedule'; data: { changes: ScheduleChanges; now: string } }
  | { type: 'PauseSchedule'; data: { now: string } }
  | { type: 'RunSchedule'; data: { now: string } }
  | { type: 'DetachScheduleChains'; data: { now: string } }
  | { type: 'DeleteSchedule'; data: { now: string } };

export function decideSchedule(command: ScheduleCommand, state: ScheduleState): ScheduleEvent[] {
  if (command.type === 'CreateSchedule') {
    if (state.exists) throw new DomainError('schedule_exists', 'Schedule already exists.');
    const { now, ...d } = command.data;
    return [{ type: 'ScheduleCreated', data: { ...d, createdAt: now } }];
  }
  // A deleted schedule is gone for the merchant: every later command finds nothing.
  if (!state.exists || state.status === 'deleted') throw new DomainError('schedule_not_found', 'Schedule not found');
  const s: ExistingSchedule = state;
  const scheduleId = s.scheduleId;
  switch (command.type) {
    case 'UpdateSchedule': {
      const changes = changedOnly(s, command.data.changes);
      return Object.keys(changes).length === 0 ? [] : [{ type: 'ScheduleUpdated', data: { scheduleId, changes, updatedAt: command.data.now } }];
    }
    case 'PauseSchedule':
      return s.status === 'paused' ? [] : [{ type: 'SchedulePaused', data: { scheduleId, pausedAt: command.data.now } }];
    case 'RunSchedule':
      return s.status === 'active' ? [] : [{ type: 'ScheduleResumed', data: { scheduleId, resumedAt: command.data.now } }];
    case 'DetachScheduleChains':
      return [{ type: 'ScheduleChainsDetached', data: { scheduleId, detachedAt: command.data.now } }];
    case 'DeleteSchedule':
      return [{ type: 'ScheduleDeleted', data: { scheduleId, deletedAt: command.data.now } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function changedOnly(s: ExistingSchedule, changes: ScheduleChanges): ScheduleChanges {
  const current: Record<string, unknown> = { name: s.name, ...s.rule };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    // Key order is not meaning: a stored rule may come back with its keys reordered (jsonb).
    if (value !== undefined && canonicalJson(current[key]) !== canonicalJson(value)) out[key] = value;
  }
  return out as ScheduleChanges;
}
