/** The operations read model: one row per operation on a payment (the initial one, then follow-ups). */
import type { PositionColumn } from '../columns';

export type OperationType = 'sale' | 'authorization' | 'debit' | 'credit' | '3ds' | 'redirect' | 'capture' | 'void' | 'refund' | 'reversal';
export type OperationStatus = 'success' | 'declined' | 'pending' | 'unknown';

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
  /**
   * '3ds', 'redirect', 'qr' (a QR code shown) or 'provider' (the payer confirms with an alternative
   * method's provider) while (or after) the payer had to act on the initial operation.
   */
  payer_action: string | null;
  created_at: string;
  updated_at: string;
  created_position: PositionColumn;
}

export interface TransactionsTables {
  transactions: TransactionsTable;
}
