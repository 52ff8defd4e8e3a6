/**
 * Url-encoded bodies, read without a general-purpose query-string library: the S2S form API is
 * flat name=value pairs (bracketed names are nested by `normalizeForm`), and this is the hottest
 * path of the gateway.
 */
import type Koa from 'koa';
import { ApiError, INVALID_REQUEST, errors } from './errors';
import { MAX_ENTRIES, tooManyEntries } from './input-hygiene';

export const FORM_LIMIT_BYTES = 128 * 1024;

export function urlencodedBody(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !ctx.is('application/x-www-form-urlencoded')) return next();
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > FORM_LIMIT_BYTES) throw new ApiError(413, 100000, INVALID_REQUEST);
    const text = await readText(ctx.req, FORM_LIMIT_BYTES);
    const body: Record<string, string | string[]> = Object.create(null);
    let pairs = 0;
    for (const [name, value] of new URLSearchParams(text)) {
      // Counted while parsing, so a body of tens of thousands of tiny pairs is refused early.
      if (++pairs > MAX_ENTRIES) throw errors.invalid([tooManyEntries()]);
      const existing = body[name];
      if (existing === undefined) body[name] = value;
      else if (Array.isArray(existing)) existing.push(value);
      else body[name] = [existing, value];
    }
    (ctx.request as { body?: unknown }).body = body;
    // Said once here: the parsers and checks after this one would each ask the content type again.
    ctx.state.bodyStyle = 'form';
    return next();
  };
}

/** Event-driven read (an async iterator over the request costs several times more per request). */
function readText(req: NodeJS.ReadableStream, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new ApiError(413, 100000, INVALID_REQUEST));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(Object.assign(error, { status: 400 }));
    };
    const cleanup = () => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
