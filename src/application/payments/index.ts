export { PaymentService } from './payment-service';
export type { PaymentDeps } from './deps';
export { CardTokenNotFoundError, DuplicatePaymentError } from './errors';
export { payerReturnUrl, toAuthorizationResult } from './connector-calls';
export type { RawPayerReturn } from './payer-action/handler';
export type { NotificationResult, RawNotification } from './notification/handler';
export type { Claim } from './start-payment/handler';
export type { WalletFlows, WalletInstrument, WalletPaymentRequest, WalletSaleRequest } from './wallet/handler';
export type {
  InternalSale,
  RecurringChain,
  RecurringRequest,
  SaleCard,
  SaleInstrument,
  SaleRequest,
  SaleResult,
  ScheduleRequest,
  ScheduledPaymentRequest,
} from './types';
