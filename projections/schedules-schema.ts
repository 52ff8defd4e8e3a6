/**
 * Read models of schedules and their chains. `scheduled_chains` is also the scheduler's to-do list:
 * open chains by `next_due_date`. It only points the scheduler at candidates; the scheduler decides
 * from the streams, so a row a moment behind costs at most a wasted look.
 */
import type { Kysely } from 'kysely';
import type { ReadModelDatabase } from './schema';

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

export async function createScheduleTables(db: Kysely<ReadModelDatabase>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .ifNotExists()
    .addColumn('schedule_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('interval_length', 'integer', (c) => c.notNull())
    .addColumn('interval_unit', 'text', (c) => c.notNull())
    .addColumn('payments_count', 'integer', (c) => c.notNull())
    .addColumn('delayed_first_payment', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('detached_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scheduled_chains')
    .ifNotExists()
    .addColumn('chain_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('schedule_id', 'text', (c) => c.notNull())
    .addColumn('init_payment_id', 'text', (c) => c.notNull())
    .addColumn('first_due_date', 'text', (c) => c.notNull())
    .addColumn('anchor_day', 'integer', (c) => c.notNull())
    .addColumn('next_sequence', 'integer', (c) => c.notNull())
    .addColumn('next_due_date', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('end_reason', 'text')
    .addColumn('payments_started', 'integer', (c) => c.notNull())
    .addColumn('payments_skipped', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scheduled_chains_due_idx').ifNotExists().on('scheduled_chains').columns(['status', 'next_due_date']).execute();
  await db.schema.createIndex('scheduled_chains_schedule_idx').ifNotExists().on('scheduled_chains').columns(['schedule_id']).execute();
}
