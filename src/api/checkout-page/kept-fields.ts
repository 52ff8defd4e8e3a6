/**
 * What the payer typed, kept across an attempt so that a declined payment's form comes back filled
 * in: the name on the card, the expiry and the billing address, never the card number or the
 * security code (keptValues filters them out, on the way in and on the way back).
 *
 * The values stay in the payer's own browser, in a cookie of the session's page alone: nothing the
 * payer typed is stored by the gateway beyond the payment itself, it works without JavaScript and
 * across processes, and the decline page stays a plain GET (Post/Redirect/Get), so a reload never
 * pays again. A cookie a browser does not send (a shop's iframe in a browser refusing its cookies)
 * just leaves the fields empty, as before.
 */
import type Koa from 'koa';
import type { KeptValues } from './form-field';
import { keptValues } from './pay-form';

export const KEPT_COOKIE = 'checkout_form';

/** Long enough to come back from the card issuer's page and try again; short on a shared device. */
const KEPT_SECONDS = 30 * 60;

/** Longest cookie value read back: four short fields, encoded. */
const MAX_COOKIE_LENGTH = 1024;

/** The page's own path: the form posts under it, and only it reads the cookie back. */
const pagePath = (prefix: string, sessionId: string): string => `${prefix}/checkout/${encodeURIComponent(sessionId)}`;

export function keepTyped(ctx: Koa.Context, options: { prefix: string; sessionId: string; secure: boolean }, kept: KeptValues): void {
  const value = Buffer.from(JSON.stringify(keptValues(kept)), 'utf8').toString('base64url');
  ctx.append(
    'Set-Cookie',
    `${KEPT_COOKIE}=${value}; Path=${pagePath(options.prefix, options.sessionId)}; Max-Age=${KEPT_SECONDS}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`,
  );
}

/** What the payer typed last time on this session's page, or nothing. */
export function typedBefore(ctx: Koa.Context): KeptValues {
  const value = ctx.cookies.get(KEPT_COOKIE);
  if (!value || value.length > MAX_COOKIE_LENGTH || !/^[A-Za-z0-9_-]+$/.test(value)) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? keptValues(parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
