import { expect } from 'chai';
import { Client } from 'pg';
import { exactly, NO_STREAM, type StoredEvent, WrongExpectedVersionError } from '../../src/application/ports/event-store';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';
import {
  delay,
  eventStoreContract,
  expectStrictlyIncreasing,
  newEvent,
  newEvents,
  streamName,
  waitFor,
} from './contract';
import { lightReadsContract } from './light-reads-contract';
import { typeFilteredReaderOf } from '../../src/application/ports/type-filtered-reader';

describe('PostgreSQL event store', function () {
  requirePostgres(this);

  eventStoreContract('PostgreSQL', async () => {
    const { url, schema } = await createTestSchema('es');
    const store = await PostgresEventStore.create({ connectionString: url, pollIntervalMs: 20 });
    return {
      store,
      cleanup: async () => {
        await store.close();
        await dropSchema(schema);
      },
    };
  });

  lightReadsContract(
    'PostgreSQL',
    async () => {
      const { url, schema } = await createTestSchema('es');
      const store = await PostgresEventStore.create({ connectionString: url, pollIntervalMs: 20 });
      return {
        store,
        cleanup: async () => {
          await store.close();
          await dropSchema(schema);
        },
      };
    },
    { native: true },
  );

  describe('across processes', function () {
    let url: string;
    let schema: string;
    const open: PostgresEventStore[] = [];

    async function openStore(pollIntervalMs = 20): Promise<PostgresEventStore> {
      const store = await PostgresEventStore.create({ connectionString: url, pollIntervalMs, poolSize: 8 });
      open.push(store);
      return store;
    }

    beforeEach(async function () {
      ({ url, schema } = await createTestSchema('es'));
    });

    afterEach(async function () {
      await Promise.all(open.splice(0).map((store) => store.close()));
      await dropSchema(schema);
    });

    it('creates the table safely when several instances start at once', async function () {
      const stores = await Promise.all(Array.from({ length: 4 }, () => openStore()));
      await stores[0]!.append(streamName(), newEvents(1), NO_STREAM);
      expect(await stores[3]!.readAll()).to.have.length(1);
    });

    it('a subscriber never skips an event while two writers commit concurrently', async function () {
      const [writerA, writerB, reader] = [await openStore(), await openStore(), await openStore(5)];
      const seen: StoredEvent[] = [];
      const errors: unknown[] = [];
      const subscription = reader.subscribeToAll({
        after: null,
        onEvent: (event) => void seen.push(event),
        onError: (error) => errors.push(error),
      });

      const streamsPerWriter = 12;
      const appendsPerStream = 6;
      const write = (store: PostgresEventStore) =>
        Promise.all(
          Array.from({ length: streamsPerWriter }, async () => {
            const stream = streamName();
            let expected = NO_STREAM;
            for (let i = 0; i < appendsPerStream; i += 1) {
              const result = await store.append(stream, newEvents(1 + (i % 3)), expected);
              expected = exactly(result.nextExpectedVersion);
            }
          }),
        );
      await Promise.all([write(writerA), write(writerB)]);

      const all = await reader.readAll();
      const total = 2 * streamsPerWriter * (1 + 2 + 3 + 1 + 2 + 3);
      expect(all).to.have.length(total);
      await waitFor(() => seen.length >= total, 'the subscriber to catch up', 10_000);
      await delay(50);
      await subscription.stop();
      expect(errors).to.deep.equal([]);
      expectStrictlyIncreasing(seen);
      expect(seen.map((event) => event.id)).to.deep.equal(all.map((event) => event.id));
    });

    /**
     * A trigger that stalls appends to "slow-" streams after their position has been allocated and
     * before they commit: exactly the window in which another writer could overtake them.
     */
    async function stallSlowStreams(): Promise<void> {
      const admin = new Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`
          create function stall_slow_streams() returns trigger language plpgsql as $$
          begin
            if new.stream_id like 'slow-%' then perform pg_sleep(0.3); end if;
            return new;
          end $$;
          create trigger stall after insert on events for each row execute function stall_slow_streams();`);
      } finally {
        await admin.end();
      }
    }

    it('holds commit order when the transaction with the lower position commits late', async function () {
      const [slowWriter, fastWriter, reader] = [await openStore(), await openStore(), await openStore(2)];
      await stallSlowStreams();
      const seen: StoredEvent[] = [];
      const subscription = reader.subscribeToAll({ after: null, onEvent: (e) => void seen.push(e) });

      const slow = slowWriter.append(streamName('slow'), newEvents(1), NO_STREAM);
      await delay(50);
      const fast = fastWriter.append(streamName('fast'), newEvents(1), NO_STREAM);
      const [slowResult, fastResult] = await Promise.all([slow, fast]);
      expect(slowResult.position < fastResult.position).to.equal(true);
      await waitFor(() => seen.length >= 2, 'both events');
      await delay(30);
      await subscription.stop();
      expect(seen.map((e) => e.position)).to.deep.equal([slowResult.position, fastResult.position]);
    });

    it('a type-filtered follower never scans past an event whose transaction commits late', async function () {
      const [slowWriter, fastWriter, reader] = [await openStore(), await openStore(), await openStore()];
      await stallSlowStreams();
      const handed: StoredEvent[] = [];
      let after: bigint | null = null;
      let following = true;
      const follower = (async () => {
        while (following) {
          const page = await typeFilteredReaderOf(reader).readAllOfTypes(['Wanted'], { after, maxCount: 10 });
          handed.push(...page.events);
          after = page.scannedUpTo;
          await delay(2);
        }
      })();

      const slow = slowWriter.append(streamName('slow'), [newEvent({}, 'Wanted')], NO_STREAM);
      await delay(50);
      const fast = fastWriter.append(streamName('fast'), [newEvent({}, 'Other'), newEvent({}, 'Wanted')], NO_STREAM);
      const [slowResult, fastResult] = await Promise.all([slow, fast]);
      expect(slowResult.position < fastResult.position).to.equal(true);
      await waitFor(() => after === fastResult.position, 'the scan to reach the head');
      following = false;
      await follower;
      expect(handed.map((e) => e.position)).to.deep.equal([slowResult.position, fastResult.position]);
    });

    it('wakes subscribers of another instance through notifications', async function () {
      const writer = await openStore();
      const reader = await openStore(60_000);
      const seen: StoredEvent[] = [];
      const subscription = reader.subscribeToAll({ after: null, onEvent: (e) => void seen.push(e) });
      // Let the LISTEN connection come up; a missed notification would cost a minute here.
      await delay(200);
      await writer.append(streamName(), newEvents(2), NO_STREAM);
      await waitFor(() => seen.length === 2, 'the notification', 2000);
      await subscription.stop();
    });

    it('checks expected versions across instances', async function () {
      const [a, b] = [await openStore(), await openStore()];
      const stream = streamName();
      await a.append(stream, newEvents(1), NO_STREAM);
      const results = await Promise.allSettled([
        ...Array.from({ length: 10 }, () => a.append(stream, newEvents(1), exactly(0n))),
        ...Array.from({ length: 10 }, () => b.append(stream, newEvents(1), exactly(0n))),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).to.be.instanceOf(WrongExpectedVersionError);
      }
    });
  });
});
