import { DomainError } from '../errors';
import type { RecordCallbackResult } from './commands';
import type { CallbackEvent } from './events';
import { failure } from './attempt-failure';
import type { DeliveryState } from './state';

export const isSuccessStatus = (statusCode: number | null): boolean =>
  statusCode !== null && statusCode >= 200 && statusCode <= 299;

export function decideRecordResult(command: RecordCallbackResult, state: DeliveryState): CallbackEvent[] {
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
