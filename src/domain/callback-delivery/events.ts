/**
 * Events of one callback delivery (stream `callback-<delivery id>`): what the merchant was told,
 * where, and what happened on each attempt. The body is kept byte for byte, so an auditor sees
 * exactly what was sent, and every retry sends the same bytes under the same delivery id.
 */

export const CALLBACK_EVENT_SCHEMA_VERSION = 1;

export interface CallbackScheduled {
  type: 'CallbackScheduled';
  data: {
    deliveryId: string;
    paymentId: string;
    merchantId: string;
    /** The payment event this callback reports. */
    sourceEventId: string;
    sourceEventType: string;
    url: string;
    contentType: string;
    body: string;
    scheduledAt: string;
  };
}

/** Claims the next attempt: whoever appends it (expecting the version it read) is the one sender. */
export interface CallbackAttemptStarted {
  type: 'CallbackAttemptStarted';
  data: { deliveryId: string; attempt: number; startedAt: string; leaseUntil: string };
}

export interface CallbackAttemptFailed {
  type: 'CallbackAttemptFailed';
  data: {
    deliveryId: string;
    attempt: number;
    /** HTTP status of the merchant's answer, or null when there was none. */
    statusCode: number | null;
    latencyMs: number | null;
    error: string | null;
    timedOut: boolean;
    failedAt: string;
    /** When the next attempt is due; null when this was the last one (CallbackFailed follows). */
    nextAttemptAt: string | null;
  };
}

export interface CallbackDelivered {
  type: 'CallbackDelivered';
  data: { deliveryId: string; attempt: number; statusCode: number; latencyMs: number; deliveredAt: string };
}

/** Failed for good: every attempt of the retry schedule was used. */
export interface CallbackFailed {
  type: 'CallbackFailed';
  data: { deliveryId: string; attempts: number; failedAt: string };
}

export interface CallbackRedeliveryRequested {
  type: 'CallbackRedeliveryRequested';
  data: { deliveryId: string; requestedBy: string; requestedAt: string };
}

export type CallbackEvent =
  | CallbackScheduled
  | CallbackAttemptStarted
  | CallbackAttemptFailed
  | CallbackDelivered
  | CallbackFailed
  | CallbackRedeliveryRequested;

export const CALLBACK_EVENT_TYPES: readonly CallbackEvent['type'][] = [
  'CallbackScheduled',
  'CallbackAttemptStarted',
  'CallbackAttemptFailed',
  'CallbackDelivered',
  'CallbackFailed',
  'CallbackRedeliveryRequested',
];

export const callbackStreamId = (deliveryId: string): string => `callback-${deliveryId}`;
