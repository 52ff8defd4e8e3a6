/**
 * Tables of the read models. Every column type is chosen to behave the same on SQLite and
 * PostgreSQL: JSON is stored as text, booleans as 0/1 integers, timestamps as the ISO-8601 strings
 * the events carry (they sort lexically), amounts as 64-bit integers of minor units.
 *
 * `*_position` columns hold global event positions for a stable newest-first order when timestamps
 * tie. They are written as bigint so the database compares them exactly, and are never read back
 * into JavaScript, where a position beyond 2^53 would lose precision.
 */
import type { ColumnType } from 'kysely';
import type { LedgerTables } from './ledger-schema';
import type { CallbackAttemptsTable, CallbackDeliveriesTable } from './callback-deliveries-schema';
import type { ScheduleTables } from './schedules-schema';

/** Written exactly as a bigint, only ever compared inside SQL. */
export type PositionColumn = ColumnType<never, bigint, bigint>;

export type OperationType = 'sale' | 'authorization' | 'debit' | 'credit' | '3ds' | 'redirect' | 'capture' | 'void' | 'refund' | 'reversal';
export type OperationStatus = 'success' | 'declined' | 'pending' | 'unknown';

export interface PaymentsTable {
  payment_id: string;
  merchant_id: string;
  order_id: string;
  channel: string;
  kind: string;
  status: string;
  phase: string;
  currency: string;
  amount: number;
  amount_text: string;
  held_amount: number;
  settled_amount: number;
  refunded_amount: number;
  reversed_amount: number;
  descriptor: string | null;
  decline_reason: string | null;
  card_mask: string;
  card_brand: string;
  card_exp_month: string;
  card_exp_year: string;
  card_token: string | null;
  payer_email: string | null;
  term_url_3ds: string | null;
  notification_url: string | null;
  redirect_url: string | null;
  /** JSON object of the form fields the payer's browser posts, or null. */
  redirect_params: string | null;
  initiated_at: string;
  updated_at: string;
  initiated_position: PositionColumn;
  stream_version: number;
  /** JSON of the full folded PaymentState, so batches keep folding without reading the stream. */
  state: string;
}

export interface TransactionsTable {
  operation_id: string;
  payment_id: string;
  merchant_id: string;
  order_id: string;
  type: OperationType;
  status: OperationStatus;
  amount: number;
  currency: string;
  reason: string | null;
  /** '3ds' or 'redirect' while (or after) the payer had to act on the initial operation. */
  payer_action: string | null;
  created_at: string;
  updated_at: string;
  created_position: PositionColumn;
}

export interface MerchantsTable {
  merchant_id: string;
  name: string;
  environment: string;
  client_key: string;
  merchant_key: string;
  password_ciphertext: string;
  payment_mode: string;
  notification_url: string | null;
  /** JSON array of CIDR blocks. */
  ip_allowlist: string;
  refunds_enabled: number;
  /** JSON of the merchant's ProtocolMapping; null in rows written before the column existed (all off). */
  protocol_mapping: string | null;
  /** Override Link Target (`_blank`, `_self`, `_parent`, `_top`); null when unset or in rows from before the column. */
  override_link_target: string | null;
  /** card_on_file_support, 0/1; null in rows from before the column (off). */
  card_on_file_support: number | null;
  registered_at: string;
  updated_at: string;
}

export interface ProjectionCheckpointsTable {
  name: string;
  /** Decimal text of the last applied global position (text keeps any bigint exact); null before the first. */
  position: string | null;
  updated_at: string;
}

export interface ReadModelDatabase {
  payments: PaymentsTable;
  transactions: TransactionsTable;
  merchants: MerchantsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  ledger_postings: LedgerTables['ledger_postings'];
  ledger_payments: LedgerTables['ledger_payments'];
  v_daily_volume: LedgerTables['v_daily_volume'];
  v_approval_rate: LedgerTables['v_approval_rate'];
  v_approval_rate_daily: LedgerTables['v_approval_rate_daily'];
  v_refund_rate: LedgerTables['v_refund_rate'];
  callback_deliveries: CallbackDeliveriesTable;
  callback_attempts: CallbackAttemptsTable;
  schedules: ScheduleTables['schedules'];
  scheduled_chains: ScheduleTables['scheduled_chains'];
}
