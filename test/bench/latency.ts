/**
 * The latency a merchant feels: SALE sent open-loop (evenly spaced, latency from each request's
 * scheduled instant, see open-loop.ts) at fixed rates against the gateway as `npm start` runs it
 * (compiled JavaScript, role all, embedded SQLite, fresh data directory), or against the floor
 * servers (floor-server.ts, group-commit-floor-server.ts) with BENCH_LATENCY_SERVER=floor or
 * group-commit-floor.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { threadCpuSeconds, type ThreadCpu } from '../../src/adapters/os/linux-threads';
import { BenchFailure, REPO_ROOT, freePort, makeTempDir, removeTempDir, startGateway, startServer, stopServer, type ServerChild } from './children';
import { BENCH_MERCHANT_CLIENT_KEY, BENCH_MERCHANT_PASSWORD } from './floor-events';
import { saleBodyFactory } from './load';
import { runOpenLoop, type OpenLoopSummary } from './open-loop';

export interface LatencyResult {
  rate: number;
  summary: OpenLoopSummary;
  /**
   * CPU time per answered request while the rate ran: the server's, by thread (its threads name
   * themselves, linux-threads.ts), and the sender's (this process: the clock thread and the HTTP
   * client). Null off Linux.
   */
  cpu: CpuPerRequest | null;
  /** The first rate's warm-up from start (startupWarmupS), when one was asked for. */
  startup?: { warmupS: number; latencyMs: OpenLoopSummary['latencyMs'] };
}

export interface CpuPerRequest {
  /** Milliseconds per request by server thread: main, writer, projector, notifier, workers, runtime. */
  byThread: Record<string, number>;
  /** All of the server's threads. */
  serverMs: number;
  /** The open-loop sender in this process. */
  senderMs: number;
  /** Cores the server and sender together keep busy at this rate. */
  coresAtRate: number;
}

export function cpuPerRequest(rate: number, requests: number, before: ThreadCpu[] | null, after: ThreadCpu[] | null, sender: NodeJS.CpuUsage): CpuPerRequest | null {
  if (!before || !after || requests === 0) return null;
  const byThread: Record<string, number> = {};
  let serverMs = 0;
  for (const { thread, seconds } of after) {
    const ms = ((seconds - (before.find((b) => b.thread === thread)?.seconds ?? 0)) * 1000) / requests;
    byThread[thread] = round3(ms);
    serverMs += ms;
  }
  const senderMs = (sender.user + sender.system) / 1000 / requests;
  return { byThread, serverMs: round3(serverMs), senderMs: round3(senderMs), coresAtRate: round3(((serverMs + senderMs) * rate) / 1000) };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** `main 1.18 · writer 0.55 · ...` in descending order. */
export function describeCpu(cpu: CpuPerRequest): string {
  const threads = Object.entries(cpu.byThread)
    .sort((a, b) => b[1] - a[1])
    .map(([thread, ms]) => `${thread} ${ms.toFixed(2)}`)
    .join(' · ');
  return `${cpu.serverMs.toFixed(2)} ms (${threads}), sender ${cpu.senderMs.toFixed(2)} ms`;
}

/** Compiles dist/ the way `npm start` does, so the gateway child runs what production runs. */
export function buildDist(): void {
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'src/cli/launch.cjs'), 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new BenchFailure(`building dist/ failed: ${r.stderr || r.stdout}`);
}

export interface LatencyOptions {
  rates: number[];
  durationS: number;
  /** Warm-up before each rate after the first. */
  warmupS: number;
  /**
   * Warm-up of a freshly started server before its first rate, at that rate. Its figures are
   * printed too: they are what a merchant feels in the first seconds after a start.
   */
  startupWarmupS?: number;
  env?: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /**
   * `gateway` (default): the gateway as `npm start` runs it. `floor`: floor-server.ts, koa plus the
   * two durable appends of a SALE and nothing else, for where the durability rules alone put latency.
   * `group-commit-floor`: group-commit-floor-server.ts, the same rules committed on the HTTP thread.
   */
  server?: 'gateway' | FloorName;
}

/**
 * A fresh process compiles its hot code in its first seconds: at 300/s the JIT's background
 * threads spent about 1.1 s of CPU in the first 10 s after a 3 s warm-up, 0.13 s in the next 10 s
 * and 0.03-0.12 s in each 10 s after that, on all five JavaScript threads' code.
 * 15 s at the first rate covers it, so the measured run is the steady state a merchant meets.
 */
export const STARTUP_WARMUP_S = 15;

/** Warm-up before each later rate: the server is warm by then, the new rate's queue is not. */
export const NEXT_RATE_WARMUP_S = 3;

export type FloorName = 'floor' | 'group-commit-floor';
const FLOOR_SCRIPTS: Record<FloorName, string> = { floor: 'test/bench/floor-server.ts', 'group-commit-floor': 'test/bench/group-commit-floor-server.ts' };

export async function benchLatency(options: LatencyOptions): Promise<LatencyResult[]> {
  const floor = options.server !== undefined && options.server !== 'gateway';
  if (!floor) buildDist();
  const dataDir = makeTempDir('gateway-latency-');
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' };
  for (const name of ['EVENT_STORE', 'DATABASE_URL', 'ESDB_URL', 'PUBLIC_BASE_URL']) if (!options.env?.[name]) delete env[name];
  let server: ServerChild | null = null;
  try {
    server = floor
      ? await startServer({ name: options.server!, script: FLOOR_SCRIPTS[options.server as FloorName], env, port: await freePort() })
      : await startGateway({ name: 'gateway', env, port: await freePort() });
    // The floor server checks no credentials; its bodies have the SALE's shape and size all the same.
    const merchant = floor
      ? { client_key: BENCH_MERCHANT_CLIENT_KEY, password: BENCH_MERCHANT_PASSWORD }
      : (JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as { client_key: string; password: string });
    const bodies = saleBodyFactory({ clientKey: merchant.client_key, password: merchant.password }, `lat${Date.now().toString(36)}`);
    const url = `${server.baseUrl}/post`;
    const results: LatencyResult[] = [];
    for (const [index, rate] of options.rates.entries()) {
      const warmupS = index === 0 ? (options.startupWarmupS ?? options.warmupS) : options.warmupS;
      const warm = await runOpenLoop({ url, rate, durationS: warmupS, nextBody: bodies.next });
      const startup = index === 0 && options.startupWarmupS !== undefined ? { warmupS, latencyMs: warm.latencyMs } : undefined;
      if (startup) {
        const w = startup.latencyMs;
        options.log(`  warm-up, the first ${warmupS} s after start at ${rate}/s: p50 ${w.p50} ms, p99 ${w.p99} ms, p99.9 ${w.p999} ms, max ${w.max} ms`);
      }
      const pid = server.child.pid!;
      const threadsBefore = threadCpuSeconds(pid);
      const senderBefore = process.cpuUsage();
      const summary = await runOpenLoop({ url, rate, durationS: options.durationS, nextBody: bodies.next });
      const cpu = cpuPerRequest(rate, summary.completed, threadsBefore, threadCpuSeconds(pid), process.cpuUsage(senderBefore));
      const l = summary.latencyMs;
      options.log(
        `  ${rate}/s for ${options.durationS} s: p50 ${l.p50} ms, p99 ${l.p99} ms, p99.9 ${l.p999} ms, max ${l.max} ms; ` +
          `${summary.completed}/${summary.sent} ok, ${summary.errors} errors, sender lag p99 ${summary.senderLagP99Ms} ms`,
      );
      if (cpu) options.log(`    CPU per request: ${describeCpu(cpu)}; ${cpu.coresAtRate.toFixed(2)} cores busy at ${rate}/s`);
      results.push({ rate, summary, cpu, ...(startup ? { startup } : {}) });
    }
    return results;
  } finally {
    if (server) await stopServer(server);
    removeTempDir(dataDir);
  }
}

if (require.main === module) {
  const rates = (process.env.BENCH_RATES ?? '300,1000').split(',').map(Number);
  const asked = process.env.BENCH_LATENCY_SERVER;
  const server = asked === 'floor' || asked === 'group-commit-floor' ? asked : 'gateway';
  benchLatency({ rates, durationS: Number(process.env.BENCH_DURATION_S ?? 20), warmupS: NEXT_RATE_WARMUP_S, startupWarmupS: STARTUP_WARMUP_S, log: (line) => console.log(line), server }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
