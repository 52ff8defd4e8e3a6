/**
 * The payout balance feeder's checkpoint: saved without stopping the workers' thread while the
 * projector holds the read models' write lock, a pass after a save that gave up starts where the
 * previous pass ended, not at the older checkpoint, and a pass told to stop saves where it ended.
 * Of the log it is handed only the money events, and its checkpoint moves past the rest.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sinon from 'sinon';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { NO_STREAM } from '../../src/application/ports/event-store';
import type { WorkerCheckpoint } from '../../src/application/checkpoint-saves';
import type { Logger } from '../../src/application/ports/logger';
import { BalanceFeeder } from '../../src/application/payouts/balance-feeder';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { settledSale } from '../support/direct-sale';
import { TestClock } from '../support/gateway-harness';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('payout balance feeder checkpoint on a busy database', function () {
  this.timeout(30_000);
  let dataDir = '';
  let g: Gateway;
  let merchantId = '';

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-feeder-checkpoint-'));
    const config = loadConfig({ DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_ENV: 'sandbox', GATEWAY_LOG_LEVEL: 'silent', VAULT_KEY: randomBytes(32).toString('hex') });
    g = await buildGateway(config, { withProjector: false, clock: new TestClock(), logger: quiet });
    merchantId = (await g.merchants.register({ name: 'Payout shop' })).merchant_id;
  });

  afterEach(async () => {
    await g.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A checkpoint held in memory: every save lands, and `saved` tells where. */
  const memoryCheckpoint = (initial: bigint | null): WorkerCheckpoint & { saved: bigint | null } => {
    const checkpoint = {
      saved: initial,
      load: async () => checkpoint.saved,
      save: async (position: bigint) => void (checkpoint.saved = position),
      trySave: async (position: bigint) => {
        checkpoint.saved = position;
        return true;
      },
    };
    return checkpoint;
  };
  const feederWith = (checkpoint: WorkerCheckpoint) => new BalanceFeeder({ store: g.store, balances: g.payouts.balances, checkpoint, clock: new TestClock() });

  it('Given the read models\' write lock held by another connection, when a pass runs, then the sale reaches the balance within a second and the checkpoint is saved once the lock is gone', async () => {
    await settledSale(g, merchantId);
    const holder = new Database(path.join(dataDir, 'read-models.db'));
    holder.exec('BEGIN IMMEDIATE');
    holder.prepare("UPDATE projection_checkpoints SET updated_at = updated_at WHERE name = 'nobody'").run();
    let tookMs: number;
    try {
      const started = Date.now();
      // A save that waited would hold the pass for the connection's 5 s busy timeout, then fail.
      expect(await g.payouts.feedBalances()).to.equal(1);
      tookMs = Date.now() - started;
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(tookMs, 'pass duration (ms)').to.be.below(1_000);
    expect((await g.payouts.balance(merchantId, 'EUR')).available).to.equal(1250);

    await settledSale(g, merchantId);
    // The pass reads up to here; the movements it records come after.
    const head = await g.store.headPosition();
    expect(await g.payouts.feedBalances()).to.equal(1);
    const saved = await g.readDb.selectFrom('projection_checkpoints').select('position').where('name', '=', 'payout-balance-feeder').executeTakeFirst();
    expect(saved?.position).to.equal(String(head));
  });

  it('Given saves that gave up, when the next pass runs, then it starts after the last pass, sending nothing twice', async () => {
    const feeder = feederWith({ load: async () => null, save: async () => undefined, trySave: async () => false });
    await settledSale(g, merchantId);
    expect(await feeder.runOnce()).to.equal(1);
    expect(await feeder.runOnce()).to.equal(0);
    await settledSale(g, merchantId);
    expect(await feeder.runOnce()).to.equal(1);
  });

  it('Given a database that is always busy, then eight passes give up their save, and the ninth waits and saves', async () => {
    const calls: Array<'try' | 'wait'> = [];
    let saved: bigint | null = null;
    const feeder = feederWith({
      load: async () => null,
      save: async (position) => {
        calls.push('wait');
        saved = position;
      },
      trySave: async () => {
        calls.push('try');
        return false;
      },
    });
    let head: bigint | null = null;
    for (let pass = 0; pass < 9; pass++) {
      await settledSale(g, merchantId);
      head = await g.store.headPosition();
      await feeder.runOnce();
    }
    expect(calls).to.deep.equal([...Array(8).fill('try'), 'wait']);
    expect(saved).to.equal(head);
  });

  it('Given a pass catching up a long log, when the gateway stops, then the pass ends after the page in hand with its checkpoint there, and the next pass feeds the rest once', async () => {
    for (let i = 0; i < 5; i++) await settledSale(g, merchantId);
    const checkpoint = memoryCheckpoint(null);
    const paged = (size: number) => new BalanceFeeder({ store: g.store, balances: g.payouts.balances, checkpoint, clock: new TestClock(), pageSize: size });
    const stopping = new AbortController();
    stopping.abort();

    const sentBeforeStop = await paged(2).runOnce(stopping.signal);
    const [, second] = await g.store.readAll({ after: null, maxCount: 2 });
    expect(checkpoint.saved, 'checkpoint after the one page read').to.equal(second!.position);

    // A new process (a fresh feeder) starts from that checkpoint.
    const sentAfter = await paged(200).runOnce();
    expect(sentBeforeStop + sentAfter).to.equal(5);
    expect((await g.payouts.balance(merchantId, 'EUR')).available).to.equal(5 * 1250);
  });

  it('Given a sale after hundreds of events that move no money, when passes run with small pages, then a page of none of them moves the checkpoint past it, and the sale is fed once with the checkpoint where the scan ended', async () => {
    const checkpoint = memoryCheckpoint(await g.store.headPosition());
    const start = checkpoint.saved;
    const paged = () => new BalanceFeeder({ store: g.store, balances: g.payouts.balances, checkpoint, clock: new TestClock(), pageSize: 50 });
    const noise = (count: number) => Array.from({ length: count }, (_, i) => ({ id: randomUUID(), type: 'NoteTaken', schemaVersion: 1, data: { i } }));
    for (let i = 0; i < 6; i++) await g.store.append(`notes-${randomUUID()}`, noise(50), NO_STREAM);
    const paymentId = await settledSale(g, merchantId);
    await g.store.append(`notes-${randomUUID()}`, noise(30), NO_STREAM);
    const lastNote = await g.store.headPosition();
    const fiftieth = (await g.store.readAll({ after: start, maxCount: 50 })).at(-1)!.position;
    const settled = (await g.store.readStream(`payment-${paymentId}`)).find((e) => e.type === 'PaymentSettled')!;

    const readAll = sinon.spy(SqliteEventStore.prototype, 'readAll');
    try {
      const stopping = new AbortController();
      stopping.abort();
      expect(await paged().runOnce(stopping.signal), 'movements of a page of notes').to.equal(0);
      expect(checkpoint.saved, 'checkpoint after a page of notes').to.equal(fiftieth);

      expect(await paged().runOnce(), 'movements of the rest').to.equal(1);
      expect(readAll.callCount, 'events read whole by readAll').to.equal(0);
    } finally {
      readAll.restore();
    }
    expect((await g.payouts.balance(merchantId, 'EUR')).available).to.equal(1250);
    // Where the scan ended, past the notes after the sale: not at the sale's last money event.
    expect(checkpoint.saved).to.equal(lastNote);
    expect(lastNote! >= settled.position + 30n).to.equal(true);
    // The next pass scans what this one recorded on the balance, and moves no money twice.
    expect(await paged().runOnce()).to.equal(0);
    expect(checkpoint.saved).to.equal(await g.store.headPosition());
  });
});
