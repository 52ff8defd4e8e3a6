/**
 * Scheduled payments: seed N recurring chains (BENCH_SCHEDULED_CHAINS, default 10,000) whose first
 * automatic payment falls due on the same day, move the clock past it, and time one scheduler run
 * making all of them (claim + payment in one transaction, then the sandbox acquirer, then the
 * outcome). Runs in a child process on a fresh SQLite store, as the embedded default does.
 *
 * Part of `npm run bench`; alone: `tsx test/bench/scheduled.ts`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { BenchFailure, REPO_ROOT, makeTempDir, removeTempDir } from './children';

const CHILD_FLAG = '--scheduled-child';
const STORE_ENV_VARS = ['EVENT_STORE', 'DATABASE_URL', 'ESDB_URL', 'VAULT_KEY', 'GATEWAY_ENV', 'SANDBOX_LATENCY_MS'];

export interface ScheduledFigures {
  chains: number;
  seedSeconds: number;
  runSeconds: number;
  paymentsPerSecond: number;
  charged: number;
  settled: number;
  concurrency: number;
  peakRssMb: number;
}

async function child(): Promise<void> {
  const { buildGateway } = await import('../../src/composition');
  const { loadConfig } = await import('../../src/config');
  const { startChain } = await import('../support/recurring-chains');
  const chains = Number(process.env.BENCH_SCHEDULED_CHAINS ?? 10_000);
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset) };
  const g = await buildGateway(loadConfig({ ...process.env, GATEWAY_ENV: 'sandbox', EVENT_STORE: 'sqlite', VAULT_KEY: randomBytes(32).toString('hex') }), {
    withProjector: true,
    writerThread: true,
    clock,
  });
  try {
    await g.projector!.start();
    const merchant = await g.merchants.register({ name: 'Bench merchant' });
    const schedule = await g.schedules.create(
      merchant.merchant_id,
      { name: 'Monthly', rule: { intervalLength: 1, intervalUnit: 'month', paymentsCount: 12, delayedFirstPayment: { kind: 'by_interval', length: 1, unit: 'day' } } },
      'bench',
    );
    const seedStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < chains) {
          next++;
          await startChain(g, merchant.merchant_id, { scheduleId: schedule.scheduleId });
        }
      }),
    );
    const seedSeconds = (performance.now() - seedStart) / 1000;
    await g.projector!.catchUp();
    // As in `npm start` (projector on a thread of its own) or the scheduler role (projector in
    // another process): the scheduler's event loop is its own during the run.
    await g.projector!.stop();
    offset = 2 * 86_400_000; // every chain's first automatic payment is now due
    const runStart = performance.now();
    const run = await g.scheduler.runDue();
    const runSeconds = (performance.now() - runStart) / 1000;
    await g.projector!.start();
    await g.projector!.catchUp();
    const row = await g.readDb
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'SETTLED')
      .where('amount', '=', 999)
      .executeTakeFirst();
    const settled = Number(row?.n ?? 0) - chains; // the chains' own first payments are settled too
    process.stdout.write(
      JSON.stringify({ chains, seedSeconds, runSeconds, charged: run.charged, settled, maxRssKb: Math.round(process.resourceUsage().maxRSS) }),
    );
  } finally {
    await g.close();
  }
}

function runChild(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', 'test/bench/scheduled.ts', CHILD_FLAG], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    c.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-16_384)));
    c.once('error', reject);
    c.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function benchScheduled(options: { chains: number; log(line?: string): void }): Promise<ScheduledFigures> {
  const dataDir = makeTempDir('gateway-scheduled-');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error', BENCH_SCHEDULED_CHAINS: String(options.chains) };
  for (const name of STORE_ENV_VARS) delete env[name];
  try {
    options.log(`Scheduled payments: ${options.chains.toLocaleString('en-US')} chains falling due at once, one scheduler run (child process, SQLite)`);
    const result = await runChild(env);
    if (result.code !== 0) throw new BenchFailure(`scheduled-payments child exited with ${result.code}:\n${result.stderr || result.stdout}`);
    const r = JSON.parse(result.stdout) as { chains: number; seedSeconds: number; runSeconds: number; charged: number; settled: number; maxRssKb: number };
    if (r.charged !== r.chains || r.settled !== r.chains) {
      throw new BenchFailure(`scheduler made ${r.charged} payments (${r.settled} settled) for ${r.chains} due chains`);
    }
    const figures: ScheduledFigures = {
      chains: r.chains,
      seedSeconds: Math.round(r.seedSeconds * 100) / 100,
      runSeconds: Math.round(r.runSeconds * 100) / 100,
      paymentsPerSecond: Math.round(r.charged / r.runSeconds),
      charged: r.charged,
      settled: r.settled,
      concurrency: 16,
      peakRssMb: Math.round(r.maxRssKb / 1024),
    };
    options.log(
      `  seeded in ${figures.seedSeconds} s; ${figures.charged} scheduled payments (all settled) in ${figures.runSeconds} s: ` +
        `${figures.paymentsPerSecond.toLocaleString('en-US')} payments/s, peak RSS ${figures.peakRssMb} MB`,
    );
    return figures;
  } finally {
    removeTempDir(dataDir);
  }
}

if (require.main === module) {
  if (process.argv.includes(CHILD_FLAG)) {
    child().catch((error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
  } else {
    benchScheduled({ chains: Number(process.env.BENCH_SCHEDULED_CHAINS ?? 10_000), log: (line = '') => process.stdout.write(`${line}\n`) }).catch((error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
  }
}
