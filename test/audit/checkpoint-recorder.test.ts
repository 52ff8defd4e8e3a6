import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { eventsRead } from '../support/events-read';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { LatestCheckpoint } from '../../src/application/audit/latest-checkpoint';
import { verifyEventLog } from '../../src/application/audit/verifier';
import { ANY, type NewEvent, type StoredEvent } from '../../src/application/ports/event-store';
import { loadConfig } from '../../src/config';
import { runGateway } from '../../src/server';
import { AUDIT_CHECKPOINT_RECORDED, AUDIT_CHECKPOINT_STREAM } from '../../src/domain/audit/checkpoint';
import { startAuditCheckpointer } from '../../src/workers/audit-checkpointer';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import type { Clock } from '../../src/application/ports/clock';
import { MemoryEventStore } from '../support/memory-event-store';

const event = (): NewEvent => ({ id: randomUUID(), type: 'ThingHappened', schemaVersion: 1, data: {} });

describe('audit checkpoints', function () {
  let store: MemoryEventStore;
  const clock: Clock = { now: () => new Date('2024-05-01T10:00:00.000Z') };

  beforeEach(function () {
    store = new MemoryEventStore();
  });

  it('records nothing on an empty log', async function () {
    expect(await new CheckpointRecorder({ store, clock }).recordIfMoved()).to.equal(null);
    expect(await store.readStream(AUDIT_CHECKPOINT_STREAM)).to.deep.equal([]);
  });

  it('covers the events since the previous checkpoint, chained to it, and stays quiet while the log is idle', async function () {
    const recorder = new CheckpointRecorder({ store, clock, pageSize: 2 });
    await store.append('payment-a', [event(), event(), event()], ANY);
    const first = await recorder.recordIfMoved();
    expect(first).to.include({ previousPosition: null, previousDigest: null, upToPosition: '2', eventCount: 3 });
    expect(first!.recordedAt).to.equal('2024-05-01T10:00:00.000Z');

    // Only the checkpoint itself was appended since: nothing to record, however often it is asked.
    expect(await recorder.recordIfMoved()).to.equal(null);
    expect(await recorder.recordIfMoved()).to.equal(null);

    await store.append('payment-b', [event()], ANY);
    const second = await recorder.recordIfMoved();
    // The first checkpoint's own event (position 3) and the new one (4).
    expect(second).to.include({ previousPosition: '2', previousDigest: first!.digest, upToPosition: '4', eventCount: 2 });

    const stored = await store.readStream(AUDIT_CHECKPOINT_STREAM);
    expect(stored.map((e) => [e.type, e.schemaVersion])).to.deep.equal([
      [AUDIT_CHECKPOINT_RECORDED, 1],
      [AUDIT_CHECKPOINT_RECORDED, 1],
    ]);
    expect(await verifyEventLog(store)).to.include({ ok: true, checkpoints: 2 });
  });

  it('continues the chain of checkpoints another process recorded', async function () {
    const [here, there] = [new CheckpointRecorder({ store, clock }), new CheckpointRecorder({ store, clock })];
    await store.append('payment-a', [event()], ANY);
    await here.recordIfMoved();
    await store.append('payment-a', [event()], ANY);
    const theirs = await there.recordIfMoved();
    await store.append('payment-a', [event()], ANY);
    const mine = await here.recordIfMoved();
    expect(mine).to.include({ previousDigest: theirs!.digest, previousPosition: theirs!.upToPosition });
    expect(await verifyEventLog(store)).to.include({ ok: true, checkpoints: 3 });
  });

  it('lets one of two recorders racing for the same checkpoint win; the other records nothing', async function () {
    await store.append('payment-a', [event(), event()], ANY);
    const results = await Promise.all([1, 2, 3].map(() => new CheckpointRecorder({ store, clock }).recordIfMoved()));
    expect(results.filter((r) => r !== null)).to.have.length(1);
    expect(await store.readStream(AUDIT_CHECKPOINT_STREAM)).to.have.length(1);
  });

  it('reads only the newest checkpoint of a long chain, to continue it and to show it', async function () {
    const recorder = new CheckpointRecorder({ store, clock });
    for (let i = 0; i < 30; i++) {
      await store.append('payment-a', [event()], ANY);
      await recorder.recordIfMoved();
    }
    const shown = await new LatestCheckpoint(store).read();
    const newest = (await store.readStream(AUDIT_CHECKPOINT_STREAM)).at(-1)!;
    const again = await eventsRead(store, () => new LatestCheckpoint(store).read(), AUDIT_CHECKPOINT_STREAM);
    expect(again.read).to.equal(1);
    expect(again.result).to.deep.equal(shown);
    expect(shown).to.include({ position: newest.position.toString(), upToPosition: newest.data.upToPosition, digest: newest.data.digest });

    await store.append('payment-a', [event()], ANY);
    const continued = await eventsRead(store, () => new CheckpointRecorder({ store, clock }).recordIfMoved(), AUDIT_CHECKPOINT_STREAM);
    expect(continued.read).to.equal(1);
    expect(continued.result).to.include({ previousDigest: newest.data.digest, previousPosition: newest.data.upToPosition });
    expect(await verifyEventLog(store)).to.include({ ok: true, checkpoints: 31 });
  });

  it('refuses to chain onto a newest checkpoint it cannot read', async function () {
    await store.append(AUDIT_CHECKPOINT_STREAM, [{ id: randomUUID(), type: AUDIT_CHECKPOINT_RECORDED, schemaVersion: 1, data: { digest: 'x' } }], ANY);
    await store.append('payment-a', [event()], ANY);
    let error: unknown;
    try {
      await new CheckpointRecorder({ store, clock }).recordIfMoved();
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.match(/audit verify/);
  });

  it('runs as a worker: each run records when the log moved, and logs it', async function () {
    const lines: string[] = [];
    const worker = startAuditCheckpointer({ store, clock, logger: createJsonLogger('info', (line) => lines.push(line)), intervalMs: 3_600_000 });
    try {
      await store.append('payment-a', [event(), event()], ANY);
      await worker.runOnce();
      await worker.runOnce();
      expect(await store.readStream(AUDIT_CHECKPOINT_STREAM)).to.have.length(1);
      const logged = lines.map((line) => JSON.parse(line) as { message: string; eventCount?: number; upToPosition?: string });
      expect(logged.map(({ message, eventCount, upToPosition }) => ({ message, eventCount, upToPosition }))).to.deep.equal([
        { message: 'audit checkpoint recorded', eventCount: 2, upToPosition: '1' },
      ]);
    } finally {
      await worker.stop();
    }
  });
});

describe('audit checkpoints in a running gateway', function () {
  this.timeout(30_000);

  it('are recorded by the process that projects, every AUDIT_CHECKPOINT_INTERVAL_SECONDS', async function () {
    const dataDir = mkdtempSync(join(tmpdir(), 'audit-role-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'silent', AUDIT_CHECKPOINT_INTERVAL_SECONDS: '1' });
    const running = await runGateway(config, 'projector');
    let recorded: StoredEvent[] = [];
    try {
      await running.gateway.store.append('payment-a', [event()], ANY);
      await waitFor(() => recorded.length > 0, 'the first checkpoint', 10_000, async () => {
        recorded = await running.gateway.rawStore.readStream(AUDIT_CHECKPOINT_STREAM);
      });
      expect(recorded[0]!.data).to.include({ previousPosition: null, eventCount: 1 });
    } finally {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Polls `refresh` until `done`; the interval is real time here, so only the deadline is waited for. */
async function waitFor(done: () => boolean, what: string, timeoutMs: number, refresh: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await refresh();
    if (done()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
