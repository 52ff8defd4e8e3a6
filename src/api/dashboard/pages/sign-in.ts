/**
 * Signing in with the admin token (the same token as the `/admin` API), compared in constant time;
 * a wrong one counts as a failed authentication of the admin token from that address, exactly as
 * on the admin API, and a locked address is refused (429) whatever it sends. Signing out forgets
 * the session and clears the cookie.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { adminAuthorized } from '../../admin/admin-auth';
import { setRetryAfter, type AuthSubject, type AuthThrottle } from '../../auth-throttle';
import { dashboardPath, formOf, formText, queryText } from '../format';
import { html, seeOther, type Guard } from '../guard';
import { esc, input, layout, type Flash } from '../html';

/** The admin token's subject: dashboard sign-ins and admin API calls share one count. */
const ADMIN: AuthSubject = { kind: 'admin' };

const DEFAULT_PAGE = '/dashboard/payments';

function signInPage(ctx: Koa.Context, guard: Guard, next: string, flash: Flash | null, status = 200): void {
  html(
    ctx,
    layout({
      title: 'Sign in',
      environment: guard.environment,
      flash,
      main: `<div class="card sign-in">
<p>Operators sign in with the admin token: <code>npm run gateway -- admin-token</code> prints it (ADMIN_TOKEN when set).</p>
<form method="post" action="/dashboard/sign-in">
<input type="hidden" name="next" value="${esc(next)}">
${input({ label: 'Admin token', name: 'token', type: 'password', required: true, attrs: 'autocomplete="current-password" autofocus spellcheck="false"' })}
<div class="actions"><button type="submit">Sign in</button></div>
</form>
</div>`,
    }),
    status,
  );
}

export function registerSignIn(router: Router, guard: Guard, deps: { adminToken: string; throttle?: AuthThrottle }): void {
  router.get('/dashboard', (ctx) => seeOther(ctx, DEFAULT_PAGE));

  router.get('/dashboard/sign-in', (ctx) => {
    const next = dashboardPath(queryText(ctx, 'next'), DEFAULT_PAGE);
    if (guard.sessions.read(ctx.cookies.get('gw_dashboard'))) return seeOther(ctx, next);
    signInPage(ctx, guard, next, null);
  });

  router.post('/dashboard/sign-in', (ctx) => {
    const form = formOf(ctx);
    const next = dashboardPath(formText(form, 'next'), DEFAULT_PAGE);
    // A locked address learns nothing, not even whether this token was right.
    const refusal = deps.throttle?.admit(ctx.ip, ADMIN);
    if (refusal) {
      setRetryAfter(ctx, refusal);
      return signInPage(ctx, guard, next, { kind: 'error', text: `Too many failed sign-ins from this address. Try again in ${refusal.retryAfterSeconds} s.` }, 429);
    }
    const token = formText(form, 'token') ?? '';
    if (!adminAuthorized(`Bearer ${token}`, deps.adminToken)) {
      if (token !== '') deps.throttle?.failed(ctx.ip, ADMIN, ctx.state.requestId);
      return signInPage(ctx, guard, next, { kind: 'error', text: 'That is not the admin token.' }, 401);
    }
    deps.throttle?.succeeded(ctx.ip, ADMIN);
    guard.setCookie(ctx, guard.sessions.open().cookie);
    seeOther(ctx, next);
  });

  guard.action(router, '/dashboard/sign-out', (ctx, session) => {
    guard.sessions.revoke(session);
    guard.clearCookie(ctx);
    seeOther(ctx, '/dashboard/sign-in');
  });
}
