/**
 * Read models of schedules and their chains. `scheduled_chains` is also the scheduler's to-do list:
 * open chains by `next_due_date`. It only points the scheduler at candidates; the scheduler decides
 * from the streams, so a row a moment behind costs at most a wasted look.
 */
export interface SchedulesTable {
  schedule_id: string;
  merchant_id: string;
  name: string;
  interval_length: number;
  interval_unit: string;
  payments_count: number;
  /** JSON of the DelayedFirstPayment. */
  delayed_first_payment: string;
  /** active, paused or deleted. */
  status: string;
  /** Latest deschedule of every chain, or null. */
  detached_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ScheduledChainsTable {
  /** The payment that started the chain's schedule. */
  chain_id: string;
  merchant_id: string;
  schedule_id: string;
  init_payment_id: string;
  first_due_date: string;
  anchor_day: number;
  /** Number of the next due date to charge or skip. */
  next_sequence: number;
  /** When the scheduler should look next (YYYY-MM-DD); null once ended. */
  next_due_date: string | null;
  /** open or ended. */
  status: string;
  end_reason: string | null;
  payments_started: number;
  payments_skipped: number;
  started_at: string;
  updated_at: string;
}

export interface ScheduleTables {
  schedules: SchedulesTable;
  scheduled_chains: ScheduledChainsTable;
}
