/**
 * Every due date of a scheduled chain with what became of it, for operators and auditors: charged
 * (with the payment), skipped (with why), or still to come by the schedule as it is now, and how
 * the chain ended. Pure: built from the chain's events, its schedule and its payments' states.
 */
import type { ChainSchedule } from '../payment/events';
import type { ChainEndReason, ChainEvent, SkipReason } from './chain-events';
import { dueDateOf } from './due-dates';
import type { ExistingSchedule } from './schedule-state';

export type TimelineEntry =
  | { sequence: number; dueDate: string; outcome: 'charged'; paymentId: string; at: string; status: string | null; reason: string | null }
  | { sequence: number; dueDate: string; outcome: 'skipped'; reason: SkipReason; at: string }
  | { sequence: number; dueDate: string; outcome: 'upcoming' };

export interface ChainTimeline {
  entries: TimelineEntry[];
  ended: { reason: ChainEndReason; at: string } | null;
}

export function chainTimeline(
  events: readonly ChainEvent[],
  schedule: ExistingSchedule,
  anchor: ChainSchedule,
  payments: ReadonlyMap<string, { status: string; declineReason: string | null }>,
): ChainTimeline {
  const entries: TimelineEntry[] = [];
  let ended: ChainTimeline['ended'] = null;
  for (const e of events) {
    switch (e.type) {
      case 'ScheduledPaymentStarted': {
        const p = payments.get(e.data.paymentId);
        entries.push({
          sequence: e.data.sequence,
          dueDate: e.data.dueDate,
          outcome: 'charged',
          paymentId: e.data.paymentId,
          at: e.data.startedAt,
          status: p?.status ?? null,
          reason: p?.declineReason ?? null,
        });
        break;
      }
      case 'ScheduledPaymentSkipped':
        entries.push({ sequence: e.data.sequence, dueDate: e.data.dueDate, outcome: 'skipped', reason: e.data.reason, at: e.data.skippedAt });
        break;
      case 'ScheduledChainEnded':
        ended = { reason: e.data.reason, at: e.data.endedAt };
        break;
      default: {
        const unreachable: never = e;
        return unreachable;
      }
    }
  }
  if (!ended && schedule.status !== 'deleted') {
    const last = entries.length ? entries[entries.length - 1].sequence : 0;
    for (let sequence = last + 1; sequence <= schedule.rule.paymentsCount; sequence++) {
      entries.push({ sequence, dueDate: dueDateOf(schedule.rule, anchor, sequence), outcome: 'upcoming' });
    }
  }
  return { entries, ended };
}
