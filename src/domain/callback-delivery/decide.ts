/**
 * The delivery decider: when a callback may be sent, what an HTTP outcome means, when it is tried
 * again and when it has failed for good. Pure: the notifier supplies the time and the outcome.
 */
import { DomainError } from '../errors';
import type { CallbackCommand } from './commands';
import type { CallbackAttemptFailed, CallbackEvent } from './events';
import type { DeliveryState, ExistingDelivery } from './state';

export const isSuccessStatus = (statusCode: number | null): boolean =>
  statusCode !== null && statusCode >= 200 && statusCode <= 299;

const plus = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

/** A failed attempt, and the end of the delivery when the retry schedule is used up. */
function failure(
  state: ExistingDelivery,
  outcome: Omit<CallbackAttemptFailed['data'], 'deliveryId' | 'nextAttemptAt' | 'failedAt'>,
  now: string,
  schedule: readonly number[],
): CallbackEvent[] {
  const retryIndex = state.failuresInRound;
  const nextAttemptAt = retryIndex < schedule.length ? plus(now, schedule[retryIndex]) : null;
  const failed: CallbackEvent = {
    type: 'CallbackAttemptFailed',
    data: { deliveryId: state.deliveryId, ...outcome, failedAt: now, nextAttemptAt },
  };
  if (nextAttemptAt !== null) return [failed];
  return [failed, { type: 'CallbackFailed', data: { deliveryId: state.deliveryId, attempts: state.attempts, failedAt: now } }];
}

export function decideCallback(command: CallbackCommand, state: DeliveryState): CallbackEvent[] {
  switch (command.type) {
    case 'ScheduleCallback': {
      // Every notifier that sees the payment event tries to schedule it; the first one wins.
      if (state.exists) return [];
      const d = command.data;
      const scheduled: CallbackEvent = {
        type: 'CallbackScheduled',
        data: {
          deliveryId: d.deliveryId,
          paymentId: d.paymentId,
          merchantId: d.merchantId,
          sourceEventId: d.sourceEventId,
          sourceEventType: d.sourceEventType,
          url: d.url,
          contentType: d.contentType,
          body: d.body,
          scheduledAt: d.now,
        },
      };
      if (!d.startNow) return [scheduled];
      return [
        scheduled,
        { type: 'CallbackAttemptStarted', data: { deliveryId: d.deliveryId, attempt: 1, startedAt: d.now, leaseUntil: plus(d.now, d.leaseMs) } },
      ];
    }
    case 'StartCallbackAttempt': {
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
    case 'RecordCallbackResult': {
      if (!state.exists) throw new DomainError('callback_not_found', 'No such callback delivery');
      const d = command.data;
      const current = state.status === 'in_flight' && d.attempt === state.attempts;
      if (isSuccessStatus(d.statusCode)) {
        // A late 2xx from a replaced attempt still means the merchant has the callback.
        if (!current && state.status === 'delivered') return [];
        return [
          {
            type: 'CallbackDelivered',
            data: { deliveryId: state.deliveryId, attempt: d.attempt, statusCode: d.statusCode!, latencyMs: d.latencyMs ?? 0, deliveredAt: d.now },
          },
        ];
      }
      const outcome = { attempt: d.attempt, statusCode: d.statusCode, latencyMs: d.latencyMs, error: d.error, timedOut: d.timedOut };
      if (!current) {
        // Recorded for the auditor; the attempt that replaced it decides what happens next.
        return [{ type: 'CallbackAttemptFailed', data: { deliveryId: state.deliveryId, ...outcome, failedAt: d.now, nextAttemptAt: null } }];
      }
      return failure(state, outcome, d.now, d.retryScheduleMs);
    }
    case 'RequestRedelivery': {
      if (!state.exists) throw new DomainError('callback_not_found', 'No such callback delivery');
      if (state.status === 'in_flight') {
        throw new DomainError('callback_in_flight', 'An attempt is in progress; ask again when it has finished');
      }
      return [
        {
          type: 'CallbackRedeliveryRequested',
          data: { deliveryId: state.deliveryId, requestedBy: command.data.requestedBy, requestedAt: command.data.now },
        },
      ];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
