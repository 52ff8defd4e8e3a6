/**
 * What an auditor gets: a payment's proof that checks with nothing but the file (the gateway's
 * verifier and the Python one under docs/ agree on every verdict), and the consistency of a signed
 * checkpoint kept aside with a newer one, which catches a rewrite that `audit verify` cannot.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { eventChainHash } from '../../src/domain/audit/chain-hash';
import { verifyPaymentProof, type PaymentProof } from '../../src/domain/audit/payment-proof';
import { appendPaymentEvents, creditVoid, paymentInitiated, paymentSettled } from '../support/payment-fixtures';
import { cliArgv } from '../support/launcher';

const ROOT = path.resolve(__dirname, '../..');
const PYTHON_VERIFIER = join(ROOT, 'docs/audit/verify_proof.py');

describe('audit proofs and consistency (CLI, SQLite)', function () {
  this.timeout(120_000);
  let dir: string;
  let dataDir: string;
  let paymentId: string;
  let env: NodeJS.ProcessEnv;

  function gateway(...args: string[]) {
    const result = spawnSync(process.execPath, cliArgv('audit', ...args), {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  function python(...args: string[]) {
    const result = spawnSync('python3', [PYTHON_VERIFIER, ...args], { encoding: 'utf8', timeout: 60_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  async function appendPayments(count: number): Promise<void> {
    const store = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
    try {
      for (let i = 0; i < count; i += 1) {
        const p = paymentInitiated({ amount: 500 + i, amountText: ((500 + i) / 100).toFixed(2) });
        await appendPaymentEvents(store, p.data.paymentId, [p, paymentSettled(p.data.paymentId, { amount: 500 + i })]);
      }
    } finally {
      await store.close();
    }
  }

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'audit-proof-'));
    dataDir = join(dir, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    env = { ...process.env, DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_LOG_LEVEL: 'error', VAULT_KEY: randomBytes(32).toString('hex') };
    delete env.AUDIT_SIGNING_KEY;
    const store = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
    try {
      const sale = paymentInitiated({ amount: 1000, amountText: '10.00' });
      paymentId = sale.data.paymentId;
      await appendPaymentEvents(store, paymentId, [sale, paymentSettled(paymentId, { amount: 1000 })]);
      const other = paymentInitiated({ amount: 700, amountText: '7.00' });
      await appendPaymentEvents(store, other.data.paymentId, [other]);
      await appendPaymentEvents(store, paymentId, creditVoid(paymentId, 'refund', 1000));
    } finally {
      await store.close();
    }
  });

  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('a payment proof', function () {
    let proofFile: string;
    let proof: PaymentProof;
    let keyFile: string;

    before(function () {
      proofFile = join(dir, 'proof.json');
      const made = gateway('proof', paymentId, '--out', proofFile);
      expect(made.stderr).to.include(`Proof of ${paymentId}: 4 events`);
      expect(made.code).to.equal(0);
      proof = JSON.parse(readFileSync(proofFile, 'utf8'));
      const key = gateway('key');
      expect(key.code).to.equal(0);
      keyFile = join(dir, 'gateway.pem');
      writeFileSync(keyFile, key.stdout);
    });

    it('holds the events as stored, their chain hashes and paths to one signed checkpoint, and the public key', function () {
      expect(proof.events.map((e) => e.type)).to.deep.equal(['PaymentInitiated', 'PaymentSettled', 'CreditVoidRequested', 'RefundSucceeded']);
      expect(proof.events.map((e) => e.leaf_index)).to.deep.equal([0, 1, 3, 4]);
      expect(proof.checkpoint_text).to.match(/^ledger-gateway audit checkpoint v1\nkey [0-9a-f]{64}\nsize 5\nroot [0-9a-f]{64}\nposition 5\ntime \S+\n$/);
      expect(Buffer.from(proof.signature, 'base64')).to.have.length(64);
      expect(proof.public_key).to.equal(readFileSync(keyFile, 'utf8'));
      expect(JSON.stringify(proof)).to.not.include('4111111111111111');
    });

    it('verifies offline: the payment state folded from the proven events, from both verifiers', function () {
      const nowhere = join(dir, 'no-data-dir');
      const result = spawnSync(process.execPath, cliArgv('audit', 'verify-proof', proofFile, '--key', keyFile), {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: nowhere, EVENT_STORE: 'postgres', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', VAULT_KEY: '' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.stdout).to.match(/^OK: 4 events proven/);
      expect(result.stdout).to.match(/status\s+REFUND/);
      expect(result.stdout).to.match(/refundedAmount\s+1000/);
      expect(result.status).to.equal(0);
      expect(existsSync(nowhere)).to.equal(false);

      const py = python(proofFile, '--key', keyFile);
      expect(py.stdout).to.match(new RegExp(`^OK: 4 events of ${paymentId} proven in the tree of 5 events`));
      expect(py.code).to.equal(0);
    });

    it('fails, naming what is wrong, when the proof is signed by a key other than the one given', function () {
      const otherKey = join(dir, 'other.pem');
      const { generateKeyPairSync } = require('node:crypto') as typeof import('node:crypto');
      writeFileSync(otherKey, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
      const cli = gateway('verify-proof', proofFile, '--key', otherKey);
      expect(cli.stdout).to.equal('INVALID: public_key is not the key given: the proof was signed by another key\n');
      expect(cli.code).to.equal(1);
      const py = python(proofFile, '--key', otherKey);
      expect(py.stdout).to.equal(cli.stdout);
      expect(py.code).to.equal(1);
    });

    const flip = (hex: string, at = 10): string => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);
    const flipBase64 = (b64: string): string => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[5] ^= 1;
      return bytes.toString('base64');
    };
    const tamperings: Array<[string, (p: PaymentProof) => void, RegExp]> = [
      ['an event\'s data', (p) => void (p.events[1]!.data.amount = 1), /^event 1 \(version 1, PaymentSettled\): content edited/],
      ['an event\'s metadata', (p) => void (p.events[0]!.metadata.correlationId = 'forged'), /^event 0 .*: content edited/],
      ['an event\'s type', (p) => void (p.events[3]!.type = 'RefundDeclined'), /^event 3 .*: content edited/],
      ['an event\'s schema version', (p) => void (p.events[2]!.schema_version = 2), /^event 2 .*: content edited/],
      ['a missing event', (p) => void p.events.splice(1, 1), /^event version 1 is missing: events\[1\] is version 2/],
      ['two events reordered', (p) => void p.events.splice(1, 2, p.events[2]!, p.events[1]!), /^event version 1 is missing/],
      ['a version renumbered', (p) => void (p.events[1]!.version = '0'), /^events out of order: events\[1\] is version 0/],
      ['a chain hash', (p) => void (p.events[2]!.chain_hash = flip(p.events[2]!.chain_hash)), /^event 2 .*: chain_hash was edited/],
      ['an inclusion path', (p) => void (p.events[0]!.inclusion_path[1] = flip(p.events[0]!.inclusion_path[1]!)), /^event 0 .*: inclusion_path does not lead/],
      ['a leaf index', (p) => void (p.events[3]!.leaf_index = 2), /^event 3 .*: leaf_index 2 is not after the previous event's/],
      ['the signature', (p) => void (p.signature = flipBase64(p.signature)), /^bad signature/],
      ['the checkpoint text', (p) => void (p.checkpoint_text = p.checkpoint_text.replace('size 5', 'size 6')), /^bad signature/],
      ['the public key', (p) => void (p.public_key = readFileSync(join(dir, 'other.pem'), 'utf8')), /^checkpoint_text names another key than public_key/],
    ];
    for (const [what, tamper, problem] of tamperings) {
      it(`fails in both verifiers, naming it, after a change to ${what}`, function () {
        const copy = JSON.parse(JSON.stringify(proof)) as PaymentProof;
        tamper(copy);
        const verdict = verifyPaymentProof(copy);
        expect(verdict.ok).to.equal(false);
        const named = (verdict as { problem: string }).problem;
        expect(named).to.match(problem);
        const file = join(dir, 'tampered.json');
        writeFileSync(file, JSON.stringify(copy, null, 2));
        const py = python(file);
        expect(py.stdout).to.equal(`INVALID: ${named}\n`);
        expect(py.code).to.equal(1);
      });
    }

    it('exits 1 from the CLI on a tampered proof', function () {
      const copy = JSON.parse(JSON.stringify(proof)) as PaymentProof;
      copy.events[1]!.data.amount = 1;
      const file = join(dir, 'tampered-cli.json');
      writeFileSync(file, JSON.stringify(copy));
      const cli = gateway('verify-proof', file);
      expect(cli.stdout).to.match(/^INVALID: event 1 \(version 1, PaymentSettled\): content edited/);
      expect(cli.code).to.equal(1);
    });
  });

  describe('consistency with a checkpoint kept aside', function () {
    it('holds for an honest log, and fails after history behind the kept checkpoint was rewritten, rechained and re-checkpointed', async function () {
      await appendPayments(2);
      const kept = gateway('checkpoint', '--json');
      expect(kept.code).to.equal(0);
      const keptFile = join(dir, 'kept.json');
      writeFileSync(keptFile, kept.stdout);
      expect(JSON.parse(kept.stdout).checkpoint_text).to.match(/\nsize 10\n/);

      await appendPayments(1);
      const honestFile = join(dir, 'honest.json');
      writeFileSync(honestFile, gateway('checkpoint', '--json').stdout);
      const honest = gateway('consistency', keptFile, honestFile);
      expect(honest.stdout).to.match(/^OK: the checkpoint of 13 events extends the one of 10/);
      expect(honest.code).to.equal(0);

      // Someone with the database and the signing key: edits the refund, rechains the stream,
      // replaces every checkpoint and signs a new one.
      const db = new Database(join(dataDir, 'events.db'));
      const rows = db
        .prepare('SELECT stream_id, version, type, schema_version, data, metadata FROM events WHERE stream_id = ? ORDER BY version')
        .all(`payment-${paymentId}`) as Array<{ stream_id: string; version: number; type: string; schema_version: number; data: string; metadata: string }>;
      let prevHash: string | null = null;
      for (const row of rows) {
        const data = JSON.parse(row.data) as Record<string, unknown>;
        if (row.type === 'RefundSucceeded') data.amount = 10;
        const chainHash = eventChainHash({ prevHash, streamId: row.stream_id, version: BigInt(row.version), type: row.type, schemaVersion: row.schema_version, data, metadata: JSON.parse(row.metadata) });
        db.prepare('UPDATE events SET data = ?, chain_hash = ? WHERE stream_id = ? AND version = ?').run(JSON.stringify(data), chainHash, row.stream_id, row.version);
        prevHash = chainHash;
      }
      db.prepare("DELETE FROM events WHERE stream_id = 'audit-checkpoints'").run();
      db.close();
      await appendPayments(2);
      const forgedFile = join(dir, 'forged.json');
      writeFileSync(forgedFile, gateway('checkpoint', '--json').stdout);

      const verify = gateway('verify');
      expect(verify.stdout).to.match(/^OK: /);
      expect(verify.code).to.equal(0);

      const caught = gateway('consistency', keptFile, forgedFile);
      expect(caught.stdout).to.match(/^INCONSISTENT: the newer checkpoint does not extend the older one: .* \(history behind it was rewritten\)/);
      expect(caught.code).to.equal(1);
    });
  });
});
