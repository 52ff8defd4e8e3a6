/**
 * The scaled-out deployment (roles api, projector, notifier and scheduler as separate processes on
 * PostgreSQL) survives losing its database connections. Given the four processes taking SALEs
 * with callbacks, when every connection they hold is terminated (pg_terminate_backend, several
 * times, under load), then all four are still running, requests during the blip were answered
 * either normally or with 503 + Retry-After (never a 500, never a dropped connection), SALEs
 * afterwards succeed, every settled SALE is called back, and status lookups see the projector
 * caught up.
 *
 * Only this suite's processes are terminated: each connects with an application_name unique to
 * the run, so suites running in parallel on the same database are left alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Client } from 'pg';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import type { MerchantCredentials } from '../../src/application/merchant-service';
import { ANY, type NewEvent } from '../../src/application/ports/event-store';
import { buildGateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { CallbackReceiver } from '../support/callback-receiver';
import { defaultSaleFields, signSale, transIdHash, type Fields } from '../support/gateway-harness';
import { createTestSchema, dropSchema, requirePostgres, TEST_DATABASE_URL } from '../support/postgres';
import { cliArgv } from '../support/launcher';

const REPO = path.resolve(__dirname, '../..');
const ROLES = ['api', 'projector', 'notifier', 'scheduler'] as const;
type Role = (typeof ROLES)[number];

interface RoleProcess {
  role: Role;
  child: ChildProcess;
  output: () => string;
}

interface Answer {
  phase: 'before' | 'during' | 'after';
  status: number | null;
  body: Record<string, unknown> | null;
  retryAfter: string | null;
  /** Set when no HTTP answer came at all (connection refused or dropped). */
  error: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

async function postForm(url: string, fields: Fields): Promise<Omit<Answer, 'phase'>> {
  const form = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
  try {
    const response = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = { unparsed: text };
    }
    return { status: response.status, body, retryAfter: response.headers.get('retry-after'), error: null };
  } catch (error) {
    return { status: null, body: null, retryAfter: null, error: String((error as Error & { cause?: unknown }).cause ?? error) };
  }
}

describe('a multi-process PostgreSQL deployment losing its database connections', function () {
  requirePostgres(this);
  this.timeout(240_000);

  const tag = `gw-test-${randomBytes(5).toString('hex')}`;
  const vaultKey = randomBytes(32).toString('hex');
  let schema: string;
  let url: string;
  let port: number;
  let receiver: CallbackReceiver;
  let merchant: MerchantCredentials;
  const dirs: string[] = [];
  const processes: RoleProcess[] = [];

  const baseUrl = () => `http://127.0.0.1:${port}`;

  function envFor(role: Role): NodeJS.ProcessEnv {
    const dataDir = mkdtempSync(path.join(tmpdir(), `gw-connloss-${role}-`));
    dirs.push(dataDir);
    return {
      ...process.env,
      DATA_DIR: dataDir,
      EVENT_STORE: 'postgres',
      DATABASE_URL: withApplicationName(url, `${tag}-${role}`),
      VAULT_KEY: vaultKey,
      GATEWAY_ENV: 'sandbox',
      GATEWAY_LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl(),
      NOTIFIER_POLL_MS: '200',
      CALLBACK_TIMEOUT: '5s',
      SCHEDULER_INTERVAL_MS: '200',
    };
  }

  async function startRole(role: Role): Promise<RoleProcess> {
    const child = spawn(process.execPath, cliArgv(role), {
      cwd: REPO,
      env: envFor(role),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-32 * 1024);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const started: RoleProcess = { role, child, output: () => output };
    processes.push(started);
    const deadline = Date.now() + 60_000;
    while (!output.includes(`role ${role},`)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${role} exited while starting:\n${output}`);
      if (Date.now() > deadline) throw new Error(`${role} did not start in time:\n${output}`);
      await sleep(50);
    }
    return started;
  }

  async function sale(phase: Answer['phase']): Promise<Answer> {
    const fields = defaultSaleFields(merchant);
    fields.hash = signSale(fields, merchant.password);
    return { phase, ...(await postForm(`${baseUrl()}/post`, fields)) };
  }

  /** Terminates every connection this suite's processes hold; how many there were. */
  async function terminateOurConnections(): Promise<number> {
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ terminated: boolean }>(
        `select pg_terminate_backend(pid) as terminated from pg_stat_activity
         where application_name like $1 and pid <> pg_backend_pid()`,
        [`${tag}-%`],
      );
      return rows.filter((r) => r.terminated).length;
    } finally {
      await admin.end();
    }
  }

  before(async () => {
    ({ schema, url } = await createTestSchema('connloss'));
    port = await freePort();
    receiver = await new CallbackReceiver().start();
    // Tables and the merchant, from this test process under a name the terminations do not match.
    const setupDir = mkdtempSync(path.join(tmpdir(), 'gw-connloss-setup-'));
    dirs.push(setupDir);
    const setup = await buildGateway(
      loadConfig({
        DATA_DIR: setupDir,
        EVENT_STORE: 'postgres',
        DATABASE_URL: withApplicationName(url, 'gw-connloss-setup'),
        VAULT_KEY: vaultKey,
        GATEWAY_ENV: 'sandbox',
        GATEWAY_LOG_LEVEL: 'silent',
      }),
      { withProjector: false },
    );
    try {
      merchant = await setup.merchants.register({ name: 'Connection loss shop', notificationUrl: receiver.url });
    } finally {
      await setup.close();
    }
    await Promise.all(ROLES.map((role) => startRole(role)));
  });

  after(async () => {
    await Promise.all(
      processes.map(async ({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    await receiver?.stop();
    if (schema) await dropSchema(schema);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('Given SALEs flowing through api, projector, notifier and scheduler, when all their connections are terminated, then no process dies, no request gets a 500, and every settled SALE is called back and visible', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) answers.push(await sale('before'));

    // Load while the connections are cut, five times over a second and a half.
    let loading = true;
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (loading) answers.push(await sale('during'));
      }),
    );
    let terminated = 0;
    for (let i = 0; i < 5; i++) {
      await sleep(300);
      terminated += await terminateOurConnections();
    }
    await sleep(500);
    loading = false;
    await load;
    expect(terminated, 'connections terminated').to.be.at.least(ROLES.length);

    // Give any process that is going to die a moment to do so.
    await sleep(2_000);
    const dead = processes.filter(({ child }) => child.exitCode !== null || child.signalCode !== null);
    expect(
      dead.map((p) => p.role),
      `processes that died:\n${dead.map((p) => `--- ${p.role} (${p.child.exitCode ?? p.child.signalCode}):\n${p.output()}`).join('\n')}`,
    ).to.deep.equal([]);

    for (let i = 0; i < 5; i++) answers.push(await sale('after'));

    const dropped = answers.filter((a) => a.status === null);
    expect(dropped, 'requests without an HTTP answer').to.deep.equal([]);
    const unexpected = answers.filter((a) => !(a.status === 200 || (a.phase === 'during' && a.status === 503)));
    expect(unexpected, 'answers other than 200 (or 503 during the blip)').to.deep.equal([]);
    for (const refused of answers.filter((a) => a.status === 503)) {
      expect(refused.body).to.deep.equal({ result: 'ERROR', error_code: 503, error_message: 'Service temporarily unavailable, try again.' });
      expect(refused.retryAfter).to.equal('1');
    }
    const settled = answers.filter((a) => a.status === 200);
    for (const a of settled) expect(a.body, JSON.stringify(a.body)).to.include({ status: 'SETTLED' });
    expect(settled.filter((a) => a.phase === 'after')).to.have.length(5);
    const transIds = settled.map((a) => String(a.body!.trans_id));

    // Every settled SALE is called back, the ones made during the blip included.
    const deadline = Date.now() + 60_000;
    const uncalled = () => transIds.filter((id) => !receiver.ofTransaction(id).some((r) => r.answeredWith === 200));
    while (uncalled().length > 0 && Date.now() < deadline) await sleep(200);
    expect(uncalled(), 'settled SALEs never called back').to.deep.equal([]);

    // Status lookups wait for the read models to reach the store's head: the projector caught up.
    for (const transId of transIds) {
      const status = await postForm(`${baseUrl()}/post`, {
        action: 'GET_TRANS_STATUS',
        client_key: merchant.client_key,
        trans_id: transId,
        hash: transIdHash(transId, merchant.password),
      });
      expect(status.status, JSON.stringify(status.body)).to.equal(200);
      expect(status.body).to.include({ trans_id: transId, status: 'SETTLED' });
    }
  });
});

describe('a PostgreSQL subscription whose connections are terminated', function () {
  requirePostgres(this);
  this.timeout(60_000);
  const name = `gw-test-${randomBytes(5).toString('hex')}-listener`;
  let schema: string;
  let subscriberStore: PostgresEventStore;
  let writerStore: PostgresEventStore;

  before(async () => {
    let url: string;
    ({ schema, url } = await createTestSchema('listen'));
    // Polling so slow that only a notification (or the catch-up after re-listening) can deliver in time.
    subscriberStore = await PostgresEventStore.create({ connectionString: withApplicationName(url, name), pollIntervalMs: 120_000 });
    writerStore = await PostgresEventStore.create({ connectionString: url });
  });
  after(async () => {
    await subscriberStore?.close();
    await writerStore?.close();
    if (schema) await dropSchema(schema);
  });

  const event = (): NewEvent => ({ id: randomUUID(), type: 'Noted', schemaVersion: 1, data: {} });

  it('Given a live subscription, when its LISTEN connection is terminated and events are appended meanwhile, then it listens again and receives every event, in order', async () => {
    const received: bigint[] = [];
    const subscription = subscriberStore.subscribeToAll({ after: null, onEvent: (e) => void received.push(e.position) });
    try {
      const first = await writerStore.append('s-1', [event()], ANY);
      await waitUntil(() => received.length === 1, 'the first event (through LISTEN)');

      const admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      let terminated: number;
      try {
        const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]);
        terminated = rowCount ?? 0;
      } finally {
        await admin.end();
      }
      expect(terminated, 'connections terminated').to.be.at.least(1);
      // Appended while nobody listens: their notifications are lost.
      const during = [await writerStore.append('s-2', [event()], ANY), await writerStore.append('s-3', [event()], ANY)];
      await waitUntil(() => received.length === 3, 'the events appended while the connection was down');
      const after = await writerStore.append('s-4', [event()], ANY);
      await waitUntil(() => received.length === 4, 'an event appended after reconnecting');
      expect(received).to.deep.equal([first.position, ...during.map((d) => d.position), after.position]);
    } finally {
      await subscription.stop();
    }
  });
});

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
