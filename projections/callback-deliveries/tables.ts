/**
 * Tables of the callback-deliveries read model: one row per delivery (what operators list and what
 * notifiers scan for due work) and one per attempt (status code, latency, error).
 */
import type { PositionColumn } from '../columns';

export interface CallbackDeliveriesTable {
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
  scheduled_position: PositionColumn;
  /** JSON of the folded delivery state (includes the body), so batches fold on without the stream. */
  state: string;
}

export interface CallbackAttemptsTable {
  delivery_id: string;
  attempt: number;
  url: string;
  started_at: string | null;
  finished_at: string | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  timed_out: number;
  /** success | failure | in_flight */
  outcome: string;
}

/** The columns of a delivery row that say where it stands (all but its position and folded state). */
export const DELIVERY_FACT_COLUMNS = [
  'payment_id',
  'merchant_id',
  'source_event_type',
  'url',
  'status',
  'attempts',
  'next_attempt_at',
  'lease_until',
  'last_status_code',
  'last_error',
  'scheduled_at',
  'delivered_at',
  'updated_at',
] as const satisfies readonly (keyof CallbackDeliveriesTable)[];

export interface CallbackDeliveriesTables {
  callback_deliveries: CallbackDeliveriesTable;
  callback_attempts: CallbackAttemptsTable;
}
