/**
 * One row per operation on a payment: the initial SALE or authorization (keyed by the payment id,
 * since it has no operation id of its own), then captures, voids, refunds and reversals keyed by
 * their operation ids. Payment-level facts (merchant, order, currency) come from the initial row of
 * this same table, so the projection never depends on how far another projection has got.
 */
import type { Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import { asPaymentEvent, isPaymentEvent } from '../payment-events';
import { applyPaymentEvent } from './apply-events';
import { OperationRows, type OperationRow } from './operation-rows';
import type { TransactionsTable, TransactionsTables } from './tables';

const UPDATABLE_COLUMNS = [
  'payment_id',
  'merchant_id',
  'order_id',
  'type',
  'status',
  'amount',
  'currency',
  'reason',
  'payer_action',
  'updated_at',
] as const satisfies readonly (keyof TransactionsTable)[];

// operation_id, created_at and created_position are only written on insert.
const UPSERT: UpsertSpec<TransactionsTables, 'transactions'> = {
  table: 'transactions',
  columns: ['operation_id', ...UPDATABLE_COLUMNS, 'created_at', 'created_position'],
  key: ['operation_id'],
  update: UPDATABLE_COLUMNS,
};

/** Every column a reader gets back (created_position only orders rows inside SQL). */
export const OPERATION_COLUMNS = ['operation_id', ...UPDATABLE_COLUMNS, 'created_at'] as const;

/** Operation ids an event touches, so one select can load them all up front. */
function touchedOperationIds(event: StoredEvent): string[] {
  const paymentId = String(event.data.paymentId);
  const operationId = event.data.operationId;
  // The initial row is always loaded too: it carries merchant, order and currency for new rows.
  return typeof operationId === 'string' ? [paymentId, operationId] : [paymentId];
}

/** Creates and updates the rows of the operations the batch's payment events touch. */
export async function applyToTransactions(trx: Transaction<TransactionsTables>, events: StoredEvent[]): Promise<void> {
  const relevant = events.filter(isPaymentEvent);
  if (relevant.length === 0) return;

  const ids = [...new Set(relevant.flatMap(touchedOperationIds))];
  const rows = new Map<string, OperationRow>();
  for (const part of chunked(ids, 5_000)) {
    const existing = await trx
      .selectFrom('transactions')
      .select(OPERATION_COLUMNS)
      .where('operation_id', 'in', part)
      .execute();
    // created_position is only used by inserts, which never hit a row loaded here.
    for (const row of existing) rows.set(row.operation_id, { ...row, amount: Number(row.amount), created_position: 0n });
  }
  const operations = new OperationRows(rows);
  for (const stored of relevant) applyPaymentEvent(operations, asPaymentEvent(stored), stored);
  await upsertRows(trx, UPSERT, operations.changedRows());
}
