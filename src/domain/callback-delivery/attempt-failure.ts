/** What a failed attempt leads to: a retry at the schedule's next step, or the end of the delivery. */
import type { CallbackAttemptFailed, CallbackEvent } from './events';
import type { ExistingDelivery } from './state';

export const plus = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

export type AttemptOutcome = Omit<CallbackAttemptFailed['data'], 'deliveryId' | 'nextAttemptAt' | 'failedAt'>;

/** A failed attempt, and the end of the delivery when the retry schedule is used up. */
export function failure(state: ExistingDelivery, outcome: AttemptOutcome, now: string, schedule: readonly number[]): CallbackEvent[] {
  const retryIndex = state.failuresInRound;
  const nextAttemptAt = retryIndex < schedule.length ? plus(now, schedule[retryIndex]) : null;
  const failed: CallbackEvent = {
    type: 'CallbackAttemptFailed',
    data: { deliveryId: state.deliveryId, ...outcome, failedAt: now, nextAttemptAt },
  };
  if (nextAttemptAt !== null) return [failed];
  return [failed, { type: 'CallbackFailed', data: { deliveryId: state.deliveryId, attempts: state.attempts, failedAt: now } }];
}
