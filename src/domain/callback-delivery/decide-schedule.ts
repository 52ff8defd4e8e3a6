import type { ScheduleCallback } from './commands';
import type { CallbackEvent } from './events';
import { plus } from './attempt-failure';
import type { DeliveryState } from './state';

export function decideSchedule(command: ScheduleCallback, state: DeliveryState): CallbackEvent[] {
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
