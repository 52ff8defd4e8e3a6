/**
 * A domain refusal as the spec's error. Shared by the S2S and Checkout APIs so one refusal reads the
 * same on both; `overrides` let an endpoint name an entity its own way (spec Errors rule 1).
 *
 * Every DomainErrorCode has its entry in `API_ERRORS`, so a new code does not compile until it is
 * given an answer here: its spec error, or `unanswered` when no request can meet it (the
 * caller's own handling, or a bug that ends as the generic 500).
 */
import { DomainError, type DomainErrorCode } from '../domain/errors';
import { ApiError, errors } from './errors';

type Answer = ((error: DomainError) => ApiError) | 'unanswered';

const API_ERRORS: Record<DomainErrorCode, Answer> = {
  payment_not_found: () => errors.paymentNotFound(),
  capture_not_allowed: () => errors.captureNotPending(),
  void_not_allowed: () => errors.voidNotAllowed(),
  refund_not_allowed: () => errors.refundNotAllowed(),
  amount_not_positive: () => errors.zeroAmount(),
  amount_exceeds_available: (error) => errors.invalid([{ error_code: 100000, error_message: error.message }]),
  operation_in_progress: (error) => new ApiError(400, 100000, error.message),
  // Schedule and recurring entities are not found with 100000 (spec Errors rule 1).
  schedule_not_found: () => new ApiError(400, 100000, 'Schedule not found'),
  incorrect_transaction: () => new ApiError(400, 100000, 'Incorrect transaction'),
  no_capable_connector: () => errors.actionNotSupported(),
  action_not_supported: () => errors.actionNotSupported(),
  refund_via_api_not_supported: (error) => new ApiError(400, 210002, error.message),
  payment_exists: 'unanswered',
  unexpected_outcome: 'unanswered',
  merchant_exists: 'unanswered',
  merchant_not_found: 'unanswered',
  callback_not_found: 'unanswered',
  callback_not_due: 'unanswered',
  callback_in_flight: 'unanswered',
  session_exists: 'unanswered',
  session_not_found: 'unanswered',
  session_expired: 'unanswered',
  session_cancelled: 'unanswered',
  session_paid: 'unanswered',
  payment_in_progress: 'unanswered',
  attempts_exhausted: 'unanswered',
  method_not_offered: 'unanswered',
  schedule_exists: 'unanswered',
  test_clock_unavailable: 'unanswered',
  payer_return_invalid: 'unanswered',
  insufficient_payout_balance: 'unanswered',
};

export function throwApiError(error: unknown, overrides: Partial<Record<DomainErrorCode, () => ApiError>> = {}): never {
  if (error instanceof DomainError) {
    const override = overrides[error.code];
    if (override) throw override();
    const answer = API_ERRORS[error.code];
    if (answer !== 'unanswered') throw answer(error);
  }
  throw error;
}
