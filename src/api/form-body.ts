/**
 * Url-encoded bodies, read without a general-purpose query-string library: the S2S form API is
 * flat name=value pairs (bracketed names are nested by `normalizeForm`), and this is the hottest
 * path of the gateway.
 */
import type Koa from 'koa';
import { ApiError, INVALID_REQUEST } from './errors';

export const FORM_LIMIT_BYTES = 128 * 1024;

export function urlencodedBody(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !ctx.is('application/x-www-form-urlencoded')) return next();
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > FORM_LIMIT_BYTES) throw new ApiError(413, 100000, INVALID_REQUEST);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > FORM_LIMIT_BYTES) throw new ApiError(413, 100000, INVALID_REQUEST);
      chunks.push(chunk);
    }
    const body: Record<string, string | string[]> = Object.create(null);
    for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
      const existing = body[name];
      if (existing === undefined) body[name] = value;
      else if (Array.isArray(existing)) existing.push(value);
      else body[name] = [existing, value];
    }
    (ctx.request as { body?: unknown }).body = body;
    return next();
  };
}
