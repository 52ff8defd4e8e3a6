/**
 * Callbacks under SALE load: the gateway (role all, as `npm start` runs it) takes the same SALE load
 * as the SALE benchmark, every SALE naming a local receiver as its notification_url. Measured:
 * callbacks delivered per second while the load runs, and for each callback the delay from the
 * append of the payment's `PaymentSettled` (its `recorded_at` in the event store) to its arrival
 * at the receiver. Both clocks are this machine's wall clock.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BenchFailure, freePort, makeTempDir, removeTempDir, startGateway, startServer, stopServer, sleep, type ServerChild } from './children';
import { runLoad, saleBodyFactory, type LoadSummary } from './load';

export interface CallbackBenchResult {
  load: LoadSummary;
  salesSettled: number;
  callbacksReceived: number;
  duplicateDeliveries: number;
  /** Callbacks that arrived while the measured load ran, per second. */
  callbacksPerSecDuringLoad: number;
  delayMs: { p50: number; p90: number; p99: number; max: number; count: number };
  drainMs: number | null;
}

function getJson<T>(url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, timeout: 10_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as T);
          } catch (error) {
            reject(error);
          }
        });
      })
      .once('error', reject);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function benchCallbacks(
  settings: { durationS: number; connections: number; warmupS: number },
  runTag: string,
  gatewayEnv: NodeJS.ProcessEnv,
): Promise<CallbackBenchResult> {
  const dataDir = makeTempDir('gateway-bench-callbacks-');
  let gateway: ServerChild | null = null;
  let receiver: ServerChild | null = null;
  try {
    receiver = await startServer({ name: 'callback receiver', script: 'test/bench/callback-receiver-server.ts', env: { ...process.env }, port: await freePort() });
    gateway = await startGateway({
      name: 'gateway',
      env: { ...gatewayEnv, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' },
      port: await freePort(),
    });
    const merchant = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as { client_key: string; password: string };
    const bodies = saleBodyFactory({ clientKey: merchant.client_key, password: merchant.password }, `${runTag}-cb`, {
      notification_url: `${receiver.baseUrl}/callbacks`,
    });
    const url = `${gateway.baseUrl}/post`;
    const warm = await runLoad({ url, connections: settings.connections, durationS: settings.warmupS, nextBody: bodies.next });
    const startedAt = Date.now();
    const load = await runLoad({ url, connections: settings.connections, durationS: settings.durationS, nextBody: bodies.next });
    const stoppedAt = Date.now();
    const sales = warm.requestsTotal + load.requestsTotal;

    // Drain: every settled SALE owes the receiver one callback.
    let arrivals: Array<[string, number, string]> = [];
    let drainMs: number | null = null;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      arrivals = await getJson(`${receiver.baseUrl}/stats`);
      if (arrivals.length >= sales) {
        drainMs = Date.now() - stoppedAt;
        break;
      }
      await sleep(50);
    }

    const db = new Database(path.join(dataDir, 'events.db'), { readonly: true, fileMustExist: true });
    let settledAt: Map<string, number>;
    try {
      const rows = db
        .prepare("select json_extract(data, '$.paymentId') as id, recorded_at as at from events where type = 'PaymentSettled'")
        .all() as Array<{ id: string; at: string }>;
      settledAt = new Map(rows.map((r) => [r.id, Date.parse(r.at)]));
    } finally {
      db.close();
    }

    const seen = new Set<string>();
    let duplicates = 0;
    const delays: number[] = [];
    let duringLoad = 0;
    for (const [transId, arrivedAt, deliveryId] of arrivals) {
      if (seen.has(deliveryId)) duplicates++;
      seen.add(deliveryId);
      if (arrivedAt >= startedAt && arrivedAt <= stoppedAt) duringLoad++;
      const appended = settledAt.get(transId);
      // Only the measured window's payments: warm-up callbacks say nothing about steady state.
      if (appended !== undefined && appended >= startedAt) delays.push(arrivedAt - appended);
    }
    if (delays.length === 0) throw new BenchFailure('no callback of the measured run arrived');
    delays.sort((a, b) => a - b);
    const r1 = (n: number) => Math.round(n * 10) / 10;
    return {
      load,
      salesSettled: settledAt.size,
      callbacksReceived: arrivals.length,
      duplicateDeliveries: duplicates,
      callbacksPerSecDuringLoad: duringLoad / ((stoppedAt - startedAt) / 1000),
      delayMs: {
        p50: r1(percentile(delays, 50)),
        p90: r1(percentile(delays, 90)),
        p99: r1(percentile(delays, 99)),
        max: r1(delays[delays.length - 1]),
        count: delays.length,
      },
      drainMs,
    };
  } finally {
    if (gateway) await stopServer(gateway);
    if (receiver) await stopServer(receiver);
    removeTempDir(dataDir);
  }
}
