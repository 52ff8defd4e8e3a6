/**
 * Start-up: the gateway as `npm start` runs it (compiled, role all, embedded SQLite), started on a
 * fresh data directory several times. Measured: the time from spawning the process to its first
 * 200 on GET /health, then, once it has been idle for a few seconds, the CPU its threads spent
 * getting there (Linux: read per thread from /proc) and its resident memory. This is what every
 * restart and deployment costs, and what each thread pays for the modules it loads.
 */
import fs from 'node:fs';
import { threadCpuSeconds } from '../../src/adapters/os/linux-threads';
import { freePort, makeTempDir, removeTempDir, sleep, startGateway, stopServer, type ServerChild } from './children';
import { buildDist } from './latency';
import { nearestRank } from './load';

export interface StartupRun {
  healthMs: number;
  /** CPU seconds of every thread once idle, by thread name; null off Linux. */
  cpuSeconds: Record<string, number> | null;
  /** Resident memory once idle, MB; null off Linux. */
  rssMb: number | null;
}

export interface StartupResult {
  runs: StartupRun[];
  median: { healthMs: number; cpuSeconds: number | null; rssMb: number | null };
}

const IDLE_AFTER_HEALTH_MS = 3_000;

/** The bench's one percentile rule (nearest rank), at 50. */
function median(values: number[]): number {
  return nearestRank([...values].sort((a, b) => a - b), 50);
}

function rssMbOf(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Math.round(Number(kb) / 1024);
  } catch {
    return null;
  }
}

export async function benchStartup(options: { starts: number; env: NodeJS.ProcessEnv; log(line: string): void }): Promise<StartupResult> {
  buildDist();
  const runs: StartupRun[] = [];
  for (let i = 0; i < options.starts; i++) {
    const dataDir = makeTempDir('gateway-startup-');
    let server: ServerChild | null = null;
    try {
      const spawnedAt = Date.now();
      server = await startGateway({ name: 'gateway', env: { ...options.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' }, port: await freePort() });
      const healthMs = Date.now() - spawnedAt;
      await sleep(IDLE_AFTER_HEALTH_MS);
      const pid = server.child.pid!;
      const threads = threadCpuSeconds(pid);
      const run: StartupRun = {
        healthMs,
        cpuSeconds: threads && Object.fromEntries(threads.map((t) => [t.thread, Math.round(t.seconds * 100) / 100])),
        rssMb: rssMbOf(pid),
      };
      runs.push(run);
      const cpu = run.cpuSeconds ? Object.entries(run.cpuSeconds).map(([thread, s]) => `${thread} ${s.toFixed(2)}`).join(' · ') : 'n/a';
      options.log(`  start ${i + 1}: /health after ${healthMs} ms; CPU once idle ${totalCpu(run)?.toFixed(2) ?? 'n/a'} s (${cpu}); RSS ${run.rssMb ?? 'n/a'} MB`);
    } finally {
      if (server) await stopServer(server);
      removeTempDir(dataDir);
    }
  }
  const cpus = runs.map(totalCpu).filter((c): c is number => c !== null);
  const rss = runs.map((r) => r.rssMb).filter((r): r is number => r !== null);
  return {
    runs,
    median: {
      healthMs: median(runs.map((r) => r.healthMs)),
      cpuSeconds: cpus.length === runs.length ? Math.round(median(cpus) * 100) / 100 : null,
      rssMb: rss.length === runs.length ? median(rss) : null,
    },
  };
}

function totalCpu(run: StartupRun): number | null {
  return run.cpuSeconds && Object.values(run.cpuSeconds).reduce((a, b) => a + b, 0);
}

if (require.main === module) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['EVENT_STORE', 'DATABASE_URL', 'ESDB_URL', 'PUBLIC_BASE_URL']) delete env[name];
  benchStartup({ starts: Number(process.env.BENCH_STARTS ?? 5), env, log: (line) => console.log(line) })
    .then((result) => console.log(`  median: /health after ${result.median.healthMs} ms, CPU ${result.median.cpuSeconds ?? 'n/a'} s, RSS ${result.median.rssMb ?? 'n/a'} MB`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
