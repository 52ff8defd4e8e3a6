/**
 * `GET /metrics`: Prometheus text format. On the API's own port it answers only to
 * `Authorization: Bearer <METRICS_TOKEN>` (or the admin token while no METRICS_TOKEN is set);
 * with METRICS_PORT the metrics have a listener of their own instead (metrics-listener.ts) and
 * the API's port has no /metrics at all. Wrong tokens count as failed authentications like wrong
 * admin tokens (429 once an address is locked).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { adminAuthorized } from '../admin/admin-auth';
import { admitOrRefuse, type AuthSubject, type AuthThrottle } from '../auth-throttle';
import { ApiError } from '../errors';

export interface MetricsSource {
  contentType: string;
  render(): Promise<string>;
}

export interface MetricsRouteDeps {
  metrics: MetricsSource;
  /** Bearer tokens that may scrape; empty admits nobody. */
  tokens: readonly string[];
  throttle?: AuthThrottle;
}

/** Guessing the scrape token is guessing a secret, counted with the admin token's guesses. */
const SUBJECT: AuthSubject = { kind: 'admin' };

export const METRICS_PATH = '/metrics';

export async function sendMetrics(ctx: Koa.Context, metrics: MetricsSource): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.type = metrics.contentType;
  ctx.body = await metrics.render();
}

export function registerMetricsRoute(router: Router, deps: MetricsRouteDeps): void {
  router.get(METRICS_PATH, async (ctx) => {
    admitOrRefuse(ctx, deps.throttle, SUBJECT);
    const authorization = ctx.get('Authorization');
    // Every configured token is compared, whichever matches, so timing tells nothing.
    let authorized = false;
    for (const token of deps.tokens) authorized = adminAuthorized(authorization, token) || authorized;
    if (!authorized) {
      if (authorization !== '') deps.throttle?.failed(ctx.ip, SUBJECT, ctx.state.requestId);
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new ApiError(401, 401, 'Metrics token is missing or not valid.');
    }
    deps.throttle?.succeeded(ctx.ip, SUBJECT);
    await sendMetrics(ctx, deps.metrics);
  });
}
