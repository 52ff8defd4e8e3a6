/**
 * Tables of the callback-deliveries read model: one row per delivery (what operators list and what
 * notifiers scan for due work) and one per attempt (status code, latency, error).
 */
import type { Kysely } from 'kysely';
import type { PositionColumn } from './schema';

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

export async function createCallbackTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('callback_deliveries')
    .ifNotExists()
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('source_event_type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('scheduled_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('scheduled_position', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('callback_deliveries_due_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('callback_deliveries_payment_idx')
    .ifNotExists()
    .on('callback_deliveries')
    .columns(['payment_id', 'scheduled_position'])
    .execute();
  await db.schema
    .createTable('callback_attempts')
    .ifNotExists()
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('timed_out', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('callback_attempts_pk', ['delivery_id', 'attempt'])
    .execute();
  await db.schema
    .createIndex('callback_attempts_url_timeouts_idx')
    .ifNotExists()
    .on('callback_attempts')
    .columns(['url', 'timed_out', 'finished_at'])
    .execute();
}
