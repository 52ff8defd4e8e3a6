import { DomainError } from '../errors';
import type { StartCallbackAttempt } from './commands';
import type { CallbackEvent } from './events';
import { failure, plus } from './attempt-failure';
import type { DeliveryState } from './state';

export function decideStartAttempt(command: StartCallbackAttempt, state: DeliveryState): CallbackEvent[] {
  if (!state.exists) throw new DomainError('callback_not_found', 'No such callback delivery');
  const { now, leaseMs, retryScheduleMs } = command.data;
  const start = (attempt: number): CallbackEvent => ({
    type: 'CallbackAttemptStarted',
    data: { deliveryId: state.deliveryId, attempt, startedAt: now, leaseUntil: plus(now, leaseMs) },
  });
  if (state.status === 'pending') {
    if (state.nextAttemptAt === null || state.nextAttemptAt > now) {
      throw new DomainError('callback_not_due', `Next attempt is due at ${state.nextAttemptAt}`);
    }
    return [start(state.attempts + 1)];
  }
  if (state.status === 'in_flight' && state.leaseUntil !== null && state.leaseUntil <= now) {
    // The sender died mid-attempt (crash, restart): nobody knows what the merchant got, so the
    // attempt is recorded as interrupted and the callback goes again under the same delivery id.
    const interrupted = failure(
      state,
      {
        attempt: state.attempts,
        statusCode: null,
        latencyMs: null,
        error: 'interrupted: no outcome was recorded before the attempt lease ran out',
        timedOut: false,
      },
      now,
      retryScheduleMs,
    );
    if (interrupted.length > 1) return interrupted;
    return [{ ...interrupted[0], data: { ...interrupted[0].data, nextAttemptAt: now } } as CallbackEvent, start(state.attempts + 1)];
  }
  if (state.status === 'in_flight') throw new DomainError('callback_in_flight', 'An attempt is in progress');
  throw new DomainError('callback_not_due', `The delivery is ${state.status}`);
}
