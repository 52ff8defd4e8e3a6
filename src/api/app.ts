/**
 * The koa application factory. It never listens: `main` does, and tests call the app in-process.
 * Validators are compiled here, once, when the app is built.
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from '../application/ports/logger';
import { errorMiddleware } from './errors';
import { createAjv } from './validation';
import { urlencodedBody } from './form-body';
import type Ajv from 'ajv';

export interface AppOptions {
  logger: Logger;
  trustProxy?: boolean;
  /** Adds the routes of each part of the API to the shared router. */
  routes: Array<(router: Router, ajv: Ajv) => void>;
}

export function createApp(options: AppOptions): Koa {
  const app = new Koa({ proxy: options.trustProxy ?? false });
  const router = new Router();
  const ajv = createAjv();

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    try {
      await next();
    } finally {
      // Never the body or the query string: they may hold card data.
      options.logger.info('request', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      });
    }
  });
  app.use(errorMiddleware(options.logger));
  app.use(urlencodedBody());
  app.use(
    koaBody({
      multipart: true,
      urlencoded: false,
      json: true,
      formLimit: '128kb',
      jsonLimit: '128kb',
      textLimit: '16kb',
      // Payment forms carry fields, never files.
      formidable: { maxFiles: 0, maxFileSize: 1, maxFieldsSize: 128 * 1024 },
      onError: (error) => {
        throw Object.assign(error, { status: 400 });
      },
    }),
  );
  for (const register of options.routes) register(router, ajv);
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(async (ctx) => {
    // Unknown paths answer in the spec's error shape rather than koa's plain-text 404.
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' };
    }
  });
  return app;
}
