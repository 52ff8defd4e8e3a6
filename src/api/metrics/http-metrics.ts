/**
 * What the app tells the metrics about each request: its method, the route pattern it matched
 * (never the raw path, which holds ids and anything a client types), the S2S action on `/post`,
 * its status and how long it took.
 */
import type Koa from 'koa';

export interface HttpMetrics {
  httpRequest(method: string, route: string, action: string, status: number, seconds: number): void;
}

/** The matched route's pattern (`/admin/callbacks/:id`), or `unmatched` for a path no route has. */
export function routeLabel(ctx: Koa.Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : 'unmatched';
}

/** Shaped like an action name and answered by one: anything else (a 404 for an unknown action) is `unknown`. */
const ACTION = /^[A-Z][A-Z0-9_]{0,39}$/;

/** The S2S action of a `/post` request, `-` elsewhere, so the label set stays small. */
export function actionLabel(ctx: Koa.Context, route: string): string {
  if (route !== '/post') return '-';
  const action = ((ctx.request as { body?: unknown }).body as { action?: unknown } | undefined)?.action;
  return ctx.status !== 404 && typeof action === 'string' && ACTION.test(action) ? action : 'unknown';
}
