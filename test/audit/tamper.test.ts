/**
 * Someone with write access to the database edits the event log by hand. Whatever they change,
 * `audit verify` names the first broken link: the stream and version, or the checkpoint.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { Client } from 'pg';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { describeBroken, verifyEventLog } from '../../src/application/audit/verifier';
import type { EventStore } from '../../src/application/ports/event-store';
import { AUDIT_CHECKPOINT_STREAM } from '../../src/domain/audit/checkpoint';
import { eventChainHash } from '../../src/domain/audit/chain-hash';
import { paymentStreamId } from '../../src/domain/payment/events';
import {
  appendPaymentEvents,
  captureRequested,
  captureSucceeded,
  paymentAuthorized,
  paymentDeclined,
  paymentInitiated,
  paymentSettled,
} from '../support/payment-fixtures';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';
import { TestClock } from '../support/gateway-harness';
import { cliArgv } from '../support/launcher';

/** What a person with a SQL prompt can do to the events table. */
interface Tampering {
  store: EventStore;
  /** Rows of one stream event as stored: type, data and chain hash. */
  row(streamId: string, version: number): Promise<{ type: string; data: Record<string, unknown>; chainHash: string }>;
  setAmount(streamId: string, version: number, amount: number): Promise<void>;
  setRow(streamId: string, version: number, row: { type?: string; data?: Record<string, unknown>; chainHash?: string }): Promise<void>;
  deleteEvent(streamId: string, version: number): Promise<void>;
  setVersion(streamId: string, from: number, to: number): Promise<void>;
  close(): Promise<void>;
}

async function sqliteTampering(): Promise<Tampering> {
  const dir = mkdtempSync(join(tmpdir(), 'tamper-'));
  const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
  const db = new Database(join(dir, 'events.db'));
  const where = 'WHERE stream_id = ? AND version = ?';
  const tampering: Tampering = {
    store,
    async row(streamId, version) {
      const r = db.prepare(`SELECT type, data, chain_hash FROM events ${where}`).get(streamId, version) as {
        type: string;
        data: string;
        chain_hash: string;
      };
      return { type: r.type, data: JSON.parse(r.data), chainHash: r.chain_hash };
    },
    async setAmount(streamId, version, amount) {
      db.prepare(`UPDATE events SET data = json_set(data, '$.amount', ?) ${where}`).run(amount, streamId, version);
    },
    async setRow(streamId, version, row) {
      const current = await tampering.row(streamId, version);
      db.prepare(`UPDATE events SET type = ?, data = ?, chain_hash = ? ${where}`).run(
        row.type ?? current.type,
        JSON.stringify(row.data ?? current.data),
        row.chainHash ?? current.chainHash,
        streamId,
        version,
      );
    },
    async deleteEvent(streamId, version) {
      db.prepare(`DELETE FROM events ${where}`).run(streamId, version);
    },
    async setVersion(streamId, from, to) {
      db.prepare(`UPDATE events SET version = ? ${where}`).run(to, streamId, from);
    },
    async close() {
      db.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return tampering;
}

async function postgresTampering(): Promise<Tampering> {
  const { url, schema } = await createTestSchema('tamper');
  const store = await PostgresEventStore.create({ connectionString: url });
  const client = new Client({ connectionString: url });
  await client.connect();
  const where = 'where stream_id = $1 and version = $2';
  const tampering: Tampering = {
    store,
    async row(streamId, version) {
      const { rows } = await client.query(`select type, data, chain_hash from events ${where}`, [streamId, version]);
      return { type: rows[0].type, data: rows[0].data, chainHash: rows[0].chain_hash };
    },
    async setAmount(streamId, version, amount) {
      await client.query(`update events set data = jsonb_set(data, '{amount}', to_jsonb($3::int)) ${where}`, [streamId, version, amount]);
    },
    async setRow(streamId, version, row) {
      const current = await tampering.row(streamId, version);
      await client.query(`update events set type = $3, data = $4::jsonb, chain_hash = $5 ${where}`, [
        streamId,
        version,
        row.type ?? current.type,
        JSON.stringify(row.data ?? current.data),
        row.chainHash ?? current.chainHash,
      ]);
    },
    async deleteEvent(streamId, version) {
      await client.query(`delete from events ${where}`, [streamId, version]);
    },
    async setVersion(streamId, from, to) {
      await client.query(`update events set version = $3 ${where}`, [streamId, from, to]);
    },
    async close() {
      await client.end();
      await store.close();
      await dropSchema(schema);
    },
  };
  return tampering;
}

/**
 * A few payments, a checkpoint over them, and one more payment after it:
 *   captured  v0 PaymentInitiated, v1 PaymentAuthorized, v2 CaptureRequested, v3 CaptureSucceeded
 *   settled   v0 PaymentInitiated, v1 PaymentSettled
 *   declined  v0 PaymentInitiated, v1 PaymentDeclined
 *   -- checkpoint --
 *   late      v0 PaymentInitiated, v1 PaymentSettled
 */
async function writeHistory(store: EventStore) {
  const captured = paymentInitiated({ kind: 'authorization', amount: 5000, amountText: '50.00' });
  const capturedId = captured.data.paymentId;
  await appendPaymentEvents(store, capturedId, [captured, paymentAuthorized(capturedId, { amount: 5000 })]);
  const settled = paymentInitiated({ amount: 1999, amountText: '19.99' });
  await appendPaymentEvents(store, settled.data.paymentId, [settled, paymentSettled(settled.data.paymentId, { amount: 1999 })]);
  await appendPaymentEvents(store, capturedId, [
    captureRequested(capturedId, { operationId: 'op-1', amount: 5000, amountText: '50.00' }),
    captureSucceeded(capturedId, { operationId: 'op-1', amount: 5000, amountText: '50.00' }),
  ]);
  const declined = paymentInitiated();
  await appendPaymentEvents(store, declined.data.paymentId, [declined, paymentDeclined(declined.data.paymentId)]);
  const checkpoint = await new CheckpointRecorder({ store, clock: new TestClock() }).recordIfMoved();
  const late = paymentInitiated();
  await appendPaymentEvents(store, late.data.paymentId, [late, paymentSettled(late.data.paymentId, { amount: 1000 })]);
  return {
    captured: paymentStreamId(capturedId),
    settled: paymentStreamId(settled.data.paymentId),
    declined: paymentStreamId(declined.data.paymentId),
    late: paymentStreamId(late.data.paymentId),
    checkpoint: checkpoint!,
  };
}

const KINDS = [
  { label: 'SQLite', open: sqliteTampering, postgres: false },
  { label: 'PostgreSQL', open: postgresTampering, postgres: true },
];

for (const kind of KINDS) {
  describe(`tampering with the event log [${kind.label}]`, function () {
    if (kind.postgres) requirePostgres(this);
    let db: Tampering;
    let history: Awaited<ReturnType<typeof writeHistory>>;

    beforeEach(async function () {
      db = await kind.open();
      history = await writeHistory(db.store);
    });

    afterEach(async function () {
      await db.close();
    });

    it('verifies an untouched log', async function () {
      const report = await verifyEventLog(db.store, { pageSize: 3 });
      expect(report).to.include({ ok: true, events: 11, streams: 5, checkpoints: 1, broken: null });
      expect(report.latestCheckpoint?.upToPosition).to.equal(history.checkpoint.upToPosition);
    });

    it('an amount changed inside one event is reported with its stream and version', async function () {
      await db.setAmount(history.captured, 3, 500_000);
      const report = await verifyEventLog(db.store);
      expect(report.ok).to.equal(false);
      expect(report.broken).to.include({ kind: 'event', problem: 'hash_mismatch', streamId: history.captured, version: 3n });
      expect(describeBroken(report.broken!)).to.equal(`BROKEN ${history.captured} version 3: hash does not match its content`);
    });

    it('an event deleted from the middle of a stream is reported as missing', async function () {
      await db.deleteEvent(history.captured, 1);
      const report = await verifyEventLog(db.store);
      expect(report.broken).to.include({ kind: 'event', problem: 'missing', streamId: history.captured, version: 1n, foundVersion: 2n });
      expect(describeBroken(report.broken!)).to.match(new RegExp(`^BROKEN ${history.captured} version 1: is missing`));
    });

    it("the last event of a stream deleted after a checkpoint covered it is reported by the checkpoint", async function () {
      await db.deleteEvent(history.declined, 1);
      const report = await verifyEventLog(db.store);
      expect(report.broken).to.include({
        kind: 'checkpoint',
        problem: 'count_mismatch',
        streamId: AUDIT_CHECKPOINT_STREAM,
        version: 0n,
        recordedCount: 8,
        countedCount: 7,
      });
      expect(describeBroken(report.broken!)).to.match(/^BROKEN checkpoint at position \d+ .*: records 8 events, the log holds 7/);
    });

    it('two events whose contents were swapped are reported at the first of them', async function () {
      const [v1, v2] = [await db.row(history.captured, 1), await db.row(history.captured, 2)];
      await db.setRow(history.captured, 1, { type: v2.type, data: v2.data });
      await db.setRow(history.captured, 2, { type: v1.type, data: v1.data });
      const report = await verifyEventLog(db.store);
      expect(report.broken).to.include({ kind: 'event', problem: 'hash_mismatch', streamId: history.captured, version: 1n });
    });

    it('two events whose versions were swapped are reported with the stream and the version out of place', async function () {
      await db.setVersion(history.captured, 1, -1);
      await db.setVersion(history.captured, 2, 1);
      await db.setVersion(history.captured, -1, 2);
      const report = await verifyEventLog(db.store);
      // In the global log the event now numbered 2 comes first: version 1 is not where it belongs.
      expect(report.broken).to.include({ kind: 'event', problem: 'missing', streamId: history.captured, version: 1n, foundVersion: 2n });
    });

    it('an edit whose chain hashes were recomputed to match is still caught by the checkpoint', async function () {
      // The hash formula is public: rewrite the event and re-chain the rest of its stream.
      const events = await db.store.readStream(history.captured);
      let prevHash: string | null = events[1]!.chainHash;
      for (const event of events.slice(2)) {
        const data = event.version === 3n ? { ...event.data, amount: 500_000 } : event.data;
        const chainHash = eventChainHash({ ...event, data, prevHash });
        await db.setRow(history.captured, Number(event.version), { data, chainHash });
        prevHash = chainHash;
      }
      const report = await verifyEventLog(db.store);
      expect(report.broken).to.include({ kind: 'checkpoint', problem: 'digest_mismatch', streamId: AUDIT_CHECKPOINT_STREAM, version: 0n });
    });

    it('a checkpoint edited to match a tampered log is caught by its own chain', async function () {
      await db.deleteEvent(history.declined, 1);
      const checkpoint = await db.row(AUDIT_CHECKPOINT_STREAM, 0);
      await db.setRow(AUDIT_CHECKPOINT_STREAM, 0, { data: { ...checkpoint.data, eventCount: 7 } });
      const report = await verifyEventLog(db.store);
      expect(report.broken).to.include({ kind: 'event', problem: 'hash_mismatch', streamId: AUDIT_CHECKPOINT_STREAM, version: 0n });
    });
  });
}

describe('npm run gateway -- audit verify, as a process', function () {
  this.timeout(60_000);
  const ROOT = path.resolve(__dirname, '../..');
  let dataDir: string;
  let history: Awaited<ReturnType<typeof writeHistory>>;

  before(async function () {
    dataDir = mkdtempSync(join(tmpdir(), 'audit-cli-'));
    const store = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
    try {
      history = await writeHistory(store);
    } finally {
      await store.close();
    }
  });

  after(function () {
    rmSync(dataDir, { recursive: true, force: true });
  });

  function audit(...args: string[]) {
    const result = spawnSync(process.execPath, cliArgv('audit', 'verify', ...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 50_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('exits 0 on an intact store and 1 with the broken link once a row is edited', function () {
    const intact = audit();
    expect(intact.stdout).to.match(/^OK: 11 events in 5 streams, 1 checkpoints verified/);
    expect(intact.code).to.equal(0);

    const db = new Database(join(dataDir, 'events.db'));
    db.prepare("UPDATE events SET data = json_set(data, '$.amount', 1) WHERE stream_id = ? AND version = 1").run(history.settled);
    db.close();

    const broken = audit('--json');
    expect(broken.code).to.equal(1);
    expect(JSON.parse(broken.stdout).broken).to.include({ problem: 'hash_mismatch', streamId: history.settled, version: '1' });
    expect(audit().stdout).to.include(`BROKEN ${history.settled} version 1: hash does not match its content`);
  });
});
