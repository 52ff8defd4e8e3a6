/**
 * The two light reads of the log every store answers, natively or through the port's fallback:
 * chain hashes (src/application/ports/chain-hash-reader.ts) and pages of some event types
 * (src/application/ports/type-filtered-reader.ts). They must say exactly what `readAll` says, cut
 * down. Each adapter's spec file calls `lightReadsContract` beside `eventStoreContract`; like that
 * suite, this one reads relative to the head at the start and only types of its own, so it also
 * runs against a store that already holds events.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { chainHashReaderOf } from '../../src/application/ports/chain-hash-reader';
import { ANY, type EventStore, NO_STREAM, type NewEvent, type StoredEvent } from '../../src/application/ports/event-store';
import { typeFilteredReaderOf } from '../../src/application/ports/type-filtered-reader';
import { newEvent, type StoreUnderTest, streamName } from './contract';

export interface LightReadsOptions {
  /** The store offers both reads itself: the contract checks that it does, not only what it reads. */
  native: boolean;
}

export function lightReadsContract(name: string, make: () => Promise<StoreUnderTest>, options: LightReadsOptions): void {
  describe(`${name}: light reads contract`, function () {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let base: bigint | null;
    /** Types no other test or process appends. */
    let wanted: string;
    let alsoWanted: string;
    let other: string;

    beforeEach(async function () {
      ({ store, cleanup } = await make());
      base = await store.headPosition();
      const tag = randomUUID().slice(0, 8);
      [wanted, alsoWanted, other] = [`Wanted${tag}`, `AlsoWanted${tag}`, `Other${tag}`];
    });

    afterEach(async function () {
      await cleanup();
    });

    const typed = (type: string, n: number): NewEvent => newEvent({ n, text: `été ${n}`, big: '12345678901234567890' }, type);

    /** Appends `types` in order, one event each, across two streams; answers the events as read back. */
    async function appendTypes(types: string[]): Promise<StoredEvent[]> {
      const [a, b] = [streamName('light'), streamName('light')];
      for (const [i, type] of types.entries()) await store.append(i % 2 ? b : a, [typed(type, i)], ANY);
      const mine = new Set([a, b]);
      return (await store.readAll({ after: base })).filter((event) => mine.has(event.streamId));
    }

    it(options.native ? 'offers both reads itself' : 'offers neither read itself: the port falls back on readAll', function () {
      const reads = store as EventStore & { readChainHashes?: unknown; readAllOfTypes?: unknown };
      expect(typeof reads.readChainHashes === 'function', 'readChainHashes').to.equal(options.native);
      expect(typeof reads.readAllOfTypes === 'function', 'readAllOfTypes').to.equal(options.native);
    });

    describe('chain hashes', function () {
      it('are readAll\'s positions and chain hashes, page for page', async function () {
        const appended = await appendTypes([wanted, other, other, alsoWanted, other, wanted, other]);
        const reader = chainHashReaderOf(store);
        const pages: Array<{ after: bigint | null; maxCount?: number }> = [
          { after: base, maxCount: 3 },
          { after: appended[2]!.position, maxCount: 2 },
          { after: appended[5]!.position, maxCount: 10 },
          { after: base },
        ];
        for (const page of pages) {
          const expected = (await store.readAll(page)).filter((e) => e.position <= appended.at(-1)!.position);
          const read = (await reader.readChainHashes(page)).filter((e) => e.position <= appended.at(-1)!.position);
          expect(read, `after ${page.after}, ${page.maxCount ?? 'all'}`).to.deep.equal(expected.map((e) => ({ position: e.position, chainHash: e.chainHash })));
        }
        for (const entry of await reader.readChainHashes({ after: base })) expect(entry).to.have.all.keys('position', 'chainHash');
        expect(appended.every((e) => e.chainHash.length === 64)).to.equal(true);
      });

      it('reads nothing after the head', async function () {
        await appendTypes([other]);
        expect(await chainHashReaderOf(store).readChainHashes({ after: await store.headPosition(), maxCount: 5 })).to.deep.equal([]);
      });
    });

    describe('pages of some types', function () {
      it('hands out, of the next maxCount events, those of the types asked for, exactly as readAll reads them, and how far it scanned', async function () {
        const appended = await appendTypes([other, wanted, other, alsoWanted, other, other, wanted, other]);
        const reader = typeFilteredReaderOf(store);
        const page = await reader.readAllOfTypes([wanted, alsoWanted], { after: appended[0]!.position, maxCount: 4 });
        expect(page.scanned).to.equal(4);
        expect(page.scannedUpTo).to.equal(appended[4]!.position);
        expect(page.events).to.deep.equal([appended[1], appended[3]]);

        const next = await reader.readAllOfTypes([wanted], { after: page.scannedUpTo, maxCount: 4 });
        expect(next.scanned).to.equal(3);
        expect(next.scannedUpTo).to.equal(appended[7]!.position);
        expect(next.events).to.deep.equal([appended[6]]);
      });

      it('moves its scan past a page holding none of the types, so a follower reaches the one after them', async function () {
        const appended = await appendTypes([...Array<string>(12).fill(other), wanted, other]);
        const reader = typeFilteredReaderOf(store);
        let after = base;
        const seen: StoredEvent[] = [];
        const ends: Array<bigint | null> = [];
        for (;;) {
          const page = await reader.readAllOfTypes([wanted], { after, maxCount: 5 });
          seen.push(...page.events);
          if (page.scanned === 0) break;
          ends.push(page.scannedUpTo);
          after = page.scannedUpTo;
        }
        expect(seen.map((e) => e.id)).to.deep.equal([appended[12]!.id]);
        const mine = appended.map((e) => e.position);
        expect(ends, 'each page ends on the last event it scanned').to.deep.equal([mine[4], mine[9], mine[13]]);
        expect(after).to.equal(await store.headPosition());
      });

      it('at the head scans nothing and stays where it was; unbounded, scans to the head', async function () {
        const appended = await appendTypes([wanted, other, wanted]);
        const reader = typeFilteredReaderOf(store);
        const head = await store.headPosition();
        expect(await reader.readAllOfTypes([wanted], { after: head, maxCount: 10 })).to.deep.equal({ events: [], scanned: 0, scannedUpTo: head });
        const all = await reader.readAllOfTypes([wanted], { after: base });
        expect(all.scannedUpTo).to.equal(head);
        expect(all.events.filter((e) => e.type === wanted)).to.deep.equal([appended[0], appended[2]]);
        expect(all.events.every((e) => e.type === wanted)).to.equal(true);
      });

      it('answers a page of no type with the scan alone', async function () {
        const appended = await appendTypes([wanted, other]);
        const page = await typeFilteredReaderOf(store).readAllOfTypes([], { after: appended[0]!.position, maxCount: 10 });
        expect(page).to.deep.equal({ events: [], scanned: 1, scannedUpTo: appended[1]!.position });
      });

      it('a follower of the types, reading while writers append, is handed each event of them once, in order, and never scans past one it was not handed', async function () {
        const streams = Array.from({ length: 6 }, () => streamName('busy'));
        const types = [wanted, other, other, alsoWanted, other];
        let writing = true;
        const writers = Promise.all(
          streams.map(async (stream, s) => {
            for (let i = 0; i < 10; i++) {
              const events = Array.from({ length: 1 + ((s + i) % 3) }, (_, k) => typed(types[(s + i + k) % types.length]!, i));
              await store.append(stream, events, i === 0 ? NO_STREAM : ANY);
            }
          }),
        ).finally(() => (writing = false));

        const reader = typeFilteredReaderOf(store);
        const handed: StoredEvent[] = [];
        let after = base;
        for (;;) {
          const stillWriting = writing;
          const page = await reader.readAllOfTypes([wanted, alsoWanted], { after, maxCount: 7 });
          handed.push(...page.events);
          for (const event of page.events) expect(event.position > (after ?? -1n) && event.position <= page.scannedUpTo!).to.equal(true);
          after = page.scannedUpTo;
          if (!stillWriting && page.scanned < 7) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        await writers;

        const mine = new Set(streams);
        const expected = (await store.readAll({ after: base })).filter((e) => mine.has(e.streamId) && (e.type === wanted || e.type === alsoWanted));
        expect(expected.length).to.be.greaterThan(20);
        expect(handed.map((e) => e.id)).to.deep.equal(expected.map((e) => e.id));
        expect(after).to.equal(await store.headPosition());
      });
    });
  });
}
