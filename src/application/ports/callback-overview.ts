/** Callbacks as operators and monitoring look at them: what is still to be delivered, and where it fails. */

export interface CallbackBacklog {
  /** Waiting for their next attempt (due now or later). */
  pending: number;
  /** Pending and due by now: the notifiers' immediate work. */
  due: number;
  inFlight: number;
}

export interface FailingUrl {
  url: string;
  merchantIds: string[];
  /** Deliveries to it that failed for good. */
  failed: number;
  /** Deliveries to it whose last attempt failed and that will be tried again. */
  retrying: number;
  lastError: string | null;
  lastStatusCode: number | null;
  lastFailureAt: string;
}

export interface CallbackOverview {
  backlog(nowIso: string): Promise<CallbackBacklog>;
  /** URLs with failed or retrying deliveries, the most recently failing first. */
  failingUrls(limit: number): Promise<FailingUrl[]>;
}
