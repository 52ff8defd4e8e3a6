/**
 * The baseline for the benchmark: the least a koa server can do for a form POST. It parses the
 * url-encoded body with koa-body and answers a small JSON, nothing else (no logging, no storage).
 * Run as a child process by `run.ts` so it gets a core of its own; listens on PORT, HOST.
 */
import Koa from 'koa';
import { koaBody } from 'koa-body';

const app = new Koa();
app.use(koaBody({ urlencoded: true, json: false, multipart: false, text: false, formLimit: '128kb' }));
app.use((ctx) => {
  if (ctx.path === '/health') {
    ctx.body = { status: 'ok' };
    return;
  }
  const body = (ctx.request as { body?: Record<string, unknown> }).body ?? {};
  ctx.body = { action: body.action ?? null, order_id: body.order_id ?? null, result: 'SUCCESS' };
});

const port = Number(process.env.PORT || '0');
const host = process.env.HOST || '127.0.0.1';
const server = app.listen(port, host, () => {
  const address = server.address();
  process.stdout.write(`baseline listening on ${host}:${address && typeof address === 'object' ? address.port : port}\n`);
});
server.keepAliveTimeout = 65_000;

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
