/** Commands on one callback delivery. Time, ids and HTTP outcomes arrive as data. */

export interface ScheduleCallback {
  type: 'ScheduleCallback';
  data: {
    deliveryId: string;
    paymentId: string;
    merchantId: string;
    sourceEventId: string;
    sourceEventType: string;
    url: string;
    contentType: string;
    body: string;
    now: string;
    /** Claim the first attempt in the same append (the sender goes right away), unless the URL is blocked. */
    startNow: boolean;
    leaseMs: number;
  };
}

export interface StartCallbackAttempt {
  type: 'StartCallbackAttempt';
  data: { now: string; leaseMs: number; retryScheduleMs: readonly number[] };
}

export interface RecordCallbackResult {
  type: 'RecordCallbackResult';
  data: {
    attempt: number;
    statusCode: number | null;
    latencyMs: number | null;
    error: string | null;
    timedOut: boolean;
    now: string;
    retryScheduleMs: readonly number[];
  };
}

export interface RequestRedelivery {
  type: 'RequestRedelivery';
  data: { now: string; requestedBy: string };
}

export type CallbackCommand = ScheduleCallback | StartCallbackAttempt | RecordCallbackResult | RequestRedelivery;
