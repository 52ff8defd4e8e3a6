/**
 * The admin token is checked before routing, on every path a client could mean as `/admin`:
 * whatever its case, percent-encoding (also of `/` and twice over), doubled slashes, backslashes or
 * dot segments. Router middleware alone would only guard the spellings the router itself matches,
 * and those change with router options and versions; this guard does not depend on them.
 */
import type Koa from 'koa';
import type { AuthThrottle } from '../auth-throttle';
import { assertAdminToken } from './admin-auth';

/** Percent-decoding rounds: `%2561` is `%61` after one, `a` after two. */
const DECODE_ROUNDS = 4;

/** Decodes %XX byte by byte; never throws on malformed input (a stray `%` stays as it is). */
function decodeBytes(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The path's segments as a lenient server would see them: decoded, lower case, dot segments resolved. */
function normalisedSegments(rawPath: string): string[] {
  let path = rawPath;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const decoded = decodeBytes(path);
    if (decoded === path) break;
    path = decoded;
  }
  const segments: string[] = [];
  for (const segment of path.toLowerCase().split(/[/\\]+/)) {
    // Leading blanks and control characters are what a sloppy parser would strip.
    const cleaned = segment.replace(/^[\s\u0000-\u001f\u007f]+/, '');
    if (cleaned === '' || cleaned === '.') continue;
    if (cleaned === '..') segments.pop();
    else segments.push(cleaned);
  }
  return segments;
}

/** Whether a request path means the admin API in any spelling (`/admin`, `/ADMIN/`, `/%61dmin`, `//admin;x`). */
export function isAdminPath(rawPath: string): boolean {
  const first = normalisedSegments(rawPath)[0];
  return first !== undefined && /^admin(?![a-z0-9_-])/.test(first);
}

/**
 * App-level middleware: every admin path without the token is a 401, before any body is read or
 * route matched. With a throttle, wrong tokens are counted per address and a locked address gets
 * 429 on every admin path until its lock ends.
 */
export function adminGuard(token: string | undefined, throttle?: AuthThrottle): Koa.Middleware {
  return async (ctx, next) => {
    if (isAdminPath(ctx.path)) assertAdminToken(ctx, token, throttle);
    await next();
  };
}
