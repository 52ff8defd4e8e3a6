import type { CallbackEvent } from './events';

export type DeliveryStatus = 'pending' | 'in_flight' | 'delivered' | 'failed';

export interface ExistingDelivery {
  exists: true;
  deliveryId: string;
  paymentId: string;
  merchantId: string;
  sourceEventType: string;
  url: string;
  contentType: string;
  body: string;
  status: DeliveryStatus;
  /** Attempts made so far (an interrupted one counts). */
  attempts: number;
  /** Failures since the delivery was scheduled or last redelivered: the index into the retry schedule. */
  failuresInRound: number;
  nextAttemptAt: string | null;
  leaseUntil: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  scheduledAt: string;
  deliveredAt: string | null;
  updatedAt: string;
}

export type DeliveryState = { exists: false } | ExistingDelivery;

export const initialDeliveryState = (): DeliveryState => ({ exists: false });

export function evolveDelivery(state: DeliveryState, event: CallbackEvent): DeliveryState {
  if (event.type === 'CallbackScheduled') {
    const d = event.data;
    return {
      exists: true,
      deliveryId: d.deliveryId,
      paymentId: d.paymentId,
      merchantId: d.merchantId,
      sourceEventType: d.sourceEventType,
      url: d.url,
      contentType: d.contentType,
      body: d.body,
      status: 'pending',
      attempts: 0,
      failuresInRound: 0,
      nextAttemptAt: d.scheduledAt,
      leaseUntil: null,
      lastStatusCode: null,
      lastError: null,
      scheduledAt: d.scheduledAt,
      deliveredAt: null,
      updatedAt: d.scheduledAt,
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'CallbackAttemptStarted':
      return {
        ...state,
        status: 'in_flight',
        attempts: event.data.attempt,
        leaseUntil: event.data.leaseUntil,
        nextAttemptAt: null,
        updatedAt: event.data.startedAt,
      };
    case 'CallbackAttemptFailed':
      return {
        ...state,
        // A late failure of an attempt that a newer one replaced changes nothing but the record.
        ...(state.status === 'in_flight' && event.data.attempt === state.attempts
          ? {
              status: 'pending' as const,
              nextAttemptAt: event.data.nextAttemptAt,
              leaseUntil: null,
              failuresInRound: state.failuresInRound + 1,
            }
          : {}),
        lastStatusCode: event.data.statusCode,
        lastError: event.data.error,
        updatedAt: event.data.failedAt,
      };
    case 'CallbackDelivered':
      return {
        ...state,
        status: 'delivered',
        nextAttemptAt: null,
        leaseUntil: null,
        lastStatusCode: event.data.statusCode,
        lastError: null,
        deliveredAt: event.data.deliveredAt,
        updatedAt: event.data.deliveredAt,
      };
    case 'CallbackFailed':
      return { ...state, status: 'failed', nextAttemptAt: null, leaseUntil: null, updatedAt: event.data.failedAt };
    case 'CallbackRedeliveryRequested':
      // A fresh round: the whole retry schedule is available again.
      return {
        ...state,
        status: 'pending',
        nextAttemptAt: event.data.requestedAt,
        leaseUntil: null,
        failuresInRound: 0,
        updatedAt: event.data.requestedAt,
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
