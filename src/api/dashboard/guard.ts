/**
 * The dashboard's own door: every page and action checks the session cookie before it reads
 * anything, and every POST also its CSRF token. Nothing here leans on the admin API's guard, which
 * covers `/admin` only; a dashboard path is never an admin path in any spelling (admin-guard.ts
 * resolves dot segments, so `/dashboard/../admin` is still guarded there).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { DASHBOARD_CSP, esc, layout } from './html';
import { DashboardSessions, SESSION_TTL_MS, type DashboardSession } from './session';
import { formOf, formText } from './format';

export const COOKIE = 'gw_dashboard';
export const COOKIE_PATH = '/dashboard';

export type PageHandler = (ctx: Koa.Context, session: DashboardSession) => Promise<void> | void;

export interface Guard {
  sessions: DashboardSessions;
  environment: string;
  /** Sets the session cookie (HttpOnly, SameSite=Strict, Path=/dashboard, Secure behind TLS). */
  setCookie(ctx: Koa.Context, value: string): void;
  clearCookie(ctx: Koa.Context): void;
  /** Registers a GET page that refuses (redirects to sign-in) without a session. */
  page(router: Router, path: string, handler: PageHandler): void;
  /** Registers a GET that answers JSON; 401 without a session. */
  json(router: Router, path: string, handler: PageHandler): void;
  /** Registers a POST that needs a session and the session's CSRF token in the form. */
  action(router: Router, path: string, handler: PageHandler): void;
}

/** Headers every dashboard answer carries. */
export function dashboardHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', DASHBOARD_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
}

export function html(ctx: Koa.Context, body: string, status = 200): void {
  dashboardHeaders(ctx);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

export function seeOther(ctx: Koa.Context, location: string): void {
  dashboardHeaders(ctx);
  ctx.status = 303;
  ctx.set('Location', location);
  ctx.body = '';
}

export function createGuard(options: { sessions: DashboardSessions; environment: string; secureAlways: boolean }): Guard {
  const cookie = (ctx: Koa.Context, value: string, maxAgeSeconds: number) => {
    const secure = options.secureAlways || ctx.secure;
    ctx.append(
      'Set-Cookie',
      `${COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
    );
  };
  const sessionOf = (ctx: Koa.Context) => options.sessions.read(ctx.cookies.get(COOKIE));
  const toSignIn = (ctx: Koa.Context) => {
    const next = ctx.method === 'GET' ? ctx.originalUrl : '/dashboard';
    seeOther(ctx, `/dashboard/sign-in?next=${encodeURIComponent(next)}`);
  };
  return {
    sessions: options.sessions,
    environment: options.environment,
    setCookie: (ctx, value) => cookie(ctx, value, Math.floor(SESSION_TTL_MS / 1000)),
    clearCookie: (ctx) => cookie(ctx, '', 0),
    page(router, path, handler) {
      router.get(path, async (ctx) => {
        const session = sessionOf(ctx);
        if (!session) return toSignIn(ctx);
        dashboardHeaders(ctx);
        await handler(ctx, session);
      });
    },
    json(router, path, handler) {
      router.get(path, async (ctx) => {
        const session = sessionOf(ctx);
        dashboardHeaders(ctx);
        if (!session) {
          ctx.status = 401;
          ctx.body = { result: 'ERROR', error_code: 401, error_message: 'Sign in to the dashboard first.' };
          return;
        }
        await handler(ctx, session);
      });
    },
    action(router, path, handler) {
      router.post(path, async (ctx) => {
        const session = sessionOf(ctx);
        if (!session) return toSignIn(ctx);
        if (!DashboardSessions.csrfMatches(session, formText(formOf(ctx), '_csrf'))) {
          html(
            ctx,
            layout({
              title: 'This form has expired',
              environment: options.environment,
              session,
              main: `<p>The form was not sent from this session's page. Go back, reload the page and try again.</p><p><a href="/dashboard">Back to the dashboard</a></p>`,
            }),
            403,
          );
          return;
        }
        dashboardHeaders(ctx);
        await handler(ctx, session);
      });
    },
  };
}

/** A page saying something was not found, in the dashboard's layout. */
export function notFoundPage(ctx: Koa.Context, session: DashboardSession, environment: string, what: string): void {
  html(ctx, layout({ title: 'Not found', environment, session, main: `<p>${esc(what)}</p><p><a href="/dashboard">Back to the dashboard</a></p>` }), 404);
}
