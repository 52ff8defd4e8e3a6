/**
 * The PostgreSQL deployment: SALE against api, projector and notifier as separate processes on one
 * PostgreSQL database (a fresh schema), the same load as the embedded run; and the event store's
 * raw append rate next to a minimal append loop of a published PostgreSQL event store library on the
 * same server (installed for the bench only, into a temporary folder, never a project dependency):
 * events per second, each append a new stream of 3 events, the same concurrency for both.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import { NO_STREAM } from '../../src/application/ports/event-store';
import { BenchFailure, REPO_ROOT, freePort, makeTempDir, removeTempDir, startServer, stopServer, type ServerChild } from './children';
import { buildDist } from './latency';
import { runLoad, saleBodyFactory, type LoadSummary } from './load';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The library compared against, pinned so runs compare like with like. */
const LIBRARY = ['@event-driven-io/emmett-postgresql@0.42.0', '@event-driven-io/emmett@0.42.0', '@event-driven-io/pongo@0.16.11', 'pg@8'];

export interface PostgresBench {
  sale: LoadSummary;
  /**
   * `ours` and `library`: the means of two runs each, taken ours, library, library, ours, so that a
   * database still busy after the SALE load (or a host slowing down) weighs on both alike.
   */
  appends: { ours: number; library: number | null; libraryError?: string; concurrency: number; durationS: number; runs: { ours: number[]; library: number[] } };
}

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh database of its own (each compared store creates its own tables in it). */
async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin((c) => c.query(`drop database if exists ${name} with (force)`));
  }
}

/** Appends of 3 events to new streams from `concurrency` loops for `durationS`: events per second. */
async function appendRate(append: (stream: string) => Promise<unknown>, concurrency: number, durationS: number): Promise<number> {
  const until = performance.now() + durationS * 1000;
  let appends = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await append(`bench-${randomUUID()}`);
        appends++;
      }
    }),
  );
  return Math.round((appends * 3) / durationS);
}

const EVENTS = (n: number) =>
  Array.from({ length: 3 }, (_, i) => ({ type: `BenchEvent${i}`, data: { n, i, amount: 1000 + i, note: 'a payment-sized event body of a few dozen bytes' } }));

async function ourAppends(concurrency: number, durationS: number): Promise<number> {
  return withDatabase(async (url) => {
    const store = await PostgresEventStore.create({ connectionString: url, poolSize: concurrency });
    try {
      await appendRate(
        (stream) =>
          store.append(
            stream,
            EVENTS(0).map((e) => ({ id: randomUUID(), type: e.type, schemaVersion: 1, data: e.data, metadata: { correlationId: stream, causationId: stream } })),
            NO_STREAM,
          ),
        concurrency,
        1,
      );
      return await appendRate(
        (stream) =>
          store.append(
            stream,
            EVENTS(0).map((e) => ({ id: randomUUID(), type: e.type, schemaVersion: 1, data: e.data, metadata: { correlationId: stream, causationId: stream } })),
            NO_STREAM,
          ),
        concurrency,
        durationS,
      );
    } finally {
      await store.close();
    }
  });
}

/** Installs the compared library once per machine into a folder of the bench's own. */
function installLibrary(): string {
  const dir = path.join(os.tmpdir(), 'gateway-bench-pg-library');
  const marker = path.join(dir, 'installed.json');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === JSON.stringify(LIBRARY)) return dir;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, ...LIBRARY], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`installing ${LIBRARY.join(' ')} failed: ${(r.stderr || r.stdout).slice(-500)}`);
  fs.writeFileSync(marker, JSON.stringify(LIBRARY));
  return dir;
}

const LIBRARY_CHILD_FLAG = '--library-appends';

/**
 * The library's append loop runs in a child process: its pool can keep idle connections after
 * `close()`, and the database's forced drop then ends them with an error event nobody in the
 * library listens to, which would stop the whole bench. A child's connections end with it.
 */
async function libraryAppends(concurrency: number, durationS: number): Promise<number> {
  const dir = installLibrary();
  return withDatabase(async (url) => {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'postgres.ts'), LIBRARY_CHILD_FLAG, dir, url, String(concurrency), String(durationS)],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: (durationS + 60) * 1000 },
    );
    const rate = Number(/^library events\/s: (\d+)$/m.exec(child.stdout ?? '')?.[1]);
    if (child.status !== 0 || !Number.isFinite(rate)) throw new Error(`the library's append loop failed: ${(child.stderr || child.stdout || '').slice(-300)}`);
    return rate;
  });
}

/** The child's side: appends through the library for `durationS` after a second's warm-up, then prints the rate. */
async function libraryAppendsChild(dir: string, url: string, concurrency: number, durationS: number): Promise<void> {
  const entry = require.resolve('@event-driven-io/emmett-postgresql', { paths: [dir] });
  const library = (await import(pathToFileURL(entry).href)) as {
    getPostgreSQLEventStore(url: string, options?: Record<string, unknown>): {
      appendToStream(stream: string, events: Array<{ type: string; data: unknown }>): Promise<unknown>;
      close?(): Promise<void>;
    };
  };
  const store = library.getPostgreSQLEventStore(url, { connectionOptions: { pooled: true, maxConnections: concurrency } });
  await appendRate((stream) => store.appendToStream(stream, EVENTS(0)), concurrency, 1);
  const rate = await appendRate((stream) => store.appendToStream(stream, EVENTS(0)), concurrency, durationS);
  process.stdout.write(`library events/s: ${rate}\n`);
  await store.close?.();
  process.exit(0);
}

/** SALE on the scaled-out deployment: api, projector and notifier as processes of their own. */
async function scaledOutSale(options: { connections: number; durationS: number; warmupS: number }): Promise<LoadSummary> {
  return withDatabase(async (url) => {
    buildDist();
    const dataDir = makeTempDir('gateway-pg-bench-');
    const env: NodeJS.ProcessEnv = { ...process.env, EVENT_STORE: 'postgres', DATABASE_URL: url, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' };
    delete env.PUBLIC_BASE_URL;
    const children: ServerChild[] = [];
    try {
      const created = spawnSync(process.execPath, ['dist/src/cli/index.js', 'merchant', 'create', '--name', 'Bench', '--json'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
      if (created.status !== 0) throw new BenchFailure(`merchant create failed: ${created.stderr}`);
      const merchant = JSON.parse(created.stdout) as { client_key: string; password: string };
      const port = await freePort();
      // Only the api answers HTTP; the other roles are waited on by their output instead.
      const api = await startServer({ name: 'api', script: 'dist/src/cli/index.js', env, port, args: ['api'] });
      children.push(api);
      for (const role of ['projector', 'notifier']) {
        children.push(await startServer({ name: role, script: 'dist/src/cli/index.js', env, port: await freePort(), args: [role], waitForHealth: false }));
      }
      const bodies = saleBodyFactory({ clientKey: merchant.client_key, password: merchant.password }, `pg${Date.now().toString(36)}`);
      const target = `${api.baseUrl}/post`;
      await runLoad({ url: target, connections: options.connections, durationS: options.warmupS, nextBody: bodies.next });
      return await runLoad({ url: target, connections: options.connections, durationS: options.durationS, nextBody: bodies.next });
    } finally {
      for (const child of children.reverse()) await stopServer(child);
      removeTempDir(dataDir);
    }
  });
}

export async function benchPostgres(options: { connections: number; durationS: number; warmupS: number; log: (line: string) => void }): Promise<PostgresBench> {
  const concurrency = 16;
  const appendSeconds = Math.min(options.durationS, 10);
  options.log('PostgreSQL: SALE with api, projector and notifier as separate processes');
  const sale = await scaledOutSale(options);
  options.log(`  ${Math.round(sale.requestsPerSec)} SALE/s, p50 ${sale.latencyMs.p50} ms, p99 ${sale.latencyMs.p99} ms, errors ${sale.errors.total}`);
  options.log(`PostgreSQL: appends of 3 events to new streams, ${concurrency} at a time, ${appendSeconds} s each, ours and the library's alternating`);
  // Right after the SALE load the database is still writing it out: whichever loop ran first paid
  // for that (ours 0.79 of the library first, 1.06-1.25 on a settled database). Ours, library,
  // library, ours gives both the same share of what the first run inherits and of any drift.
  const runs = { ours: [] as number[], library: [] as number[] };
  let libraryError: string | undefined;
  const runLibrary = async (): Promise<void> => {
    if (libraryError) return;
    try {
      runs.library.push(await libraryAppends(concurrency, appendSeconds));
    } catch (error) {
      libraryError = String((error as Error).message ?? error).slice(0, 300);
    }
  };
  runs.ours.push(await ourAppends(concurrency, appendSeconds));
  await runLibrary();
  await runLibrary();
  runs.ours.push(await ourAppends(concurrency, appendSeconds));
  const mean = (values: number[]) => Math.round(values.reduce((sum, v) => sum + v, 0) / values.length);
  const ours = mean(runs.ours);
  options.log(`  this gateway's event store: ${ours} events/s (runs ${runs.ours.join(', ')})`);
  const library = libraryError ? null : mean(runs.library);
  if (library !== null) options.log(`  ${LIBRARY[0]}: ${library} events/s (runs ${runs.library.join(', ')}; ours ${(ours / library).toFixed(2)}x)`);
  else options.log(`  ${LIBRARY[0]}: not measured (${libraryError})`);
  return { sale, appends: { ours, library, ...(libraryError ? { libraryError } : {}), concurrency, durationS: appendSeconds, runs } };
}

if (require.main === module && process.argv[2] === LIBRARY_CHILD_FLAG) {
  const [dir, url, concurrency, durationS] = process.argv.slice(3);
  libraryAppendsChild(dir!, url!, Number(concurrency), Number(durationS)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else if (require.main === module) {
  benchPostgres({ connections: 64, durationS: Number(process.env.BENCH_DURATION_S ?? 10), warmupS: 2, log: (line) => console.log(line) }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
