/**
 * Replay speed: seed a fresh SQLite store with realistic payment histories (the `seed` command,
 * in a child process), then time a full rebuild of every projection in another child process, as
 * `npm run gateway -- projections rebuild` runs it: replay from position zero into fresh tables and
 * the swap. Then the replay floor (replay-floor.ts) on the same store. Reports events per second,
 * the ratio to the target and to the floor, and the rebuild's peak RSS.
 *
 * Part of `npm run bench`; alone: `tsx test/bench/replay.ts`.
 * Env: BENCH_REPLAY_EVENTS (1,000,000), BENCH_CPU_PROF=1 to profile the rebuild child (profile and
 * hotspot summary under test-artifacts/cpu-profiles/).
 */
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchFailure, REPO_ROOT, makeTempDir, removeTempDir } from './children';
import { formatProfileSummary, summariseProfile } from './profile-summary';
import { buildDist } from './latency';
import type { ReplayFloorResult } from './replay-floor';
import type { EventStore, StoredEvent } from '../../src/application/ports/event-store';

// The node options `npm run gateway -- projections rebuild` starts its process with (the launcher's).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { nodeFlagsFor } = require('../../src/cli/command-node-flags.cjs') as { nodeFlagsFor(args: string[]): string[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { distIsCurrent, compiledTwin } = require('../../src/adapters/os/dist-build.cjs') as {
  distIsCurrent(): boolean;
  compiledTwin(sourceFile: string): string | null;
};

export const REPLAY_TARGET_EVENTS_PER_SECOND = 100_000;
const CHILD_FLAG = '--rebuild-child';
const FRESH_FILE_FLAG = '--fresh-file-child';
/** Settings that would point the children at another store. */
const STORE_ENV_VARS = ['EVENT_STORE', 'DATABASE_URL', 'ESDB_URL', 'VAULT_KEY', 'GATEWAY_ENV'];

export interface ReplayFigures {
  events: number;
  seedSeconds: number;
  rebuildSeconds: number;
  eventsPerSecond: number;
  targetRatio: number;
  replayMs: number;
  swapMs: number;
  /** Reading, parsing and upcasting every event alone, in the replay's pages, with nothing applied. */
  readMs: number;
  /**
   * The replay floor (replay-floor.ts) on the same store, in its own process after the rebuild:
   * every event read, parsed and written as one row into a fresh table.
   */
  floorEventsPerSecond: number;
  floorMs: number;
  /**
   * CPU seconds the rebuild used (user + system). Other work on the machine stretches the wall
   * time far more than this, so paired runs on a shared machine compare better by it.
   */
  cpuSeconds: number;
  /** The 1-minute load average when the rebuild ended: how much else wanted the cores. */
  loadAverage: number;
  peakRssMb: number;
  projections: string[];
  profile: string | null;
  /**
   * The same rebuild into a fresh read-model file (freshFileChild), measured for the generation
   * switch that would put such a file in place of the live one; the switch itself is not built.
   */
  freshFile: { eventsPerSecond: number; totalMs: number; replayMs: number; indexMs: number; indexes: number; cpuSeconds: number };
}

/** The tables whose row counts differ between two read-model files. */
function differingRowCounts(liveFile: string, freshFile: string, tables: string[]): string[] {
  const live = new Database(liveFile, { readonly: true });
  const fresh = new Database(freshFile, { readonly: true });
  try {
    const count = (db: Database.Database, table: string) => Number(db.prepare(`select count(*) from "${table}"`).pluck().get());
    return tables.filter((table) => count(live, table) !== count(fresh, table));
  } finally {
    live.close();
    fresh.close();
  }
}

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runChild(args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-16_384)));
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    child.once('error', reject);
    child.once('exit', (code) => {
      process.off('exit', kill);
      resolve({ code, stdout, stderr });
    });
  });
}

function lastJson<T>(label: string, result: ChildResult): T {
  if (result.code !== 0) throw new BenchFailure(`${label} exited with ${result.code}:\n${result.stderr || result.stdout}`);
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new BenchFailure(`${label} did not print JSON:\n${result.stdout}`);
  }
}

export async function benchReplay(options: { events: number; profileDir: string | null; log(line?: string): void }): Promise<ReplayFigures> {
  const { log } = options;
  const dataDir = makeTempDir('gateway-replay-');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' };
  for (const name of STORE_ENV_VARS) delete env[name];
  try {
    log(`Replay: seeding a fresh SQLite store with ${options.events.toLocaleString('en-US')} events (seed command, child process)`);
    const seed = lastJson<{ events: number; payments: number; seconds: number }>(
      'seed',
      await runChild(['src/cli/index.ts', 'seed', '--events', String(options.events), '--json'], env),
    );
    log(`  ${seed.events} events (${seed.payments} payments) in ${seed.seconds} s`);

    log('  full rebuild of every projection (child process, as `projections rebuild` runs it: the compiled dist/)');
    buildDist();
    const nodeArgs = [...nodeFlagsFor(['projections', 'rebuild']), ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [])];
    if (options.profileDir) fs.mkdirSync(options.profileDir, { recursive: true });
    const rebuilt = lastJson<{ events: number; totalMs: number; replayMs: number; swapMs: number; readMs: number; readEvents: number; cpuMs: number; maxRssKb: number; projections: string[]; tables: string[]; pid: number }>(
      'rebuild',
      await runChild(['test/bench/replay.ts', CHILD_FLAG], env, nodeArgs),
    );
    const loadAverage = Math.round(os.loadavg()[0] * 100) / 100;
    log('  the replay floor on the same store (replay-floor.ts, child process): read, parse, one row per event into a fresh table');
    const floor = lastJson<ReplayFloorResult>(
      'replay floor',
      await runChild(['test/bench/replay-floor.ts', path.join(dataDir, 'events.db'), path.join(dataDir, 'replay-floor.db')], env),
    );
    if (floor.events !== rebuilt.events) throw new BenchFailure(`The replay floor read ${floor.events} events, the rebuild ${rebuilt.events}`);
    log('  a rebuild into a read-model file of its own, not switched in (child process): what a generation switch would cost');
    const freshFile = path.join(dataDir, 'read-models-fresh.db');
    const fresh = lastJson<{ events: number; totalMs: number; replayMs: number; indexMs: number; indexes: number; cpuMs: number }>(
      'fresh-file rebuild',
      await runChild(['test/bench/replay.ts', FRESH_FILE_FLAG, freshFile], env, nodeFlagsFor(['projections', 'rebuild'])),
    );
    if (fresh.events !== rebuilt.events) throw new BenchFailure(`The fresh-file rebuild read ${fresh.events} events, the rebuild ${rebuilt.events}`);
    const differingTables = differingRowCounts(path.join(dataDir, 'read-models.db'), freshFile, rebuilt.tables);
    if (differingTables.length > 0) throw new BenchFailure(`The fresh-file rebuild and the rebuild differ in ${differingTables.join(', ')}`);
    const seconds = rebuilt.totalMs / 1000;
    const perSecond = rebuilt.events / seconds;
    const figures: ReplayFigures = {
      events: rebuilt.events,
      seedSeconds: seed.seconds,
      rebuildSeconds: Math.round(seconds * 100) / 100,
      eventsPerSecond: Math.round(perSecond),
      targetRatio: Math.round((perSecond / REPLAY_TARGET_EVENTS_PER_SECOND) * 1000) / 1000,
      replayMs: Math.round(rebuilt.replayMs),
      swapMs: Math.round(rebuilt.swapMs),
      readMs: Math.round(rebuilt.readMs),
      floorEventsPerSecond: Math.round(floor.events / (floor.ms / 1000)),
      floorMs: Math.round(floor.ms),
      cpuSeconds: Math.round(rebuilt.cpuMs / 10) / 100,
      loadAverage,
      peakRssMb: Math.round(rebuilt.maxRssKb / 1024),
      freshFile: {
        eventsPerSecond: Math.round(fresh.events / (fresh.totalMs / 1000)),
        totalMs: Math.round(fresh.totalMs),
        replayMs: Math.round(fresh.replayMs),
        indexMs: Math.round(fresh.indexMs),
        indexes: fresh.indexes,
        cpuSeconds: Math.round(fresh.cpuMs / 10) / 100,
      },
      projections: rebuilt.projections,
      profile: null,
    };
    if (options.profileDir) {
      const file = fs.readdirSync(options.profileDir).find((f) => f.includes(`.${rebuilt.pid}.`) && f.endsWith('.cpuprofile'));
      figures.profile = file ? path.join(options.profileDir, file) : null;
    }
    log(
      `  ${figures.events} events in ${figures.rebuildSeconds} s: ${figures.eventsPerSecond.toLocaleString('en-US')} events/s ` +
        `(${figures.targetRatio} of the ${REPLAY_TARGET_EVENTS_PER_SECOND.toLocaleString('en-US')} target; replay ${figures.replayMs} ms, swap ${figures.swapMs} ms; ${figures.cpuSeconds} CPU s), ` +
        `load average ${figures.loadAverage} on ${os.availableParallelism()} cores, ` +
        `peak RSS ${figures.peakRssMb} MB, projections ${figures.projections.join(', ')}`,
    );
    log(
      `  replay floor: ${figures.events} events in ${figures.floorMs} ms, ${figures.floorEventsPerSecond.toLocaleString('en-US')} events/s ` +
        `(the rebuild: ${Math.round((figures.eventsPerSecond / figures.floorEventsPerSecond) * 1000) / 1000} of it); ` +
        `the rebuild's own read pass (reading, parsing and upcasting alone, nothing applied) ${figures.readMs} ms`,
    );
    const f = figures.freshFile;
    log(
      `  into a file of its own: ${figures.events} events in ${f.totalMs} ms, ${f.eventsPerSecond.toLocaleString('en-US')} events/s ` +
        `(${Math.round((f.eventsPerSecond / figures.floorEventsPerSecond) * 1000) / 1000} of the replay floor; replay ${f.replayMs} ms, ` +
        `${f.indexes} indexes ${f.indexMs} ms, ${f.cpuSeconds} CPU s; the same rows as the rebuild, table by table; not switched in)`,
    );
    if (figures.profile) log(formatProfileSummary(summariseProfile(figures.profile, 25), 25));
    return figures;
  } finally {
    removeTempDir(dataDir);
  }
}

/**
 * A module of the gateway as `npm run gateway` loads it: the compiled twin in dist/ when dist/ was
 * built from the current sources (the bench builds it first), else the source through tsx.
 */
function gatewayModule<T>(sourceFile: string): T {
  const source = path.join(REPO_ROOT, sourceFile);
  const twin = distIsCurrent() ? compiledTwin(source) : null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(twin ?? source) as T;
}

/**
 * Reads the whole store in the replay's pages, as a rebuild reads it, handing each page to
 * `onPage`; returns the number of events read.
 */
async function forEachReplayPage(store: EventStore, onPage: (page: StoredEvent[]) => Promise<void>): Promise<number> {
  const { DEFAULT_REPLAY_PAGE_SIZE } = gatewayModule<typeof import('../../projections/rebuild')>('projections/rebuild.ts');
  const { bulkReaderOf } = gatewayModule<typeof import('../../src/application/ports/bulk-reader')>('src/application/ports/bulk-reader.ts');
  const reader = bulkReaderOf(store);
  let after: bigint | undefined;
  let read = 0;
  for (;;) {
    const page = await reader.readAllPage({ after, maxCount: DEFAULT_REPLAY_PAGE_SIZE });
    if (page.length === 0) return read;
    await onPage(page);
    read += page.length;
    after = page[page.length - 1]!.position;
  }
}

/** The child: rebuild every projection of DATA_DIR's store and print the figures as JSON. */
async function rebuildChild(): Promise<void> {
  const { buildGateway } = gatewayModule<typeof import('../../src/composition')>('src/composition.ts');
  const { loadConfig } = gatewayModule<typeof import('../../src/config')>('src/config.ts');
  const { rebuildProjections } = gatewayModule<typeof import('../../projections/rebuild')>('projections/rebuild.ts');
  const { allProjections } = gatewayModule<typeof import('../../projections/index')>('projections/index.ts');
  const gateway = await buildGateway({ ...loadConfig(), logLevel: 'error' }, { withProjector: false });
  try {
    const cpuBefore = process.cpuUsage();
    const result = await rebuildProjections({ store: gateway.store, db: gateway.readDb });
    const cpu = process.cpuUsage(cpuBefore);
    // The read floor: the same pages read, parsed and upcast as the replay reads them, with no
    // projection applied. Together with the swap (SQLite copying the finished rows and building
    // their indexes, the least writing them once can cost) it bounds any rebuild on this store.
    const readStarted = performance.now();
    const read = await forEachReplayPage(gateway.store, async () => undefined);
    const readMs = performance.now() - readStarted;
    process.stdout.write(
      `${JSON.stringify({
        events: result.events,
        totalMs: result.totalMs,
        replayMs: result.replayMs,
        swapMs: result.swapMs,
        readMs,
        readEvents: read,
        cpuMs: (cpu.user + cpu.system) / 1000,
        projections: result.projections,
        tables: allProjections().flatMap((projection) => projection.tables),
        maxRssKb: process.resourceUsage().maxRSS,
        pid: process.pid,
      })}\n`,
    );
  } finally {
    await gateway.close();
  }
}

/**
 * The child: a rebuild into a read-model file of its own, as a generation switch would make it, and
 * not switched in. Every projection's tables are created in a fresh file without their non-unique
 * indexes; every event is applied in the replay's pages, one transaction each, with no journal and
 * no sync (until the switch nothing reads the file, and a crash leaves only a file to delete); then
 * the indexes are built and the file is synced once. Prints the time of all of it as JSON.
 */
async function freshFileChild(file: string): Promise<void> {
  const { buildGateway } = gatewayModule<typeof import('../../src/composition')>('src/composition.ts');
  const { loadConfig } = gatewayModule<typeof import('../../src/config')>('src/config.ts');
  const { createReadModelDb, migrateReadModels } = gatewayModule<typeof import('../../projections/database')>('projections/database.ts');
  const { allProjections } = gatewayModule<typeof import('../../projections/index')>('projections/index.ts');
  const { sql } = await import('kysely');
  const gateway = await buildGateway({ ...loadConfig(), logLevel: 'error' }, { withProjector: false });
  const db = createReadModelDb({ kind: 'sqlite', file });
  try {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await sql.raw('pragma journal_mode = off').execute(db);
    await sql.raw('pragma synchronous = off').execute(db);
    await sql.raw('pragma cache_size = -262144').execute(db);
    await migrateReadModels(db);
    const { rows: indexes } = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'index' and sql is not null and sql not like 'create unique%' collate nocase`.execute(db);
    for (const index of indexes) await sql.raw(`drop index "${index.name}"`).execute(db);
    const projections = allProjections();
    const events = await forEachReplayPage(gateway.store, (page) =>
      db.transaction().execute(async (trx) => {
        for (const projection of projections) await projection.apply(trx, page);
      }),
    );
    const replayMs = performance.now() - started;
    for (const index of indexes) await sql.raw(index.sql).execute(db);
    const indexMs = performance.now() - started - replayMs;
    await db.destroy();
    const fd = fs.openSync(file, 'r+');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    const cpu = process.cpuUsage(cpuBefore);
    process.stdout.write(
      `${JSON.stringify({ events, totalMs: performance.now() - started, replayMs, indexMs, indexes: indexes.length, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
    );
  } finally {
    // Destroying the connection a second time after the sync above does nothing.
    await db.destroy();
    await gateway.close();
  }
}

if (require.main === module) {
  const asChild = (run: Promise<void>) =>
    run.catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    });
  if (process.argv.includes(FRESH_FILE_FLAG)) {
    void asChild(freshFileChild(process.argv[process.argv.indexOf(FRESH_FILE_FLAG) + 1]!));
  } else if (process.argv.includes(CHILD_FLAG)) {
    void asChild(rebuildChild());
  } else {
    const raw = process.env.BENCH_REPLAY_EVENTS;
    const events = raw ? Number(raw) : 1_000_000;
    if (!Number.isInteger(events) || events < 1) throw new Error(`BENCH_REPLAY_EVENTS must be a positive integer (got "${raw}")`);
    const profileDir = process.env.BENCH_CPU_PROF && process.env.BENCH_CPU_PROF !== '0' ? path.join(REPO_ROOT, 'test-artifacts', 'cpu-profiles') : null;
    benchReplay({ events, profileDir, log: (line = '') => process.stdout.write(`${line}\n`) }).catch((error: unknown) => {
      process.stderr.write(`\nREPLAY BENCHMARK FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
  }
}
