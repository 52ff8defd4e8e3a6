/**
 * Events of one scheduled chain (`scheduled-chain-<payment id>`): the automatic payments of a
 * schedule that one payment started (a chain's initial payment, or a Checkout recurring request
 * with `schedule_id`). Each automatic payment is claimed here, at the version the scheduler read,
 * in the same transaction as the payment's own first event: two schedulers, or one restarted after
 * a crash, can never charge the same due date twice.
 */
export const CHAIN_EVENT_SCHEMA_VERSION = 1;

export interface ScheduledPaymentStarted {
  type: 'ScheduledPaymentStarted';
  data: { chainId: string; scheduleId: string; sequence: number; dueDate: string; paymentId: string; startedAt: string };
}

/**
 * `schedule_paused`: due while the schedule was paused. `schedule_changed`: an update of the
 * interval put the date at or before one the chain already passed; such dates are not charged.
 */
export type SkipReason = 'schedule_paused' | 'schedule_changed';

/** A due date passed without a charge, and why: kept so the chain's history explains every date. */
export interface ScheduledPaymentSkipped {
  type: 'ScheduledPaymentSkipped';
  data: { chainId: string; scheduleId: string; sequence: number; dueDate: string; reason: SkipReason; skippedAt: string };
}

export type ChainEndReason = 'completed' | 'descheduled' | 'schedule_deleted' | 'initial_payment_failed';

export interface ScheduledChainEnded {
  type: 'ScheduledChainEnded';
  data: { chainId: string; scheduleId: string; reason: ChainEndReason; endedAt: string };
}

export type ChainEvent = ScheduledPaymentStarted | ScheduledPaymentSkipped | ScheduledChainEnded;

export const CHAIN_EVENT_TYPES: readonly ChainEvent['type'][] = ['ScheduledPaymentStarted', 'ScheduledPaymentSkipped', 'ScheduledChainEnded'];

export const chainStreamId = (chainId: string): string => `scheduled-chain-${chainId}`;
