export { PaymentService } from './payment-service';
export type { PaymentDeps } from './deps';
export { CardTokenNotFoundError, DuplicatePaymentError } from './errors';
export { payerReturnUrl, toAuthorizationResult } from './connector-calls';
export type { RawPayerReturn } from './payer-action/handler';
export type { NotificationResult, RawNotification } from './notification/handler';
export type { Claim } from './start-payment/handler';
export { NotificationUrlRefused, type SaleChecks } from './sale/checks';
export type { CardSaleCommand, CardSalePayment, MethodSaleCommand, Parsed, SaleOrder, SaleRefusal, ScheduleFields } from './sale/command';
export type { SaleForm } from './sale/form-fields';
export { merchantTermsOf, type MerchantTerms } from './sale/merchant-terms';
export { parseCardSale } from './sale/parse-card-sale';
export { MALFORMED_WALLET_TOKEN } from './sale/wallet-token';
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
