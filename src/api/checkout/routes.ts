/** Checkout JSON API (`/api/v1/...`). */
import type Router from '@koa/router';
import type Ajv from 'ajv';
import type { CheckoutService } from '../../application/checkout/checkout-service';
import type { NotificationUrlCheck } from '../../application/callbacks/notification-url-check';
import type { MerchantService } from '../../application/merchant-service';
import type { PaymentService } from '../../application/payment-service';
import type { Clock } from '../../application/ports/clock';
import type { Environment } from '../../domain/merchant/events';
import type { ReadModels } from '../../../projections';

export interface CheckoutApiDeps {
  merchants: MerchantService;
  payments: PaymentService;
  checkout: CheckoutService;
  readModels: ReadModels;
  clock: Clock;
  environment: Environment;
  ajv: Ajv;
  notificationUrls: Pick<NotificationUrlCheck, 'problem'>;
}

export function registerCheckoutApiRoutes(router: Router, deps: CheckoutApiDeps): void {
  void router;
  void deps;
}
