/**
 * What a scheduled chain does next, decided from its own events, its schedule and the payment that
 * started it. Pure: the scheduler brings time and the id of a payment it would create.
 *
 * In order: an ended chain does nothing; a deleted schedule, a deschedule or a failed starting
 * payment ends it; a starting payment still undecided makes it wait; after the last payment it
 * completes; a date not yet due waits; a date at or before one the chain already passed (the
 * interval was shortened) or due while the schedule is (or was) paused is skipped; otherwise the
 * due payment is charged. Each call decides one step, so a scheduler that
 * catches up walks the dates in order.
 */
import type { ChainSchedule } from '../payment/events';
import { dueDateOf } from './due-dates';
import type { ChainEndReason, ChainEvent, SkipReason } from './chain-events';
import { pausedAt, type ExistingSchedule } from './schedule-state';

export interface ChainState {
  /** Number of the last due date charged or skipped; 0 before the first. */
  lastSequence: number;
  ended: ChainEndReason | null;
  /** The latest claimed payment, so a restart can finish one whose payment was never written. */
  lastPaymentId: string | null;
  /** Due date of the last date charged or skipped. Optional: absent in states folded before it existed. */
  lastDueDate?: string | null;
}

export const initialChainState = (): ChainState => ({ lastSequence: 0, ended: null, lastPaymentId: null, lastDueDate: null });

export function evolveChain(state: ChainState, event: ChainEvent): ChainState {
  switch (event.type) {
    case 'ScheduledPaymentStarted':
      return { ...state, lastSequence: event.data.sequence, lastPaymentId: event.data.paymentId, lastDueDate: event.data.dueDate };
    case 'ScheduledPaymentSkipped':
      return { ...state, lastSequence: event.data.sequence, lastDueDate: event.data.dueDate };
    case 'ScheduledChainEnded':
      return { ...state, ended: event.data.reason };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** What the chain needs to know about the payment that started it. */
export interface ChainSource {
  paymentId: string;
  outcome: 'succeeded' | 'failed' | 'undecided';
  schedule: ChainSchedule;
  /** When the starting payment was initiated: a deschedule of every chain after it stops this one. */
  startedAt: string;
}

export type ChainStep =
  | { kind: 'none' }
  | { kind: 'wait'; until: string | null }
  | { kind: 'charge'; sequence: number; dueDate: string }
  | { kind: 'skip'; sequence: number; dueDate: string; reason: SkipReason }
  | { kind: 'end'; reason: ChainEndReason };

/** Midnight UTC of a due date: the moment it falls due. */
export const dueInstant = (dueDate: string): string => `${dueDate}T00:00:00.000Z`;

export function nextChainStep(chain: ChainState, schedule: ExistingSchedule, source: ChainSource, now: string): ChainStep {
  if (chain.ended) return { kind: 'none' };
  if (schedule.status === 'deleted') return { kind: 'end', reason: 'schedule_deleted' };
  if (schedule.detachedAt !== null && source.startedAt <= schedule.detachedAt) return { kind: 'end', reason: 'descheduled' };
  if (source.outcome === 'failed') return { kind: 'end', reason: 'initial_payment_failed' };
  if (source.outcome === 'undecided') return { kind: 'wait', until: null };
  const sequence = chain.lastSequence + 1;
  if (sequence > schedule.rule.paymentsCount) return { kind: 'end', reason: 'completed' };
  const dueDate = dueDateOf(schedule.rule, source.schedule, sequence);
  const due = dueInstant(dueDate);
  if (due > now) return { kind: 'wait', until: due };
  // A shorter interval set mid-chain moves dates behind the chain: they are passed, never charged in a burst.
  if (chain.lastDueDate && dueDate <= chain.lastDueDate) return { kind: 'skip', sequence, dueDate, reason: 'schedule_changed' };
  if (schedule.status === 'paused' || pausedAt(schedule, due)) return { kind: 'skip', sequence, dueDate, reason: 'schedule_paused' };
  return { kind: 'charge', sequence, dueDate };
}

/** The events of a step; `paymentId` is the id of the payment a charge creates. */
export function chainEventsFor(
  step: ChainStep,
  ids: { chainId: string; scheduleId: string; paymentId: string; now: string },
): ChainEvent[] {
  const { chainId, scheduleId, paymentId, now } = ids;
  switch (step.kind) {
    case 'none':
    case 'wait':
      return [];
    case 'charge':
      return [{ type: 'ScheduledPaymentStarted', data: { chainId, scheduleId, sequence: step.sequence, dueDate: step.dueDate, paymentId, startedAt: now } }];
    case 'skip':
      return [
        { type: 'ScheduledPaymentSkipped', data: { chainId, scheduleId, sequence: step.sequence, dueDate: step.dueDate, reason: step.reason, skippedAt: now } },
      ];
    case 'end':
      return [{ type: 'ScheduledChainEnded', data: { chainId, scheduleId, reason: step.reason, endedAt: now } }];
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}
