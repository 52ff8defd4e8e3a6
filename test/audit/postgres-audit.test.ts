/**
 * The audit evidence on PostgreSQL: signed checkpoints, payment proofs and consistency between
 * checkpoints, over a log whose data PostgreSQL keeps as jsonb (keys reordered, numbers rewritten)
 * and whose positions are bigint. The same checks run on SQLite in signed-checkpoints,
 * payment-proof and tamper tests; here every figure is recomputed from what PostgreSQL hands back.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { expect } from 'chai';
import { Client } from 'pg';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { signedCheckpointsAfter } from '../../src/application/audit/checkpoint-history';
import { buildPaymentProof, checkConsistency, latestSignedCheckpoint, signedCheckpointOf } from '../../src/application/audit/proofs';
import { verifyEventLog } from '../../src/application/audit/verifier';
import type { Clock } from '../../src/application/ports/clock';
import type { EventStore } from '../../src/application/ports/event-store';
import { AUDIT_CHECKPOINT_STREAM } from '../../src/domain/audit/checkpoint';
import { eventChainHash } from '../../src/domain/audit/chain-hash';
import { leafHash, rootOf } from '../../src/domain/audit/merkle';
import { verifyPaymentProof } from '../../src/domain/audit/payment-proof';
import { ed25519Signer, parseCheckpointText, verifyCheckpointSignature } from '../../src/domain/audit/signed-checkpoint';
import { logWithCheckpoints, pageThrough, positionOf, signer as historySigner } from '../support/checkpoint-log';
import { appendPaymentEvents, creditVoid, paymentInitiated, paymentSettled } from '../support/payment-fixtures';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';

const PYTHON_VERIFIER = path.resolve(__dirname, '../../docs/audit/verify_proof.py');
const clock: Clock = { now: () => new Date('2024-05-01T10:00:00.000Z') };

async function rootOfLog(store: EventStore, size: number): Promise<string> {
  const events = (await store.readAll()).slice(0, size);
  return rootOf(events.map((e) => leafHash(e.chainHash))).toString('hex');
}

/** A sale of `amount` minor units, settled; with `refund`, that much of it refunded. */
async function sale(store: EventStore, amount: number, refund?: number): Promise<string> {
  const initiated = paymentInitiated({ amount, amountText: (amount / 100).toFixed(2) });
  const id = initiated.data.paymentId;
  await appendPaymentEvents(store, id, [initiated, paymentSettled(id, { amount }), ...(refund ? creditVoid(id, 'refund', refund) : [])]);
  return id;
}

describe('audit evidence [PostgreSQL]', function () {
  requirePostgres(this);
  this.timeout(60_000);
  const signer = ed25519Signer(generateKeyPairSync('ed25519').privateKey);
  let schema: string;
  let url: string;
  let store: PostgresEventStore;
  let recorder: CheckpointRecorder;

  beforeEach(async function () {
    ({ url, schema } = await createTestSchema('audit'));
    store = await PostgresEventStore.create({ connectionString: url });
    recorder = new CheckpointRecorder({ store, clock, signer, pageSize: 2 });
  });

  afterEach(async function () {
    await store?.close();
    if (schema) await dropSchema(schema);
  });

  it('Given payments, when checkpoints are signed one after another, then each signs the root of the log up to it and the log verifies', async function () {
    await sale(store, 1000, 400);
    const first = (await recorder.recordIfMoved())!;
    expect(parseCheckpointText(first.checkpointText!)).to.include({ treeSize: 4, rootHash: await rootOfLog(store, 4), upToPosition: '4' });
    expect(verifyCheckpointSignature(first.checkpointText!, first.signature!, signer.publicKey)).to.equal(true);

    await sale(store, 700);
    // Another recorder continues the tree from the stored right edge, as another process would.
    const second = (await new CheckpointRecorder({ store, clock, signer }).recordIfMoved())!;
    // 4 events, the first checkpoint, 2 events.
    expect(parseCheckpointText(second.checkpointText!)).to.include({ treeSize: 7, rootHash: await rootOfLog(store, 7), upToPosition: '7' });
    expect(await recorder.recordIfMoved()).to.equal(null);
    const report = await verifyEventLog(store, { publicKey: signer.publicKey, pageSize: 3 });
    expect(report).to.include({ ok: true, events: 8, checkpoints: 2, broken: null });
  });

  it('Given a payment under a signed checkpoint, when its proof is built, then both verifiers accept it and a changed amount is caught', async function () {
    const id = await sale(store, 1000, 1000);
    await sale(store, 250);
    await recorder.recordIfMoved();
    const proof = (await buildPaymentProof(store, id, signer.publicKey))!;
    expect(proof.events.map((e) => [e.type, e.leaf_index])).to.deep.equal([
      ['PaymentInitiated', 0],
      ['PaymentSettled', 1],
      ['CreditVoidRequested', 2],
      ['RefundSucceeded', 3],
    ]);
    expect(verifyPaymentProof(proof, signer.publicKey)).to.include({ ok: true });

    const dir = mkdtempSync(join(tmpdir(), 'audit-pg-proof-'));
    try {
      const file = join(dir, 'proof.json');
      writeFileSync(file, JSON.stringify(proof));
      const py = spawnSync('python3', [PYTHON_VERIFIER, file], { encoding: 'utf8', timeout: 60_000 });
      expect(py.stdout).to.match(new RegExp(`^OK: 4 events of ${id} proven in the tree of 6 events`));
      expect(py.status).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const edited = JSON.parse(JSON.stringify(proof));
    edited.events[3].data.amount = 1;
    expect(verifyPaymentProof(edited, signer.publicKey)).to.deep.include({ ok: false });
  });

  it('Given a kept checkpoint, when history behind it is rewritten, rechained and re-checkpointed, then consistency fails while the store verifies', async function () {
    const id = await sale(store, 1000, 1000);
    await recorder.recordIfMoved();
    const kept = signedCheckpointOf((await latestSignedCheckpoint(store))!, signer.publicKey);
    await sale(store, 300);
    await recorder.recordIfMoved();
    const honest = signedCheckpointOf((await latestSignedCheckpoint(store))!, signer.publicKey);
    expect(await checkConsistency(store, kept, honest, signer.publicKey)).to.include({ ok: true, oldSize: 4, newSize: 7 });

    // Someone with the database and the signing key: edits the refund, rechains the stream,
    // removes every checkpoint and signs a new one.
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('select version, type, schema_version, data, metadata from events where stream_id = $1 order by version', [`payment-${id}`]);
      let prevHash: string | null = null;
      for (const row of rows) {
        const data = row.type === 'RefundSucceeded' ? { ...row.data, amount: 10 } : row.data;
        const chainHash = eventChainHash({ prevHash, streamId: `payment-${id}`, version: BigInt(row.version), type: row.type, schemaVersion: row.schema_version, data, metadata: row.metadata });
        await client.query('update events set data = $3::jsonb, chain_hash = $4 where stream_id = $1 and version = $2', [`payment-${id}`, row.version, JSON.stringify(data), chainHash]);
        prevHash = chainHash;
      }
      await client.query('delete from events where stream_id = $1', [AUDIT_CHECKPOINT_STREAM]);
    } finally {
      await client.end();
    }
    await sale(store, 200);
    await new CheckpointRecorder({ store, clock, signer }).recordIfMoved();
    const forged = signedCheckpointOf((await latestSignedCheckpoint(store))!, signer.publicKey);

    expect((await verifyEventLog(store, { publicKey: signer.publicKey })).ok).to.equal(true);
    const verdict = await checkConsistency(store, kept, forged, signer.publicKey);
    expect(verdict).to.include({ ok: false });
    expect((verdict as { problem: string }).problem).to.match(/^the newer checkpoint does not extend the older one: .*\(history behind it was rewritten\)$/);
  });
});

describe('checkpoint history [PostgreSQL]', function () {
  requirePostgres(this);
  this.timeout(60_000);
  let schema: string;
  let store: PostgresEventStore;

  before(async function () {
    let url: string;
    ({ url, schema } = await createTestSchema('audit_history'));
    store = await PostgresEventStore.create({ connectionString: url });
  });

  after(async function () {
    await store?.close();
    if (schema) await dropSchema(schema);
  });

  it('Given signed checkpoints in PostgreSQL, then paging from any position gives exactly those signed over a later one, oldest first', async function () {
    const texts = await logWithCheckpoints(store, 9);
    expect(await pageThrough(store, null, 4)).to.deep.equal({ texts, pages: 3 });
    const head = (await store.headPosition())!;
    for (let after = 0n; after <= head; after += 1n) {
      const expected = texts.filter((text) => BigInt(positionOf(text)) > after);
      const page = await signedCheckpointsAfter(store, historySigner.publicKey, after, 2);
      expect(page.checkpoints.map((c) => c.checkpoint_text), `after ${after}`).to.deep.equal(expected.slice(0, 2));
      expect(page.hasMore, `after ${after}`).to.equal(expected.length > 2);
    }
  });
});

describe('export as Parquet [PostgreSQL event store and read models]', function () {
  requirePostgres(this);
  this.timeout(120_000);
  let schema: string;
  let dir: string;

  after(async function () {
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(schema);
  });

  it('Given payments in PostgreSQL, when the ledger is exported as Parquet, then its balances are the postings\' and verify recomputes them', async function () {
    let url: string;
    ({ url, schema } = await createTestSchema('audit_export'));
    const store = await PostgresEventStore.create({ connectionString: url });
    try {
      await sale(store, 1000, 400);
      await sale(store, 250);
    } finally {
      await store.close();
    }
    dir = mkdtempSync(join(tmpdir(), 'audit-pg-export-'));
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, EVENT_STORE: 'postgres', DATABASE_URL: url, GATEWAY_LOG_LEVEL: 'error', VAULT_KEY: randomBytes(32).toString('hex') };
    delete env.AUDIT_SIGNING_KEY;
    const gateway = (...args: string[]) => {
      const r = spawnSync(path.resolve(__dirname, '../../node_modules/.bin/tsx'), ['src/cli/index.ts', 'export', ...args], {
        cwd: path.resolve(__dirname, '../..'),
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const out = join(dir, 'ledger');
    const made = gateway('ledger', '--format', 'parquet', '--out', out);
    expect(made.stderr).to.equal('');
    expect(made.code).to.equal(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    // 10.00 and 2.50 settled, 4.00 refunded: 8.50 owed to the merchant.
    expect(manifest.balances).to.deep.equal([
      { merchant_id: 'merchant-1', currency: 'USD', account: 'merchant_receivable', balance: '850' },
      { merchant_id: 'merchant-1', currency: 'USD', account: 'payer_funds', balance: '-850' },
    ]);
    expect(manifest.files[0]).to.include({ name: 'ledger.parquet', rows: 6 });
    // The six events of the two payments, all under the checkpoint the export recorded.
    expect(parseCheckpointText(manifest.checkpoint.checkpoint_text)).to.include({ upToPosition: '6' });
    const verified = gateway('verify', out);
    expect(verified.stdout).to.equal('OK: 1 files match the signed manifest\n');
    expect(verified.code).to.equal(0);
  });
});
