/**
 * One row per operation on a payment: the initial SALE or authorization (keyed by the payment id,
 * since it has no operation id of its own), then captures, voids, refunds and reversals keyed by
 * their operation ids. Payment-level facts (merchant, order, currency) come from the initial row of
 * this same table, so the projection never depends on how far another projection has got.
 */
import type { Insertable, Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import { asPaymentEvent, isPaymentEvent } from '../payment-events';
import type { OperationStatus, OperationType, TransactionsTable, TransactionsTables } from './tables';

type OperationRow = Insertable<TransactionsTable>;

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
  const changed = new Set<string>();

  const update = (operationId: string, changes: Partial<OperationRow>): void => {
    const row = rows.get(operationId);
    if (!row) return;
    rows.set(operationId, { ...row, ...changes });
    changed.add(operationId);
  };

  /** Updates an operation row, creating it from the payment's initial row when it is new. */
  const upsertOperation = (
    event: StoredEvent,
    operationId: string,
    type: OperationType,
    status: OperationStatus,
    amount: number,
    reason: string | null,
    at: string,
  ): void => {
    const existing = rows.get(operationId);
    if (existing) {
      update(operationId, { status, amount, reason, updated_at: at });
      return;
    }
    const paymentId = String(event.data.paymentId);
    const initial = rows.get(paymentId);
    if (!initial) return; // an operation on a payment never initiated: nothing to attach it to
    rows.set(operationId, {
      operation_id: operationId,
      payment_id: paymentId,
      merchant_id: initial.merchant_id,
      order_id: initial.order_id,
      type,
      status,
      amount,
      currency: initial.currency,
      reason,
      payer_action: null,
      created_at: at,
      updated_at: at,
      created_position: event.position,
    });
    changed.add(operationId);
  };

  for (const stored of relevant) {
    const event = asPaymentEvent(stored);
    switch (event.type) {
      case 'PaymentInitiated': {
        const d = event.data;
        if (rows.has(d.paymentId)) break; // replayed duplicate: the row already tells more
        rows.set(d.paymentId, {
          operation_id: d.paymentId,
          payment_id: d.paymentId,
          merchant_id: d.merchantId,
          order_id: d.orderId,
          type: d.kind,
          status: 'pending',
          amount: d.amount,
          currency: d.currency,
          reason: null,
          payer_action: null,
          created_at: d.initiatedAt,
          updated_at: d.initiatedAt,
          created_position: stored.position,
        });
        changed.add(d.paymentId);
        break;
      }
      case 'PaymentSettled':
        update(event.data.paymentId, { status: 'success', amount: event.data.amount, reason: null, updated_at: event.data.settledAt });
        break;
      case 'PaymentAuthorized':
        update(event.data.paymentId, { status: 'success', amount: event.data.amount, reason: null, updated_at: event.data.authorizedAt });
        break;
      case 'PaymentDeclined':
        update(event.data.paymentId, { status: 'declined', reason: event.data.reason, updated_at: event.data.declinedAt });
        break;
      case 'ThreeDSChallengeRequired':
        update(event.data.paymentId, { status: 'pending', payer_action: '3ds', updated_at: event.data.requiredAt });
        break;
      case 'PayerRedirectRequired':
        update(event.data.paymentId, { status: 'pending', payer_action: event.data.display === 'qr' ? 'qr' : 'redirect', updated_at: event.data.requiredAt });
        break;
      case 'PaymentPending':
        // The provider accepted the payment; the payer confirms with it elsewhere.
        update(event.data.paymentId, { status: 'pending', payer_action: 'provider', updated_at: event.data.pendingAt });
        break;
      case 'PaymentOutcomeUnknown':
        // The detail is what reconciliation needs to find the payment at the acquirer.
        update(event.data.paymentId, { status: 'unknown', reason: event.data.detail, updated_at: event.data.at });
        break;
      case 'CaptureRequested': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'capture', 'pending', d.amount, null, d.requestedAt);
        break;
      }
      case 'CaptureSucceeded': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'capture', 'success', d.amount, null, d.capturedAt);
        break;
      }
      case 'CaptureDeclined': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'capture', 'declined', d.amount, d.reason, d.declinedAt);
        break;
      }
      case 'VoidRequested': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'void', 'pending', d.amount, null, d.requestedAt);
        break;
      }
      case 'VoidDeclined': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'void', 'declined', d.amount, d.reason, d.declinedAt);
        break;
      }
      case 'PaymentVoided': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'void', 'success', d.amount, null, d.voidedAt);
        break;
      }
      case 'CreditVoidRequested': {
        const d = event.data;
        upsertOperation(stored, d.operationId, d.kind, 'pending', d.amount, null, d.requestedAt);
        break;
      }
      case 'RefundSucceeded': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'refund', 'success', d.amount, null, d.refundedAt);
        break;
      }
      case 'RefundDeclined': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'refund', 'declined', d.amount, d.reason, d.declinedAt);
        break;
      }
      case 'AuthorizationReversed': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'reversal', 'success', d.amount, null, d.reversedAt);
        break;
      }
      case 'ReversalDeclined': {
        const d = event.data;
        upsertOperation(stored, d.operationId, 'reversal', 'declined', d.amount, d.reason, d.declinedAt);
        break;
      }
      case 'PaymentCascaded':
        // An attempt at one connector, not an operation of the merchant's: the payment goes on.
        break;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  }

  await upsertRows(
    trx,
    UPSERT,
    [...changed].map((id) => rows.get(id)!),
  );
}
