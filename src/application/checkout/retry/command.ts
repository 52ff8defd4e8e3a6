import type { RetryRefusal } from '../../../domain/checkout/retry';

/** `POST /api/v1/payment/retry` of a merchant's payment. */
export interface RetryCommand {
  merchantId: string;
  paymentId: string;
  correlationId: string;
}

/** Why no new attempt was made (null: one was); null as a whole for a payment that is not the merchant's. */
export type RetryOutcome = { refusal: RetryRefusal | null } | null;
