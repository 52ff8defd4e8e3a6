/** Reading the operations read model: a payment's operations, and follow-ups the acquirer never answered. */
import type { Kysely, Selectable } from 'kysely';
import { OPERATION_COLUMNS } from './projection';
import type { OperationStatus, OperationType, TransactionsTable, TransactionsTables } from './tables';

export interface OperationRecord {
  operationId: string;
  paymentId: string;
  merchantId: string;
  orderId: string;
  type: OperationType;
  status: OperationStatus;
  amount: number;
  currency: string;
  reason: string | null;
  payerAction: '3ds' | 'redirect' | null;
  createdAt: string;
  updatedAt: string;
}

type OperationSelect = Omit<Selectable<TransactionsTable>, 'created_position'>;

export function toOperationRecord(row: OperationSelect): OperationRecord {
  return {
    operationId: row.operation_id,
    paymentId: row.payment_id,
    merchantId: row.merchant_id,
    orderId: row.order_id,
    type: row.type,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    reason: row.reason,
    payerAction: row.payer_action as OperationRecord['payerAction'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class TransactionQueries {
  constructor(private readonly db: Kysely<TransactionsTables>) {}

  /** Oldest first: the initial sale or authorization, then what followed. */
  async operationsOfPayment(paymentId: string): Promise<OperationRecord[]> {
    const rows = await this.db
      .selectFrom('transactions')
      .select(OPERATION_COLUMNS)
      .where('payment_id', '=', paymentId)
      .orderBy('created_position', 'asc')
      .execute();
    return rows.map(toOperationRecord);
  }

  /** Payments with a capture, void, refund or reversal still pending or unknown, last changed before `cutoffIso`. */
  async paymentsWithUnansweredOperations(cutoffIso: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('transactions')
      .select('payment_id')
      .where('status', 'in', ['pending', 'unknown'])
      .where('type', 'in', ['capture', 'void', 'refund', 'reversal'])
      .where('updated_at', '<', cutoffIso)
      .limit(limit)
      .execute();
    return rows.map((row) => row.payment_id);
  }
}
