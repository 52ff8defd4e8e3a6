/**
 * The group-commit floor: the least a SALE must cost while keeping every durability rule, in the
 * simplest design that does it. koa + koa-body parse the same form as the baseline; the Formula 1
 * hash is checked; three events of a real SALE's size (the order id's reservation, PaymentInitiated,
 * PaymentSettled) are appended under a unique (stream, version) into SQLite with WAL and
 * synchronous=FULL; every append that arrives in one event-loop turn shares one transaction,
 * committed on this (the HTTP) thread; the answer goes out only after its commit.
 *
 * It keeps no chain hashes, no projections, no payment logic: no gateway keeping the durability
 * rules can answer faster on the same machine. (It records the outcome with the intent, in one
 * commit; FLOOR_INTENT_FIRST below splits them.) Listens on PORT, HOST; its file is in DATA_DIR.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { constantTimeEqualHex, saleCardHash } from '../../src/domain/signatures';
import { BENCH_MERCHANT_PASSWORD, initiatedEventData } from './floor-events';

/**
 * FLOOR_INTENT_FIRST=1: the reservation and PaymentInitiated commit before the outcome is known,
 * and PaymentSettled in a commit of its own after them, as a gateway that must not lose a charge an
 * acquirer made has to: two commits on a SALE's path instead of one. Only for comparison; the goals
 * are set against the floor without it.
 */
const INTENT_FIRST = process.env.FLOOR_INTENT_FIRST === '1';

const db = new Database(path.join(process.env.DATA_DIR ?? '.', 'floor-events.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id TEXT NOT NULL, version INTEGER NOT NULL, event_id TEXT NOT NULL, type TEXT NOT NULL,
  data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL,
  UNIQUE (stream_id, version), UNIQUE (event_id))`);
const insert = db.prepare('INSERT INTO events (stream_id, version, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');

type Row = [stream: string, version: number, id: string, type: string, data: string, metadata: string];
interface Pending {
  rows: Row[];
  done(error: unknown): void;
}

let queue: Pending[] = [];
let flushScheduled = false;

/** One transaction, one fsync, for every SALE of this turn; a SALE whose rows clash fails alone. */
const commitBatch = db.transaction((batch: Pending[], recordedAt: string): unknown[] =>
  batch.map(({ rows }) => {
    try {
      db.transaction(() => {
        for (const r of rows) insert.run(r[0], r[1], r[2], r[3], r[4], r[5], recordedAt);
      })();
      return null;
    } catch (error) {
      return error;
    }
  }),
);

/** Transactions committed so far: /health tells them, for the tests. */
let commits = 0;

function flush(): void {
  flushScheduled = false;
  commits++;
  const batch = queue;
  queue = [];
  let outcomes: unknown[];
  try {
    outcomes = commitBatch.immediate(batch, new Date().toISOString());
  } catch (error) {
    outcomes = batch.map(() => error);
  }
  batch.forEach((pending, i) => pending.done(outcomes[i]));
}

function append(rows: Row[]): Promise<void> {
  return new Promise((resolve, reject) => {
    queue.push({ rows, done: (error) => (error ? reject(error) : resolve()) });
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  });
}

const app = new Koa();
app.use(koaBody({ urlencoded: true, json: false, multipart: false, text: false, formLimit: '128kb' }));
app.use(async (ctx) => {
  if (ctx.path === '/health') {
    ctx.body = { status: 'ok', commits };
    return;
  }
  const body = (ctx.request as { body?: Record<string, string> }).body ?? {};
  const expected = saleCardHash({ payerEmail: body.payer_email, password: BENCH_MERCHANT_PASSWORD, cardNumber: body.card_number ?? '' });
  if (!constantTimeEqualHex(expected, body.hash ?? '')) {
    ctx.body = { result: 'ERROR', error_message: 'Hash mismatch' };
    return;
  }
  const paymentId = randomUUID();
  const now = new Date().toISOString();
  const meta = JSON.stringify({ causationId: paymentId, correlationId: paymentId });
  const payment = `payment-${paymentId}`;
  const settled = { amount: 1000, arn: '72331099980063992624888', descriptor: 'SANDBOX*GATEWAY', paymentId, reference: `sbx_success_${paymentId.slice(0, 16)}`, rrn: '609682180708', settledAt: now };
  const intent: Row[] = [
    [`order-m1-${body.order_id}`, 0, randomUUID(), 'OrderIdReserved', JSON.stringify({ merchantId: 'm1', orderId: body.order_id, paymentId, reservedAt: now }), meta],
    [payment, 0, randomUUID(), 'PaymentInitiated', JSON.stringify(initiatedEventData(paymentId, body, now)), meta],
  ];
  const outcome: Row = [payment, 1, randomUUID(), 'PaymentSettled', JSON.stringify(settled), meta];
  if (INTENT_FIRST) {
    await append(intent);
    await append([outcome]);
  } else {
    await append([...intent, outcome]);
  }
  ctx.body = { action: body.action ?? null, result: 'SUCCESS', status: 'SETTLED', order_id: body.order_id ?? null, trans_id: paymentId };
});

const port = Number(process.env.PORT || '0');
const host = process.env.HOST || '127.0.0.1';
const server = app.listen(port, host, () => {
  const address = server.address();
  process.stdout.write(`group-commit floor listening on ${host}:${address && typeof address === 'object' ? address.port : port}\n`);
});
server.keepAliveTimeout = 65_000;

const stop = () =>
  server.close(() => {
    if (queue.length > 0) flush();
    db.close();
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
