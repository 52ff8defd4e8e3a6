/**
 * A provider's notification is authenticated by its signature over the body's exact bytes, so the
 * body of `POST /notifications/...` is read here, before the gateway's form and JSON parsers could
 * turn it into something else, and kept as it arrived (at most NOTIFICATION_LIMIT_BYTES). The
 * parsers and the input hygiene then see no body: what it says is the connector's to read.
 */
import type Koa from 'koa';
import { ApiError, INVALID_REQUEST } from '../errors';

export const NOTIFICATION_PATH_PREFIX = '/notifications/';
export const NOTIFICATION_LIMIT_BYTES = 64 * 1024;

export interface RawNotificationBody {
  body: string;
  /** The request's headers as they arrived (names lower case). */
  headers: Record<string, string>;
}

export function rawNotificationBody(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !ctx.path.startsWith(NOTIFICATION_PATH_PREFIX)) return next();
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > NOTIFICATION_LIMIT_BYTES) throw new ApiError(413, 100000, INVALID_REQUEST);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > NOTIFICATION_LIMIT_BYTES) throw new ApiError(413, 100000, INVALID_REQUEST);
      chunks.push(chunk);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(ctx.request.headers)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
    ctx.state.rawNotification = { body: Buffer.concat(chunks).toString('utf8'), headers } satisfies RawNotificationBody;
    // The stream is read: no parser may try again (they decide by the content type).
    ctx.req.headers['content-type'] = 'application/octet-stream';
    return next();
  };
}
