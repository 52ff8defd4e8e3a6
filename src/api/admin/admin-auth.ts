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
import { admitOrRefuse, type AuthSubject, type AuthThrottle } from '../auth-throttle';

/** A wrong admin token names no one but the address it came from: counted per address. */
const ADMIN_SUBJECT: AuthSubject = { kind: 'admin' };

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

/**
 * Throws the admin API's 401 unless the request carries the token; with a throttle, 429 for an
 * address locked for wrong tokens, whatever this request presents (or it would learn which guess
 * was right).
 */
export function assertAdminToken(ctx: Koa.Context, token: string | undefined, throttle?: AuthThrottle): void {
  admitOrRefuse(ctx, throttle, ADMIN_SUBJECT);
  if (adminAuthorized(ctx.get('Authorization'), token)) {
    throttle?.succeeded(ctx.ip, ADMIN_SUBJECT);
    return;
  }
  // A request without credentials guesses nothing (a monitor, a curious browser): only a presented token counts.
  if (ctx.get('Authorization') !== '') throttle?.failed(ctx.ip, ADMIN_SUBJECT, ctx.state.requestId);
  ctx.set('WWW-Authenticate', 'Bearer realm="admin"');
  throw errors.adminTokenInvalid();
}

export function requireAdminToken(token: string): Koa.Middleware {
  return async (ctx, next) => {
    assertAdminToken(ctx, token);
    await next();
  };
}
