/**
 * The light reads where no adapter answers them (the port's fallback on `readAll`, as for
 * EventStoreDB and test doubles), and on their way through the wrappers the gateway puts around its
 * adapter: the measured store keeps the adapter's reads, the upcasting store upcasts what the
 * type-filtered read hands out, and the gateway's stores reach the adapter's reads, not its readAll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sinon from 'sinon';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { GatewayMetrics } from '../../src/adapters/metrics/gateway-metrics';
import { MeasuredEventStore } from '../../src/adapters/metrics/measured-event-store';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { chainHashReaderOf } from '../../src/application/ports/chain-hash-reader';
import { ANY, type EventStore } from '../../src/application/ports/event-store';
import { systemClock } from '../../src/application/ports/clock';
import { typeFilteredReaderOf } from '../../src/application/ports/type-filtered-reader';
import { UpcastingEventStore } from '../../src/application/upcasting';
import { wireEventLog } from '../../src/composition/event-log';
import { loadConfig } from '../../src/config';
import { UpcasterRegistry } from '../../src/domain/upcasting/registry';
import { MemoryEventStore } from '../support/memory-event-store';
import { newEvent, streamName } from './contract';
import { lightReadsContract } from './light-reads-contract';

lightReadsContract(
  'in-memory test store (the port\'s fallback)',
  async () => {
    const store = new MemoryEventStore();
    return { store, cleanup: () => store.close() };
  },
  { native: false },
);

lightReadsContract(
  'SQLite, measured and upcast (the wrappers)',
  async () => {
    const adapter = new SqliteEventStore({ filename: ':memory:' });
    return { store: new UpcastingEventStore(new MeasuredEventStore(adapter, new GatewayMetrics())), cleanup: () => adapter.close() };
  },
  { native: true },
);

/** Version 1 of `Moved` said `cents`; version 2 says `amount`. */
const registry = new UpcasterRegistry([{ type: 'Moved', fromVersion: 1, upcast: ({ cents, ...rest }) => ({ ...rest, amount: cents }) }]);

describe('light reads through the wrappers', function () {
  let adapter: SqliteEventStore | undefined;
  afterEach(async () => {
    await adapter?.close();
    adapter = undefined;
  });

  async function storeWithHistory(inner: EventStore): Promise<void> {
    const stream = streamName('moves');
    await inner.append(stream, [{ id: randomUUID(), type: 'Moved', schemaVersion: 1, data: { cents: 125 } }, newEvent({}, 'Noise'), newEvent({}, 'Noise')], ANY);
    await inner.append(stream, [{ id: randomUUID(), type: 'Moved', schemaVersion: 2, data: { amount: 300 } }, newEvent({}, 'Noise')], ANY);
  }

  it('the measured store answers with the adapter\'s reads, never its readAll', async function () {
    const sqlite = (adapter = new SqliteEventStore({ filename: ':memory:' }));
    await storeWithHistory(sqlite);
    const measured = new MeasuredEventStore(sqlite, new GatewayMetrics());
    const readAll = sinon.spy(sqlite, 'readAll');
    const hashes = await chainHashReaderOf(measured).readChainHashes({ after: null, maxCount: 3 });
    const page = await typeFilteredReaderOf(measured).readAllOfTypes(['Moved'], { after: null, maxCount: 4 });
    expect(readAll.callCount).to.equal(0);
    readAll.restore();
    const all = await sqlite.readAll();
    expect(hashes).to.deep.equal(all.slice(0, 3).map(({ position, chainHash }) => ({ position, chainHash })));
    expect(page).to.deep.equal({ events: [all[0], all[3]], scanned: 4, scannedUpTo: all[3]!.position });
  });

  it('the measured store over a store without the reads offers none, so readers fall back on readAll', async function () {
    const measured = new MeasuredEventStore(new MemoryEventStore(), new GatewayMetrics()) as unknown as Record<string, unknown>;
    expect(measured.readChainHashes).to.equal(undefined);
    expect(measured.readAllOfTypes).to.equal(undefined);
  });

  for (const [name, makeRaw] of [
    ['the adapter\'s type-filtered read', () => (adapter = new SqliteEventStore({ filename: ':memory:' }))],
    ['the fallback', () => new MemoryEventStore()],
  ] as const) {
    it(`the upcasting store hands out upcast events from ${name}, the same as its readAll filtered`, async function () {
      const raw: EventStore = makeRaw();
      await storeWithHistory(raw);
      const upcasting = new UpcastingEventStore(new MeasuredEventStore(raw, new GatewayMetrics()), registry);
      const page = await typeFilteredReaderOf(upcasting).readAllOfTypes(['Moved'], { after: null });
      expect(page.events.map((e) => e.data)).to.deep.equal([{ amount: 125 }, { amount: 300 }]);
      expect(page.events).to.deep.equal((await upcasting.readAll()).filter((e) => e.type === 'Moved'));
      expect(page.scanned).to.equal(5);
      // Chain hashes cover the stored shape: the same through the upcasting store as underneath.
      expect(await chainHashReaderOf(upcasting).readChainHashes()).to.deep.equal(await chainHashReaderOf(raw).readChainHashes());
    });
  }

  it('the gateway\'s store as written reaches the adapter\'s chain-hash read: a checkpoint reads no event whole', async function () {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-light-reads-'));
    const config = loadConfig({ DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_ENV: 'sandbox', GATEWAY_LOG_LEVEL: 'silent', VAULT_KEY: randomBytes(32).toString('hex') });
    const log = await wireEventLog(config, { withProjector: false }, new GatewayMetrics());
    try {
      await storeWithHistory(log.store);
      const readAll = sinon.spy(log.adapter, 'readAll');
      const readChainHashes = sinon.spy(log.adapter as SqliteEventStore, 'readChainHashes');
      const recorded = await new CheckpointRecorder({ store: log.rawStore, clock: systemClock, pageSize: 2 }).recordIfMoved();
      expect(recorded?.eventCount).to.equal(5);
      expect(readChainHashes.callCount).to.equal(3);
      expect(readAll.callCount).to.equal(0);
      expect(typeof (log.store as EventStore & Record<string, unknown>).readAllOfTypes).to.equal('function');
    } finally {
      await log.store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
