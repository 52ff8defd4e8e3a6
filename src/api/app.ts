/**
 * The koa application factory. It never listens: `main` does, and tests call the app in-process.
 * Validators are compiled here, once, when the app is built.
 *
 * Order of the layers, each before the next looks at anything: request id, log and metrics, error
 * shape, the admin token on every spelling of `/admin`, body parsing, input hygiene (nesting, size,
 * control characters; input-hygiene.ts), then the routes, which match one spelling of a path only.
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { rawNotificationBody } from './notifications/raw-body';
import type { Logger } from '../application/ports/logger';
import { adminGuard } from './admin/admin-guard';
import { errorMiddleware, errors } from './errors';
import { sharedAjv } from './validation';
import { urlencodedBody } from './form-body';
import { MAX_ENTRIES, inputHygiene, tooManyEntries } from './input-hygiene';
import { ROUTER_OPTIONS } from './router-options';
import type Ajv from 'ajv';
import type { AuthThrottle } from './auth-throttle';
import { actionLabel, routeLabel, type HttpMetrics } from './metrics/http-metrics';

/** formidable's code for "more fields than maxFields". */
const FORMIDABLE_TOO_MANY_FIELDS = 1007;

export interface AppOptions {
  logger: Logger;
  trustProxy?: boolean;
  /** Bearer token of the `/admin` API; without one, every admin path is refused. */
  adminToken?: string;
  /** Counts wrong admin tokens per address (the guard answers 429 once an address is locked). */
  authThrottle?: AuthThrottle;
  /** Adds the routes of each part of the API to the shared router. */
  routes: Array<(router: Router, ajv: Ajv) => void>;
  /** Told about every request once it is answered. */
  metrics?: HttpMetrics;
}

const routers = new WeakMap<Koa, Router>();

/** The app's router, for tools that list its routes (the OpenAPI document's test). */
export function routerOf(app: Koa): Router {
  const router = routers.get(app);
  if (!router) throw new Error('not an app made by createApp');
  return router;
}

export function createApp(options: AppOptions): Koa {
  // Behind a proxy, the client is the address the proxy saw: the last X-Forwarded-For entry, which
  // the proxy wrote itself. Entries before it are the client's own words.
  const app = new Koa({ proxy: options.trustProxy ?? false, maxIpsCount: 1 });
  const router = new Router(ROUTER_OPTIONS);
  const ajv = sharedAjv();
  routers.set(app, router);
  const metrics = options.metrics;

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId: string = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    // The lines about a request's work name it themselves (ctx.state.requestId, or the correlation
    // id the application passes on): a context carried along every promise of the HTTP thread would
    // cost it about 6 % of its CPU (measured with `npm run bench`).
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Never the body or the query string: they may hold card data.
      options.logger.info('request', { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms });
      if (metrics) {
        const route = routeLabel(ctx);
        metrics.httpRequest(ctx.method, route, actionLabel(ctx, route), ctx.status, ms / 1000);
      }
    }
  });
  app.use(errorMiddleware(options.logger));
  // Before any body is read: an admin request without the token costs nothing more.
  app.use(adminGuard(options.adminToken, options.authThrottle));
  // A provider's notification is verified over its raw body: read before any parser changes it.
  app.use(rawNotificationBody());
  app.use(urlencodedBody());
  const otherBodies = koaBody({
    multipart: true,
    urlencoded: false,
    json: true,
    formLimit: '128kb',
    jsonLimit: '128kb',
    textLimit: '16kb',
    // Payment forms carry fields, never files.
    formidable: { maxFiles: 0, maxFileSize: 1, maxFieldsSize: 128 * 1024, maxFields: MAX_ENTRIES },
    onError: (error) => {
      if ((error as { code?: unknown }).code === FORMIDABLE_TOO_MANY_FIELDS) throw errors.invalid([tooManyEntries()]);
      throw Object.assign(error, { status: 400 });
    },
  });
  // A form already read asks nothing more of koa-body, which would test the content type four times.
  app.use((ctx, next) => (ctx.state.bodyStyle === 'form' ? next() : otherBodies(ctx, next)));
  app.use(inputHygiene());
  for (const register of options.routes) register(router, ajv);
  app.use(routingRefusals());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/**
 * What the router leaves without a body becomes the spec's error shape rather than koa's plain
 * text: no route at the path is 404 (whatever the method); a path whose routes take other methods
 * is 405 with their `Allow`, also for methods no route has anywhere (TRACE, PROPFIND), which the
 * router would answer 501.
 */
function routingRefusals(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if ((ctx.status === 405 || ctx.status === 501) && ctx.response.get('Allow')) {
      ctx.status = 405;
      ctx.body = errors.methodNotAllowed().body();
      return;
    }
    if (ctx.status === 404 || ctx.status === 405 || ctx.status === 501) {
      ctx.remove('Allow');
      ctx.status = 404;
      ctx.body = errors.routeNotSupported().body();
    }
  };
}
