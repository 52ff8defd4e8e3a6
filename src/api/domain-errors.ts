/**
 * A domain refusal as the spec's error. Shared by the S2S and Checkout APIs so one refusal reads the
 * same on both; `overrides` let an endpoint name an entity its own way (spec Errors rule 1).
 */
import { DomainError, type DomainErrorCode } from '../domain/errors';
import { ApiError, errors } from './errors';

export function throwApiError(error: unknown, overrides: Partial<Record<DomainErrorCode, () => ApiError>> = {}): never {
  if (error instanceof DomainError) {
    const override = overrides[error.code];
    if (override) throw override();
    switch (error.code) {
      case 'payment_not_found':
        throw errors.paymentNotFound();
      case 'capture_not_allowed':
        throw errors.captureNotPending();
      case 'void_not_allowed':
        throw errors.voidNotAllowed();
      case 'refund_not_allowed':
        throw errors.refundNotAllowed();
      case 'amount_not_positive':
        throw errors.zeroAmount();
      case 'amount_exceeds_available':
        throw errors.invalid([{ error_code: 100000, error_message: error.message }]);
      case 'operation_in_progress':
        throw new ApiError(400, 100000, error.message);
      // Schedule and recurring entities are not found with 100000 (spec Errors rule 1).
      case 'schedule_not_found':
        throw new ApiError(400, 100000, 'Schedule not found');
      case 'incorrect_transaction':
        throw new ApiError(400, 100000, 'Incorrect transaction');
      case 'no_capable_connector':
      case 'action_not_supported':
        throw errors.actionNotSupported();
      case 'refund_via_api_not_supported':
        throw new ApiError(400, 210002, error.message);
      default:
        break;
    }
  }
  throw error;
}
