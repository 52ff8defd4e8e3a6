/**
 * A command refused by the domain. `code` is stable and mapped to the spec's error codes and
 * messages at the API edge; the domain never speaks HTTP.
 */
export type DomainErrorCode =
  | 'payment_exists'
  | 'payment_not_found'
  | 'capture_not_allowed'
  | 'void_not_allowed'
  | 'refund_not_allowed'
  | 'amount_exceeds_available'
  | 'amount_not_positive'
  | 'operation_in_progress'
  | 'unexpected_outcome'
  | 'merchant_exists'
  | 'merchant_not_found'
  | 'callback_not_found'
  | 'callback_not_due'
  | 'callback_in_flight'
  | 'session_exists'
  | 'session_not_found'
  | 'session_expired'
  | 'session_cancelled'
  | 'session_paid'
  | 'payment_in_progress'
  | 'attempts_exhausted'
  /** The payer chose a payment method its Checkout session does not offer. */
  | 'method_not_offered'
  | 'schedule_exists'
  | 'schedule_not_found'
  | 'incorrect_transaction'
  | 'test_clock_unavailable'
  /** The MID's Payment Mode does not allow this kind of payment (a sale on DMS, an authorization on SMS). */
  | 'action_not_supported'
  /** None of the merchant's connectors can take the payment (method, currency, DMS, zero amount, ...). */
  | 'no_capable_connector'
  /** The payment's connector takes refunds in its own portal only. */
  | 'refund_via_api_not_supported'
  /** The payer's return from a connector's page did not verify: forged, altered or of another payment. */
  | 'payer_return_invalid'
  /** A payout asks for more than the merchant's payout balance in its currency still has. */
  | 'insufficient_payout_balance';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
