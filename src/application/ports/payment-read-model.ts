/**
 * Payments as the read models hold them, for status lookups. A record carries the folded payment
 * state (`state`, what the command side would fold from the stream) beside flat columns; each API
 * turns it into its own response shape.
 */
import type { PaymentKind } from '../../domain/payment/events';
import type { ExistingPayment, PaymentPhase, PaymentStatus } from '../../domain/payment/state';
import type { ReadYourWrites } from './read-your-writes';

export interface PaymentRecord {
  paymentId: string;
  merchantId: string;
  orderId: string;
  channel: string;
  kind: PaymentKind;
  status: PaymentStatus;
  phase: PaymentPhase;
  currency: string;
  amount: number;
  amountText: string;
  heldAmount: number;
  settledAmount: number;
  refundedAmount: number;
  reversedAmount: number;
  descriptor: string | null;
  declineReason: string | null;
  cardMask: string;
  cardBrand: string;
  /** The alternative method's identifier as the merchant named it, else the card brand. */
  method: string;
  cardExpMonth: string;
  cardExpYear: string;
  cardToken: string | null;
  payerEmail: string | null;
  termUrl3ds: string | null;
  notificationUrl: string | null;
  redirectUrl: string | null;
  redirectParams: Record<string, string> | null;
  initiatedAt: string;
  updatedAt: string;
  streamVersion: number;
  state: ExistingPayment;
}

export interface PaymentReadModel extends ReadYourWrites {
  paymentById(paymentId: string): Promise<PaymentRecord | undefined>;
  /** The newest payment of the merchant's order. */
  latestPaymentByOrder(merchantId: string, orderId: string): Promise<PaymentRecord | undefined>;
  /** Newest first; payments initiated in the same instant come in the order they were recorded. */
  paymentsByOrder(merchantId: string, orderId: string, limit: number): Promise<PaymentRecord[]>;
}
