/**
 * Callback deliveries as the read model holds them: due work for notifiers, listings for operators.
 * The records keep the read model's column names: the admin API and the CLI show them as they are.
 */

export interface CallbackDeliveryRecord {
  delivery_id: string;
  payment_id: string;
  merchant_id: string;
  source_event_type: string;
  url: string;
  /** pending | in_flight | delivered | failed */
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  scheduled_at: string;
  delivered_at: string | null;
  updated_at: string;
}

export interface CallbackAttemptRecord {
  delivery_id: string;
  attempt: number;
  url: string;
  started_at: string | null;
  finished_at: string | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  /** 0 or 1 */
  timed_out: number;
  /** success | failure | in_flight */
  outcome: string;
}

export interface ListDeliveriesFilter {
  paymentId?: string;
  merchantId?: string;
  /** Only deliveries that failed for good or whose last attempt failed. */
  failed?: boolean;
  /** 1..1000, default 100. */
  limit?: number;
}

/** A timed-out attempt: which one (timeouts may end at the same instant) and when it ended (ISO). */
export interface TimedOutAttempt {
  delivery_id: string;
  attempt: number;
  finished_at: string;
}

/** What a notifier reads: work that is due, and how a URL has been timing out. */
export interface DueCallbackDeliveries {
  /** Deliveries whose next attempt is due, and attempts whose sender vanished (lease run out). */
  due(nowIso: string, limit: number): Promise<Array<{ delivery_id: string; url: string }>>;
  /** The URL's timed-out attempts that ended since `sinceIso`. */
  timeoutsSince(url: string, sinceIso: string): Promise<TimedOutAttempt[]>;
}

export interface CallbackDeliveriesReadModel extends DueCallbackDeliveries {
  /** Newest first. */
  list(filter?: ListDeliveriesFilter): Promise<CallbackDeliveryRecord[]>;
  /** The delivery, the exact body it sends, and its attempts in order. */
  byId(deliveryId: string): Promise<{ delivery: CallbackDeliveryRecord; body: string; attempts: CallbackAttemptRecord[] } | undefined>;
}
