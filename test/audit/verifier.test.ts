/**
 * The verifier's rules, on an in-memory log seen through edits that SQL cannot easily make
 * (events read out of order, hashes blanked, checkpoints rewritten with consistent chains).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { describeBroken, verifyEventLog } from '../../src/application/audit/verifier';
import type { EventStore, NewEvent, ReadAllOptions, StoredEvent } from '../../src/application/ports/event-store';
import { ANY } from '../../src/application/ports/event-store';
import { eventChainHash } from '../../src/domain/audit/chain-hash';
import { AUDIT_CHECKPOINT_STREAM } from '../../src/domain/audit/checkpoint';
import { TestClock } from '../support/gateway-harness';
import { MemoryEventStore } from '../support/memory-event-store';

const event = (n: number): NewEvent => ({ id: randomUUID(), type: 'ThingHappened', schemaVersion: 1, data: { n } });

/** Reads of `store` replaced by `reads`; everything else goes to the store itself. */
function readsOf(store: EventStore, reads: Pick<EventStore, 'readAll' | 'readStream' | 'headPosition'>): EventStore {
  return {
    append: (...args) => store.append(...args),
    appendMultiple: (writes) => store.appendMultiple(writes),
    streamVersion: (streamId) => store.streamVersion(streamId),
    subscribeToAll: (options) => store.subscribeToAll(options),
    close: () => store.close(),
    ...reads,
  };
}

/** The log as a reader would find it after someone edited it: `edit` sees all events in global order. */
function edited(store: EventStore, edit: (events: StoredEvent[]) => StoredEvent[]): EventStore {
  const view = async () => edit(await store.readAll()).sort((a, b) => (a.position < b.position ? -1 : 1));
  return readsOf(store, {
    headPosition: async () => (await view()).at(-1)?.position ?? null,
    readStream: async (streamId) =>
      (await view()).filter((e) => e.streamId === streamId).sort((a, b) => (a.version < b.version ? -1 : 1)),
    readAll: async (options: ReadAllOptions = {}) => {
      const after = options.after ?? null;
      const rest = (await view()).filter((e) => after === null || e.position > after);
      return options.maxCount === undefined ? rest : rest.slice(0, options.maxCount);
    },
  });
}

/** Re-chains a stream from its first event on, as someone who knows the formula would. */
function rechain(events: StoredEvent[], streamId: string): StoredEvent[] {
  let prevHash: string | null = null;
  return events.map((e) => {
    if (e.streamId !== streamId) return e;
    const chainHash = eventChainHash({ ...e, prevHash });
    prevHash = chainHash;
    return { ...e, chainHash };
  });
}

describe('audit verifier', function () {
  let store: MemoryEventStore;
  let recorder: CheckpointRecorder;

  beforeEach(function () {
    // Positions beyond 2^53 must stay exact through checkpoints and reports.
    store = new MemoryEventStore({ firstPosition: 2n ** 60n });
    recorder = new CheckpointRecorder({ store, clock: new TestClock(), pageSize: 4 });
  });

  it('walks a log larger than a page, with several checkpoints, and reports what it verified', async function () {
    for (let round = 0; round < 3; round += 1) {
      for (const stream of ['a', 'b', 'c']) await store.append(stream, [event(round), event(round + 10)], ANY);
      await recorder.recordIfMoved();
    }
    await store.append('a', [event(99)], ANY);
    const report = await verifyEventLog(store, { pageSize: 4 });
    expect(report).to.include({ ok: true, events: 22, streams: 4, checkpoints: 3, unchainedEvents: 0, broken: null });
    expect(report.headPosition).to.equal(2n ** 60n + 21n);
    expect(report.latestCheckpoint?.upToPosition).to.equal((2n ** 60n + 19n).toString());
  });

  it('reports an event read before an earlier version of its stream as out of order', async function () {
    await store.append('a', [event(0), event(1), event(2)], ANY);
    const broken = (
      await verifyEventLog(
        edited(store, (events) => {
          // Swap the global positions of versions 1 and 2.
          const [v0, v1, v2] = events;
          return [v0!, { ...v2!, position: v1!.position }, { ...v1!, position: v2!.position }];
        }),
      )
    ).broken;
    expect(broken).to.include({ kind: 'event', problem: 'missing', streamId: 'a', version: 1n, foundVersion: 2n });

    const duplicated = (await verifyEventLog(edited(store, (events) => [...events, { ...events[1]!, position: events[2]!.position + 1n }])))
      .broken;
    expect(duplicated).to.include({ problem: 'out_of_order', streamId: 'a', version: 1n, foundVersion: 2n });
    expect(describeBroken(duplicated!)).to.equal('BROKEN a version 1: out of order (it comes after version 2 in the global log)');
  });

  it('reports a missing first event and a blanked hash', async function () {
    await store.append('a', [event(0), event(1)], ANY);
    expect((await verifyEventLog(edited(store, (events) => events.slice(1)))).broken).to.include({
      problem: 'missing',
      streamId: 'a',
      version: 0n,
    });
    const blanked = edited(store, (events) => events.map((e) => (e.version === 1n ? { ...e, chainHash: '' } : e)));
    expect((await verifyEventLog(blanked)).broken).to.include({ problem: 'no_hash', streamId: 'a', version: 1n });
    expect((await verifyEventLog(blanked, { allowUnchainedHistory: true })).broken).to.include({ problem: 'no_hash', version: 1n });
  });

  it('accepts unchained history at the start of a stream only when told to (EventStoreDB)', async function () {
    await store.append('a', [event(0), event(1)], ANY);
    // The first event predates chains; the second was chained onto it from an empty hash.
    const legacy = edited(store, (events) => {
      const [first, second] = events;
      return [{ ...first!, chainHash: '' }, { ...second!, chainHash: eventChainHash({ ...second!, prevHash: null }) }];
    });
    expect((await verifyEventLog(legacy)).broken).to.include({ problem: 'no_hash', version: 0n });
    const report = await verifyEventLog(legacy, { allowUnchainedHistory: true });
    expect(report).to.include({ ok: true, events: 2, unchainedEvents: 1 });
  });

  it('reports a checkpoint relinked to another predecessor, even with its own chain recomputed', async function () {
    await store.append('a', [event(0)], ANY);
    await recorder.recordIfMoved();
    await store.append('a', [event(1)], ANY);
    await recorder.recordIfMoved();
    const relinked = edited(store, (events) =>
      rechain(
        events.map((e) =>
          e.streamId === AUDIT_CHECKPOINT_STREAM && e.version === 1n ? { ...e, data: { ...e.data, previousDigest: 'e'.repeat(64) } } : e,
        ),
        AUDIT_CHECKPOINT_STREAM,
      ),
    );
    const broken = (await verifyEventLog(relinked)).broken;
    expect(broken).to.include({ kind: 'checkpoint', problem: 'previous_mismatch', version: 1n });
    expect(describeBroken(broken!)).to.match(/^BROKEN checkpoint at position \d+ \(audit-checkpoints version 1\): links to a different previous checkpoint$/);
  });

  it('reports a checkpoint that is unreadable or claims events recorded after itself', async function () {
    await store.append('a', [event(0)], ANY);
    await recorder.recordIfMoved();
    const rewrite = (data: Record<string, unknown>) =>
      edited(store, (events) =>
        rechain(
          events.map((e) => (e.streamId === AUDIT_CHECKPOINT_STREAM ? { ...e, data: { ...e.data, ...data } } : e)),
          AUDIT_CHECKPOINT_STREAM,
        ),
      );
    expect((await verifyEventLog(rewrite({ digest: 'not a digest' }))).broken).to.include({ kind: 'checkpoint', problem: 'malformed' });
    const beyond = (2n ** 60n + 5n).toString();
    expect((await verifyEventLog(rewrite({ upToPosition: beyond }))).broken).to.include({ kind: 'checkpoint', problem: 'malformed' });
  });

  it('reports events of two streams that swapped places in the global log through the checkpoint', async function () {
    await store.append('a', [event(0)], ANY);
    await store.append('b', [event(1)], ANY);
    await recorder.recordIfMoved();
    const swapped = edited(store, (events) => {
      const [a, b, ...rest] = events;
      return [{ ...b!, position: a!.position }, { ...a!, position: b!.position }, ...rest];
    });
    expect((await verifyEventLog(swapped)).broken).to.include({ kind: 'checkpoint', problem: 'digest_mismatch' });
  });

  it('leaves events appended during the walk to the next run', async function () {
    await store.append('a', [event(0), event(1)], ANY);
    let appended = false;
    const growing = readsOf(store, {
      headPosition: () => store.headPosition(),
      readStream: (id) => store.readStream(id),
      readAll: async (options) => {
        if (!appended) {
          appended = true;
          await store.append('b', [event(2)], ANY);
        }
        return store.readAll(options);
      },
    });
    const report = await verifyEventLog(growing, { pageSize: 1 });
    expect(report).to.include({ ok: true, events: 2, streams: 1 });
  });
});
