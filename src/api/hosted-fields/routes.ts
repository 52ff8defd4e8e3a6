/** Hosted payment fields: the SDK script, the field iframes and the processing endpoints. */
import type Router from '@koa/router';
import type Koa from 'koa';
import type Ajv from 'ajv';
import type { CheckoutService } from '../../application/checkout/checkout-service';
import { compileValidator } from '../validation';
import { cardDataHandler } from './card-data';
import {
  CARD_DATA_PATH,
  FRAME_CSP,
  FRAME_CSS,
  FRAME_PATH,
  FRAME_SCRIPT_PATH,
  FRAME_STYLE_PATH,
  isFieldName,
  renderFieldFrame,
} from './field-frame';
import { FRAME_JS } from './frame-script';
import { processingHandler } from './processing';
import { cardDataSchema, processingSchema } from './schemas';
import { SDK_JS, SDK_PATH } from './sdk-script';
import type { AuthThrottle } from '../auth-throttle';

export interface HostedFieldsDeps {
  checkout: CheckoutService;
  baseUrl: string;
  ajv: Ajv;
  /** Limits forged session tokens per address. */
  throttle?: AuthThrottle;
}

/** Static assets: the same for every merchant and session, so browsers and proxies may keep them. */
function asset(router: Router, path: string, type: string, body: string): void {
  router.get(path, (ctx) => {
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=3600');
    // Merchants' pages load the SDK cross-origin, also under a strict embedder policy.
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.body = body;
  });
}

function frame(ctx: Koa.Context): void {
  const field = ctx.query.field;
  const placeholder = typeof ctx.query.placeholder === 'string' ? ctx.query.placeholder : undefined;
  ctx.set('Content-Security-Policy', FRAME_CSP);
  if (!isFieldName(field) || typeof ctx.query.token !== 'string' || !ctx.query.token) {
    ctx.status = 400;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = 'This payment field is not available.';
    return;
  }
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = renderFieldFrame(field, placeholder);
}

export function registerHostedFieldsRoutes(router: Router, deps: HostedFieldsDeps): void {
  asset(router, SDK_PATH, 'text/javascript; charset=utf-8', SDK_JS);
  asset(router, FRAME_SCRIPT_PATH, 'text/javascript; charset=utf-8', FRAME_JS);
  asset(router, FRAME_STYLE_PATH, 'text/css; charset=utf-8', FRAME_CSS);
  router.get(FRAME_PATH, frame);

  router.post(
    CARD_DATA_PATH,
    cardDataHandler({
      checkout: deps.checkout,
      validate: compileValidator(deps.ajv, cardDataSchema),
      gatewayOrigin: new URL(deps.baseUrl).origin,
      throttle: deps.throttle,
    }),
  );

  const validate = compileValidator(deps.ajv, processingSchema);
  const processing = { checkout: deps.checkout, validate, throttle: deps.throttle };
  router.post('/api/v1/processing/purchase/card', processingHandler('purchase', processing));
  router.post('/api/v1/processing/debit/card', processingHandler('debit', processing));
}
