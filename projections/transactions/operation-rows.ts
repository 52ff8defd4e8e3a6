/** The operation rows one batch works on: those loaded up front, those its events create, and which changed. */
import type { Insertable } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import type { OperationStatus, OperationType, TransactionsTable } from './tables';

export type OperationRow = Insertable<TransactionsTable>;

/** A follow-up operation as one event states it. */
export interface OperationChange {
  type: OperationType;
  status: OperationStatus;
  amount: number;
  reason: string | null;
  at: string;
}

export class OperationRows {
  private readonly changed = new Set<string>();

  constructor(private readonly rows: Map<string, OperationRow>) {}

  has(operationId: string): boolean {
    return this.rows.has(operationId);
  }

  /** A row the batch creates: the initial one of a payment. */
  add(row: OperationRow): void {
    this.rows.set(row.operation_id, row);
    this.changed.add(row.operation_id);
  }

  /** Changes a row that exists; an event about a row never created changes nothing. */
  update(operationId: string, changes: Partial<OperationRow>): void {
    const row = this.rows.get(operationId);
    if (!row) return;
    this.rows.set(operationId, { ...row, ...changes });
    this.changed.add(operationId);
  }

  /** Updates an operation row, creating it from the payment's initial row when it is new. */
  upsertOperation(event: StoredEvent, operationId: string, { type, status, amount, reason, at }: OperationChange): void {
    if (this.rows.has(operationId)) {
      this.update(operationId, { status, amount, reason, updated_at: at });
      return;
    }
    const paymentId = String(event.data.paymentId);
    const initial = this.rows.get(paymentId);
    if (!initial) return; // an operation on a payment never initiated: nothing to attach it to
    this.add({
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
  }

  /** The rows to write, in the order they first changed. */
  changedRows(): OperationRow[] {
    return [...this.changed].map((id) => this.rows.get(id)!);
  }
}
