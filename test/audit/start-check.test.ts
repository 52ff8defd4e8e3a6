/**
 * What a gateway checks before it serves: the newest checkpoint's range and everything after it.
 * Given a log with two checkpoints and payments after them, when someone edits it by hand, then a
 * change in the newest range or after it stops the start, and a change before it is left to
 * `audit verify` (which walks the whole log).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { eventsRead } from '../support/events-read';
import { ANY } from '../../src/application/ports/event-store';
import { AUDIT_CHECKPOINT_STREAM } from '../../src/domain/audit/checkpoint';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { BrokenLogError, checkLogAtStart } from '../../src/application/audit/start-check';
import { verifyEventLog } from '../../src/application/audit/verifier';
import { paymentStreamId } from '../../src/domain/payment/events';
import { TestClock } from '../support/gateway-harness';
import { appendPaymentEvents, paymentInitiated, paymentSettled, captureRequested, captureSucceeded, paymentAuthorized } from '../support/payment-fixtures';

const CHECK = { allowUnchainedHistory: false, allowBrokenLog: false };

describe('The event log check at start', () => {
  let dir: string;
  let store: SqliteEventStore;
  let db: Database.Database;
  /** old: before the first checkpoint; recent: in the newest checkpoint's range; tail: after it; spanning: authorized in the range, captured in the tail. */
  let streams: { old: string; recent: string; tail: string; spanning: string };

  const setAmount = (streamId: string, version: number, amount: number) =>
    db.prepare("UPDATE events SET data = json_set(data, '$.amount', ?) WHERE stream_id = ? AND version = ?").run(amount, streamId, version);
  const deleteEvent = (streamId: string, version: number) => db.prepare('DELETE FROM events WHERE stream_id = ? AND version = ?').run(streamId, version);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'start-check-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.db') });
    const recorder = new CheckpointRecorder({ store, clock: new TestClock() });
    const pay = async () => {
      const initiated = paymentInitiated();
      await appendPaymentEvents(store, initiated.data.paymentId, [initiated, paymentSettled(initiated.data.paymentId, { amount: 1000 })]);
      return initiated.data.paymentId;
    };
    const old = await pay();
    await recorder.recordIfMoved();
    const recent = await pay();
    const authorized = paymentInitiated({ kind: 'authorization', amount: 5000, amountText: '50.00' });
    const spanning = authorized.data.paymentId;
    await appendPaymentEvents(store, spanning, [authorized, paymentAuthorized(spanning, { amount: 5000 })]);
    await recorder.recordIfMoved();
    const tail = await pay();
    await appendPaymentEvents(store, spanning, [
      captureRequested(spanning, { operationId: 'op-1', amount: 5000, amountText: '50.00' }),
      captureSucceeded(spanning, { operationId: 'op-1', amount: 5000, amountText: '50.00' }),
    ]);
    streams = { old: paymentStreamId(old), recent: paymentStreamId(recent), tail: paymentStreamId(tail), spanning: paymentStreamId(spanning) };
    db = new Database(join(dir, 'events.db'));
  });

  afterEach(async () => {
    db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Given an untouched log, then it verifies the newest range and the tail only', async () => {
    const report = await checkLogAtStart(store, CHECK);
    const full = await verifyEventLog(store);
    expect(report.ok).to.equal(true);
    // The newest range (first checkpoint's own event, recent 2, spanning 2), the newest checkpoint, then
    // the tail (tail 2, spanning 2): the old payment before the first checkpoint's end is not read.
    expect(report.events).to.equal(10);
    expect(full.events).to.equal(12);
  });

  for (const [name, tamper, problem] of [
    ['an amount changed after the newest checkpoint', () => setAmount(streams.tail, 1, 99_999), 'hash_mismatch'],
    ['a capture changed in a stream that began before the newest checkpoint', () => setAmount(streams.spanning, 3, 99_999), 'hash_mismatch'],
    ['an amount changed in the newest checkpoint\'s range', () => setAmount(streams.recent, 1, 99_999), 'hash_mismatch'],
    ['the last event of a stream in the newest range removed', () => deleteEvent(streams.recent, 1), 'count_mismatch'],
  ] as Array<[string, () => void, string]>) {
    it(`Given ${name}, when a gateway starts, then it refuses with the broken link`, async () => {
      tamper();
      try {
        await checkLogAtStart(store, CHECK);
        expect.fail('the start check passed');
      } catch (error) {
        expect(error).to.be.instanceOf(BrokenLogError);
        expect((error as BrokenLogError).report.broken).to.include({ problem });
        expect((error as Error).message).to.match(/^The event log failed verification: BROKEN /);
      }
    });
  }

  describe('Given months of checkpoints and a stream written on for as long', () => {
    const long = 'payout-balance-merchant-1-EUR';
    const movement = (i: number) => ({ id: `movement-${i}`, type: 'PayoutMovementsRecorded', schemaVersion: 1, data: { n: i } });

    beforeEach(async () => {
      const recorder = new CheckpointRecorder({ store, clock: new TestClock() });
      let n = 0;
      for (let c = 0; c < 25; c++) {
        for (let i = 0; i < 8; i++, n++) await store.append(long, [movement(n)], ANY);
        await recorder.recordIfMoved();
      }
      await store.append(long, [movement(n)], ANY);
    });

    it('then what it reads of single streams is bounded by the range it walks, not by how long the streams have grown', async () => {
      const { result: report, read } = await eventsRead(store, () => checkLogAtStart(store, CHECK));
      expect(report).to.include({ ok: true, checkpoints: 1 });
      // The newest two checkpoints, and each stream from the predecessor of its first event in the walk on.
      expect(report.events).to.equal(11);
      expect(read).to.be.at.most(2 + report.events + 3);
      expect(await store.readStream(long)).to.have.length(201);
      expect(await verifyEventLog(store)).to.include({ ok: true, checkpoints: 27 });
    });

    it('when the checkpoint before the newest is removed, then it refuses', async () => {
      const newest = (await store.readStream(AUDIT_CHECKPOINT_STREAM)).at(-1)!;
      deleteEvent(AUDIT_CHECKPOINT_STREAM, Number(newest.version) - 1);
      try {
        await checkLogAtStart(store, CHECK);
        expect.fail('the start check passed');
      } catch (error) {
        expect(error).to.be.instanceOf(BrokenLogError);
      }
    });

    it('when a movement in the newest checkpoint\'s range is changed, then it refuses', async () => {
      const version = (await store.streamVersion(long))!;
      db.prepare("UPDATE events SET data = json_set(data, '$.n', 99) WHERE stream_id = ? AND version = ?").run(long, Number(version) - 2);
      try {
        await checkLogAtStart(store, CHECK);
        expect.fail('the start check passed');
      } catch (error) {
        expect((error as BrokenLogError).report.broken).to.include({ streamId: long, problem: 'hash_mismatch' });
      }
    });
  });

  it('Given a break it is told to allow (forensics), then it reports the break instead of refusing', async () => {
    setAmount(streams.tail, 1, 99_999);
    const report = await checkLogAtStart(store, { ...CHECK, allowBrokenLog: true });
    expect(report.ok).to.equal(false);
    expect(report.broken).to.include({ streamId: streams.tail, problem: 'hash_mismatch' });
  });

  it('Given a change before the newest checkpoint\'s range, then the start goes on and audit verify finds it', async () => {
    setAmount(streams.old, 1, 99_999);
    expect((await checkLogAtStart(store, CHECK)).ok).to.equal(true);
    expect((await verifyEventLog(store)).broken).to.include({ streamId: streams.old, problem: 'hash_mismatch' });
  });
});
