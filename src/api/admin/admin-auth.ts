/**
 * Operator endpoints (`/admin/...`) answer only to `Authorization: Bearer <admin token>`. The token
 * is ADMIN_TOKEN when set, otherwise derived from the vault key, so every process of one deployment
 * agrees on it without another secret to distribute (`npm run gateway -- admin-token` prints it).
 * `adminGuard` (admin-guard.ts) applies the check to every spelling of `/admin` before routing;
 * the admin router checks again, so a route is never reachable without it.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { errors } from '../errors';

export function deriveAdminToken(vaultKey: Buffer): string {
  return createHmac('sha256', vaultKey).update('admin-api-token').digest('hex');
}

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameToken(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Whether an Authorization header carries the admin token; no token configured admits nobody. */
export function adminAuthorized(authorization: string, token: string | undefined): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization);
  // Compared even without a configured token or a bearer, so the answer takes the same time.
  const same = sameToken(match?.[1] ?? '', token ?? '');
  return match !== null && token !== undefined && token.length > 0 && same;
}

/** Throws the admin API's 401 unless the request carries the token. */
export function assertAdminToken(ctx: Koa.Context, token: string | undefined): void {
  if (adminAuthorized(ctx.get('Authorization'), token)) return;
  ctx.set('WWW-Authenticate', 'Bearer realm="admin"');
  throw errors.adminTokenInvalid();
}

export function requireAdminToken(token: string): Koa.Middleware {
  return async (ctx, next) => {
    assertAdminToken(ctx, token);
    await next();
  };
}
