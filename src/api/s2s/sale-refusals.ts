/**
 * How the S2S SALEs (card and APM) answer what they refuse: a form refused by its parse, before the
 * hash; and what the payment refused after it (a duplicate order, an unknown card token, a
 * notification URL callbacks cannot reach, a wallet, a domain rule).
 */
import { CardTokenNotFoundError, DuplicatePaymentError, NotificationUrlRefused, type SaleRefusal } from '../../application/payments';
import { throwApiError } from '../domain-errors';
import { ApiError, errors } from '../errors';
import { throwWalletRefusal } from './wallet-refusals';

export const brandErrors = {
  notFound: () => new ApiError(400, 204011, 'Payment system/brand not found.'),
  notSupported: () => new ApiError(400, 204006, 'Payment system/brand not supported.'),
};

export function saleRefusalError(refusal: SaleRefusal): ApiError {
  switch (refusal.kind) {
    case 'fields':
      return errors.invalid(refusal.problems.map((problem) => ({ error_code: 100000, error_message: problem })));
    case 'schedule_id_not_uuid':
      return new ApiError(400, 100000, 'This is not a valid UUID.');
    case 'brand_not_found':
      return brandErrors.notFound();
    case 'brand_not_supported':
      return brandErrors.notSupported();
    case 'action_not_supported':
      return errors.actionNotSupported();
    default: {
      const unreachable: never = refusal;
      return unreachable;
    }
  }
}

/** `tokenField`: where the SALE sent a wallet's token, named by a malformed token's error. */
export function throwSaleError(error: unknown, tokenField: string): never {
  if (error instanceof DuplicatePaymentError) throw errors.duplicate();
  if (error instanceof CardTokenNotFoundError) throw errors.cardTokenNotFound();
  if (error instanceof NotificationUrlRefused) throw errors.invalid([errors.field('notification_url', error.problem)]);
  throwWalletRefusal(error, tokenField);
  // A payment none of the merchant's connectors can take: 204005.
  throwApiError(error);
}
