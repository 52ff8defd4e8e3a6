/** The hosted payment page (`/checkout/:sessionId`). */
import type Router from '@koa/router';
import type { CheckoutService } from '../../application/checkout/checkout-service';

export interface CheckoutPageDeps {
  checkout: CheckoutService;
  baseUrl: string;
}

export function registerCheckoutPageRoutes(router: Router, deps: CheckoutPageDeps): void {
  void router;
  void deps;
}
