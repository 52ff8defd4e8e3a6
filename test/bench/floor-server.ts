/**
 * The floor under a SALE: what any design keeping this gateway's durability rules must do per
 * request, and nothing else. koa + koa-body parse the same form as the baseline, then the request
 * makes the two durable appends a SALE needs, through the gateway's own SQLite event store on its
 * writer thread: the order reservation with the payment's intent (before the acquirer is asked),
 * then the outcome (before the merchant is answered), with events of a real SALE's size and shape.
 * No validation, no hashing of the form, no payment logic, no acquirer, no projections, no notifier.
 *
 * `open loop` latency of this server, next to the gateway's, shows how much of a SALE's latency the
 * durability rules themselves cost on the machine at hand. Listens on PORT, HOST; events in DATA_DIR.
 *
 * FLOOR_EXTRA_WORK_US (default 0): microseconds the HTTP thread stays busy on every SALE before its
 * appends, standing for whatever a real gateway does per request beyond parsing and the appends
 * (checking the merchant, the fields and the signature, deciding, answering). The bench runs the
 * floor with a little of it to show how much room a target leaves above the floor.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { NO_STREAM, exactly } from '../../src/application/ports/event-store';
import { initiatedEventData } from './floor-events';

const extraWorkMs = Number(process.env.FLOOR_EXTRA_WORK_US ?? 0) / 1000;

const store = new SqliteEventStore({ filename: path.join(process.env.DATA_DIR ?? '.', 'events.db'), writerThread: true });

const app = new Koa();
app.use(koaBody({ urlencoded: true, json: false, multipart: false, text: false, formLimit: '128kb' }));
app.use(async (ctx) => {
  if (ctx.path === '/health') {
    ctx.body = { status: 'ok' };
    return;
  }
  const body = (ctx.request as { body?: Record<string, string> }).body ?? {};
  if (extraWorkMs > 0) busyFor(extraWorkMs);
  const paymentId = randomUUID();
  const now = new Date().toISOString();
  const requestId = randomUUID();
  const meta = { causationId: requestId, correlationId: requestId };
  await store.appendMultiple([
    {
      streamId: `order-m1-${body.order_id}`,
      expected: NO_STREAM,
      events: [{ id: randomUUID(), type: 'OrderIdReserved', schemaVersion: 1, data: { merchantId: 'm1', orderId: body.order_id, paymentId, reservedAt: now }, metadata: meta }],
    },
    {
      streamId: `payment-${paymentId}`,
      expected: NO_STREAM,
      events: [{ id: randomUUID(), type: 'PaymentInitiated', schemaVersion: 1, data: initiatedEventData(paymentId, body, now), metadata: meta }],
    },
  ]);
  await store.append(
    `payment-${paymentId}`,
    [{ id: randomUUID(), type: 'PaymentSettled', schemaVersion: 1, data: { amount: 1000, arn: '72331099980063992624888', descriptor: 'SANDBOX*GATEWAY', paymentId, reference: `sbx_success_${paymentId.slice(0, 16)}`, rrn: '609682180708', settledAt: now }, metadata: meta }],
    exactly(0n),
  );
  ctx.body = { action: body.action ?? null, result: 'SUCCESS', status: 'SETTLED', order_id: body.order_id ?? null, trans_id: paymentId };
});

/** Keeps this thread busy, as work would: nothing else runs on it meanwhile. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

const port = Number(process.env.PORT || '0');
const host = process.env.HOST || '127.0.0.1';
const server = app.listen(port, host, () => {
  const address = server.address();
  process.stdout.write(`floor listening on ${host}:${address && typeof address === 'object' ? address.port : port}\n`);
});
server.keepAliveTimeout = 65_000;

const stop = () => server.close(() => void store.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
