/**
 * What each export source holds: its table, its columns in order with their types (for Parquet),
 * and the order of its rows. The payments export leaves out what is not the auditor's to hold: card
 * vault tokens, the payer's email, the 3-D Secure redirect parameters and the folded state.
 */
import type { ExportColumn, ExportColumnType } from '../adapters/audit/parquet-table';

export interface ExportSource {
  table: string;
  projection: string;
  columns: readonly ExportColumn[];
  orderBy: readonly string[];
}

const typed = (type: ExportColumnType, ...names: string[]): ExportColumn[] => names.map((name) => ({ name, type }));

export const EXPORT_SOURCES = {
  ledger: {
    table: 'ledger_postings',
    projection: 'ledger',
    columns: [
      ...typed('text', 'posting_set_id'),
      ...typed('integer', 'line'),
      ...typed('text', 'merchant_id', 'currency', 'account'),
      ...typed('bigint', 'amount'),
      ...typed('text', 'payment_id', 'operation_id', 'event_type'),
      ...typed('bigint', 'event_position'),
    ],
    orderBy: ['event_position', 'posting_set_id', 'line'],
  },
  payments: {
    table: 'payments',
    projection: 'payments',
    columns: [
      ...typed('text', 'payment_id', 'merchant_id', 'order_id', 'channel', 'kind', 'status', 'phase', 'currency'),
      ...typed('bigint', 'amount'),
      ...typed('text', 'amount_text'),
      ...typed('bigint', 'held_amount', 'settled_amount', 'refunded_amount', 'reversed_amount'),
      ...typed('text', 'descriptor', 'decline_reason', 'card_mask', 'card_brand', 'initiated_at', 'updated_at'),
      ...typed('bigint', 'initiated_position', 'stream_version'),
    ],
    orderBy: ['initiated_position', 'payment_id'],
  },
} satisfies Record<string, ExportSource>;

export type ExportSourceName = keyof typeof EXPORT_SOURCES;

export const EXPORT_FORMATS = ['csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
