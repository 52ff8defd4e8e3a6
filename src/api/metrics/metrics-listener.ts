/**
 * A listener of its own for `/metrics` (METRICS_PORT): for processes without an HTTP API (the
 * projector, notifier and scheduler roles), or to keep metrics off the public port. It serves
 * nothing else; METRICS_TOKEN, when set, is required here too.
 */
import { createServer, type Server } from 'node:http';
import { adminAuthorized } from '../admin/admin-auth';
import { METRICS_PATH, type MetricsSource } from './metrics-route';

export interface MetricsListenerOptions {
  host: string;
  port: number;
  metrics: MetricsSource;
  /** Required when set. */
  token: string | null;
  onError(error: unknown): void;
}

export async function startMetricsListener(options: MetricsListenerOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n');
      return;
    }
    if (options.token !== null && !adminAuthorized(req.headers.authorization ?? '', options.token)) {
      res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer realm="metrics"' }).end('Metrics token is missing or not valid.\n');
      return;
    }
    options.metrics.render().then(
      (text) => res.writeHead(200, { 'Content-Type': options.metrics.contentType, 'Cache-Control': 'no-store' }).end(text),
      (error: unknown) => {
        options.onError(error);
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
