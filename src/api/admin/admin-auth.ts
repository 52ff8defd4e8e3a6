/**
 * Operator endpoints (`/admin/...`) answer only to `Authorization: Bearer <admin token>`. The token
 * is ADMIN_TOKEN when set, otherwise derived from the vault key, so every process of one deployment
 * agrees on it without another secret to distribute (`npm run gateway -- admin-token` prints it).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { ApiError } from '../errors';

export function deriveAdminToken(vaultKey: Buffer): string {
  return createHmac('sha256', vaultKey).update('admin-api-token').digest('hex');
}

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameToken(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function requireAdminToken(token: string): Koa.Middleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match || !sameToken(match[1], token)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="admin"');
      throw new ApiError(401, 401, 'Admin token is missing or not valid.');
    }
    await next();
  };
}
