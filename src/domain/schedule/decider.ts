import type { Decider } from '../decider';
import { evolveChain, initialChainState } from './chain-decide';
import { decideSchedule, type ScheduleCommand } from './schedule-decide';
import { SCHEDULE_EVENT_SCHEMA_VERSION, type ScheduleEvent } from './schedule-events';
import { evolveSchedule, initialScheduleState, type ScheduleState } from './schedule-state';

/** The schedule stream (`schedule-<id>`). */
export const scheduleDecider: Decider<ScheduleCommand, ScheduleState, ScheduleEvent> = {
  decide: decideSchedule,
  evolve: evolveSchedule,
  initialState: initialScheduleState,
  schemaVersion: SCHEDULE_EVENT_SCHEMA_VERSION,
};

/** A scheduled chain's stream (`scheduled-chain-<payment id>`): its steps are decided by the scheduler (nextChainStep); this folds and versions them. */
export const chainFold = { evolve: evolveChain, initialState: initialChainState };
