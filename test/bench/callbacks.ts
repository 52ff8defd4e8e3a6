/**
 * Callbacks under SALE load: the gateway (role all, as `npm start` runs it) takes the same SALE load
 * as the SALE benchmark, every SALE naming a local receiver as its notification_url. Measured:
 * callbacks delivered per second while the load runs, and for each callback the delay from the
 * append of the payment's `PaymentSettled` (its `recorded_at` in the event store) to its arrival
 * at the receiver, split where the notifier records the delivery: from that append to the append of
 * the delivery's `CallbackScheduled` (the notifier seeing the event and its scheduling append
 * reaching the writer), and from there to the arrival (the scheduling commit, the send and the
 * receiver). Every clock is this machine's wall clock.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BenchFailure, freePort, makeTempDir, removeTempDir, startGateway, startServer, stopServer, sleep, type ServerChild } from './children';
import { nearestRank, runLoad, saleBodyFactory, type LoadSummary } from './load';

/** Percentiles of one delay, in ms. */
export interface DelaySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  count: number;
}

/** One callback's instants (ms since the epoch): its payment's settlement appended, its delivery scheduled, its arrival. */
export interface CallbackInstants {
  settledAt: number;
  scheduledAt: number;
  arrivedAt: number;
}

export interface CallbackBenchResult {
  load: LoadSummary;
  salesSettled: number;
  callbacksReceived: number;
  duplicateDeliveries: number;
  /** Callbacks that arrived while the measured load ran, per second. */
  callbacksPerSecDuringLoad: number;
  delayMs: DelaySummary;
  /** The same callbacks' delay in two legs: settlement to scheduling, scheduling to arrival. */
  legsMs: { scheduling: DelaySummary; sending: DelaySummary };
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

const r1 = (n: number) => Math.round(n * 10) / 10;

function summarise(values: number[]): DelaySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: r1(nearestRank(sorted, 50)),
    p90: r1(nearestRank(sorted, 90)),
    p99: r1(nearestRank(sorted, 99)),
    max: r1(sorted[sorted.length - 1]),
    count: sorted.length,
  };
}

/** The delay from settlement to arrival, and its two legs, over the same callbacks. */
export function callbackDelays(callbacks: CallbackInstants[]): { total: DelaySummary; scheduling: DelaySummary; sending: DelaySummary } {
  return {
    total: summarise(callbacks.map((c) => c.arrivedAt - c.settledAt)),
    scheduling: summarise(callbacks.map((c) => c.scheduledAt - c.settledAt)),
    sending: summarise(callbacks.map((c) => c.arrivedAt - c.scheduledAt)),
  };
}

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
    // Each settled payment, and when its callback's delivery was scheduled (the delivery names the
    // payment event it reports).
    let settled: Map<string, { settledAt: number; scheduledAt: number | undefined }>;
    try {
      const scheduled = new Map(
        (db.prepare("select json_extract(data, '$.sourceEventId') as source, recorded_at as at from events where type = 'CallbackScheduled'").all() as Array<{ source: string; at: string }>).map(
          (r) => [r.source, Date.parse(r.at)],
        ),
      );
      const rows = db
        .prepare("select event_id as event, json_extract(data, '$.paymentId') as id, recorded_at as at from events where type = 'PaymentSettled'")
        .all() as Array<{ event: string; id: string; at: string }>;
      settled = new Map(rows.map((r) => [r.id, { settledAt: Date.parse(r.at), scheduledAt: scheduled.get(r.event) }]));
    } finally {
      db.close();
    }

    const seen = new Set<string>();
    let duplicates = 0;
    const measured: CallbackInstants[] = [];
    let duringLoad = 0;
    for (const [transId, arrivedAt, deliveryId] of arrivals) {
      if (seen.has(deliveryId)) duplicates++;
      seen.add(deliveryId);
      if (arrivedAt >= startedAt && arrivedAt <= stoppedAt) duringLoad++;
      const payment = settled.get(transId);
      // Only the measured window's payments: warm-up callbacks say nothing about steady state.
      if (payment?.scheduledAt !== undefined && payment.settledAt >= startedAt) measured.push({ settledAt: payment.settledAt, scheduledAt: payment.scheduledAt, arrivedAt });
    }
    if (measured.length === 0) throw new BenchFailure('no callback of the measured run arrived');
    const delays = callbackDelays(measured);
    return {
      load,
      salesSettled: settled.size,
      callbacksReceived: arrivals.length,
      duplicateDeliveries: duplicates,
      callbacksPerSecDuringLoad: duringLoad / ((stoppedAt - startedAt) / 1000),
      delayMs: delays.total,
      legsMs: { scheduling: delays.scheduling, sending: delays.sending },
      drainMs,
    };
  } finally {
    if (gateway) await stopServer(gateway);
    if (receiver) await stopServer(receiver);
    removeTempDir(dataDir);
  }
}
