/** The payments read model: one row per payment, what status lookups read. */
import type { PositionColumn } from '../columns';

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
  /** The alternative method's identifier as the merchant named it, else the card brand: what operators search by. */
  method: string;
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
  /** When the provider gives up on the payer's step (a QR code's lifetime), while one is awaited; else null. */
  expires_at: string | null;
  initiated_position: PositionColumn;
  stream_version: number;
  /** JSON of the full folded PaymentState, so batches keep folding without reading the stream. */
  state: string;
}

export interface PaymentsTables {
  payments: PaymentsTable;
}
