/** Hosted payment fields: the SDK script, the field iframes and the processing endpoints. */
import type Router from '@koa/router';
import type Ajv from 'ajv';
import type { CheckoutService } from '../../application/checkout/checkout-service';

export interface HostedFieldsDeps {
  checkout: CheckoutService;
  baseUrl: string;
  ajv: Ajv;
}

export function registerHostedFieldsRoutes(router: Router, deps: HostedFieldsDeps): void {
  void router;
  void deps;
}
