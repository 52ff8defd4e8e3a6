/**
 * Open-loop load: requests sent at evenly spaced instants, whatever the server does, and each
 * request's latency measured from the instant it was scheduled, not from when it left. A server
 * that stalls therefore shows the stall in every request that waited behind it (a closed loop, or a
 * generator that sends in bursts, would hide it by simply sending less).
 *
 * The sender keeps a pool of kept-alive sockets large enough that a request never waits for a free
 * socket on the client side; the schedule is a fixed rate from one start instant, and a sender that
 * falls behind (its own event loop busy) sends the overdue requests at once, their latency still
 * counted from their scheduled instants.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

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

export async function runOpenLoop(run: OpenLoopRun): Promise<OpenLoopSummary> {
  const target = new URL(run.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
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
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': run.contentType ?? 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const ok = res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300 && text.includes(marker);
          if (ok) latencies.push(performance.now() - scheduledAt);
          else {
            errors++;
            if (badSamples.length < 5) badSamples.push(`${res.statusCode} ${text.slice(0, 200)}`);
          }
          done++;
        });
      },
    );
    req.on('error', (error) => {
      errors++;
      done++;
      if (badSamples.length < 5) badSamples.push(String(error));
    });
    req.end(body);
  };

  const start = performance.now() + 20;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Every request whose instant has come goes now, in order.
      while (sent < total && start + sent * intervalMs <= now) send(start + sent++ * intervalMs);
      if (sent >= total) return resolve();
      const wait = start + sent * intervalMs - performance.now();
      // Timers are coarse: sleep to just before the next instant, then spin the last stretch.
      if (wait > 2) setTimeout(tick, wait - 1.5);
      else setImmediate(tick);
    };
    tick();
  });
  const deadline = performance.now() + 30_000;
  while (done < sent && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  agent.destroy();
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
