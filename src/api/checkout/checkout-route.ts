/**
 * What every Checkout operation shares: the API's dependencies and how an operation is declared.
 * The operations register themselves through a `CheckoutRoute` in `routes.ts`.
 */
import type Ajv from 'ajv';
import type { CheckoutService } from '../../application/checkout/checkout-service';
import type { NotificationUrlCheck } from '../../application/callbacks/notification-url-check';
import type { MerchantService } from '../../application/merchant-service';
import type { PaymentService } from '../../application/payments';
import type { Clock } from '../../application/ports/clock';
import type { PaymentReadModel } from '../../application/ports/payment-read-model';
import type { ScheduleService } from '../../application/schedules/schedule-service';
import type { Environment } from '../../domain/merchant/events';
import type { AuthThrottle } from '../auth-throttle';
import type { FieldError } from '../errors';
import type { CheckoutRequest } from './merchant-request';

export interface CheckoutApiDeps {
  merchants: MerchantService;
  payments: PaymentService;
  schedules: ScheduleService;
  checkout: CheckoutService;
  readModels: PaymentReadModel;
  clock: Clock;
  environment: Environment;
  ajv: Ajv;
  notificationUrls: Pick<NotificationUrlCheck, 'problem'>;
  /** Limits failed authentications (wrong hash, unknown merchant_key) per merchant and address. */
  throttle?: AuthThrottle;
}

export type Handler = (request: CheckoutRequest, schemaErrors: FieldError[]) => Promise<unknown>;

/** Registers one Checkout operation: JSON body, merchant checks, its schema (compiled once), its handler. */
export type CheckoutRoute = (path: string, schema: object, handle: Handler, options?: { lenient?: boolean }) => void;

