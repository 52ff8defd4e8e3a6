/**
 * Open-loop load: requests sent at evenly spaced instants, whatever the server does, and each
 * request's latency measured from the instant it was scheduled, not from when it left. A server
 * that stalls therefore shows the stall in every request that waited behind it (a closed loop, or a
 * generator that sends in bursts, would hide it by simply sending less).
 *
 * The sender keeps a pool of kept-alive sockets large enough that a request never waits for a free
 * socket on the client side (lean-http-client.ts: the load shares the server's cores, so the
 * sender spends as little CPU per request as it can); the schedule is a fixed rate from one start
 * instant, and a sender that falls behind (its own event loop busy) sends the overdue requests at
 * once, their latency still counted from their scheduled instants.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { LeanHttpClient } from './lean-http-client';

export interface OpenLoopRun {
  url: string;
  /** Requests per second. */
  rate: number;
  durationS: number;
  nextBody: () => string;
  contentType?: string;
  /** A 2xx body that counts as a success contains this. */
  successMarker?: string;
}

export interface OpenLoopSummary {
  rate: number;
  durationS: number;
  sent: number;
  completed: number;
  errors: number;
  /** Milliseconds from each request's scheduled instant to its complete answer. */
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  /** How late the sender itself was in sending (its own event loop), p99 in milliseconds. */
  senderLagP99Ms: number;
  badSamples: string[];
}

/** Posts, at each scheduled instant, how many requests are due by then. */
const CLOCK_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { startAbs, intervalMs, total } = workerData;
const cell = new Int32Array(new SharedArrayBuffer(4));
let posted = 0;
while (posted < total) {
  const now = performance.timeOrigin + performance.now();
  const due = Math.min(total, Math.floor((now - startAbs) / intervalMs) + 1);
  if (due > posted) {
    posted = due;
    parentPort.postMessage(due);
    continue;
  }
  Atomics.wait(cell, 0, 0, startAbs + posted * intervalMs - now);
}
`;

export async function runOpenLoop(run: OpenLoopRun): Promise<OpenLoopSummary> {
  const client = new LeanHttpClient(new URL(run.url), run.contentType ?? 'application/x-www-form-urlencoded');
  const marker = run.successMarker ?? '"result":"SUCCESS"';
  const intervalMs = 1000 / run.rate;
  const total = Math.round(run.rate * run.durationS);
  const latencies: number[] = [];
  const senderLag: number[] = [];
  const badSamples: string[] = [];
  let errors = 0;
  let sent = 0;
  let done = 0;

  const send = (scheduledAt: number) => {
    const body = run.nextBody();
    senderLag.push(performance.now() - scheduledAt);
    client.post(body).then(
      ({ status, body: text }) => {
        if (status >= 200 && status < 300 && text.includes(marker)) latencies.push(performance.now() - scheduledAt);
        else {
          errors++;
          if (badSamples.length < 5) badSamples.push(`${status} ${text.slice(0, 200)}`);
        }
        done++;
      },
      (error: unknown) => {
        errors++;
        done++;
        if (badSamples.length < 5) badSamples.push(String(error));
      },
    );
  };

  // The instants are kept by a clock thread that sleeps in Atomics.wait until each one: exact to a
  // fraction of a millisecond without spinning, so the sender does not take a core from the
  // gateway it measures (on 2 cores a spinning sender doubled the p50 at 300/s).
  const startAbs = performance.timeOrigin + performance.now() + 20;
  const startLocal = startAbs - performance.timeOrigin;
  const clock = new Worker(CLOCK_THREAD, { eval: true, workerData: { startAbs, intervalMs, total } });
  await new Promise<void>((resolve, reject) => {
    clock.on('message', (due: number) => {
      // Every request whose instant has come goes now, in order.
      while (sent < due) send(startLocal + sent++ * intervalMs);
      if (sent >= total) resolve();
    });
    clock.on('error', reject);
    clock.on('exit', () => (sent >= total ? resolve() : reject(new Error('the open-loop clock thread stopped early'))));
  });
  const deadline = performance.now() + 30_000;
  while (done < sent && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  client.close();
  return {
    rate: run.rate,
    durationS: run.durationS,
    sent,
    completed: latencies.length,
    errors: errors + (sent - done),
    latencyMs: summarise(latencies),
    senderLagP99Ms: summarise(senderLag).p99,
    badSamples,
  };
}

function summarise(values: number[]): OpenLoopSummary['latencyMs'] {
  if (values.length === 0) return { p50: NaN, p90: NaN, p99: NaN, p999: NaN, max: NaN, mean: NaN };
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => round2(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!);
  let sum = 0;
  for (const v of sorted) sum += v;
  return { p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max: round2(sorted[sorted.length - 1]!), mean: round2(sum / sorted.length) };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
