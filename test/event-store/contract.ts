/**
 * The semantics every event store adapter must share. Each adapter's spec file calls
 * `eventStoreContract` with a factory; every test gets a store of its own from that factory.
 * Stream ids are unique per test and positions are taken relative to the head at the start, so
 * the suite also runs against a store that already holds events (a shared server).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  ANY,
  type AppendResult,
  type EventStore,
  exactly,
  NO_STREAM,
  type NewEvent,
  type StoredEvent,
  type Subscription,
  WrongExpectedVersionError,
} from '../../src/application/ports/event-store';
import { eventChainHash } from '../../src/domain/audit/chain-hash';

export interface StoreUnderTest {
  store: EventStore;
  cleanup(): Promise<void>;
}

export interface ContractOptions {
  /** False when `make` may return a store that already holds events. Default true. */
  startsEmpty?: boolean;
  /** False when the store cannot see that an event id is already used in another stream. */
  eventIdsUniqueAcrossStreams?: boolean;
  /** False when appendMultiple writes one stream after another instead of all or nothing. */
  atomicMultiStream?: boolean;
}

export function newEvent(data: Record<string, unknown> = {}, type = 'ThingHappened'): NewEvent {
  return { id: randomUUID(), type, schemaVersion: 1, data };
}

export function newEvents(count: number, prefix = 'e'): NewEvent[] {
  return Array.from({ length: count }, (_, i) => newEvent({ n: i, label: `${prefix}${i}` }));
}

export function streamName(prefix = 'stream'): string {
  return `${prefix}-${randomUUID()}`;
}

export async function waitFor(
  condition: () => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(5);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Checks that events arrive in strictly increasing position order, each exactly once. */
export function expectStrictlyIncreasing(events: StoredEvent[]): void {
  for (let i = 1; i < events.length; i += 1) {
    if (events[i]!.position <= events[i - 1]!.position) {
      expect.fail(
        `position ${events[i]!.position} at index ${i} does not follow ${events[i - 1]!.position}`,
      );
    }
  }
  expect(new Set(events.map((event) => event.id)).size).to.equal(events.length, 'duplicate event');
}

async function expectRejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.fail('expected the promise to reject');
}

export function eventStoreContract(
  name: string,
  make: () => Promise<StoreUnderTest>,
  options: ContractOptions = {},
): void {
  const startsEmpty = options.startsEmpty ?? true;
  const idsUniqueAcrossStreams = options.eventIdsUniqueAcrossStreams ?? true;
  const atomicMultiStream = options.atomicMultiStream ?? true;

  describe(`${name}: event store contract`, function () {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let base: bigint | null;
    const subscriptions: Subscription[] = [];

    beforeEach(async function () {
      ({ store, cleanup } = await make());
      base = await store.headPosition();
    });

    afterEach(async function () {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
      await cleanup();
    });

    /** Subscribes and collects the events of the given streams (all streams when omitted). */
    function collect(
      after: bigint | null,
      streams?: Set<string>,
    ): { events: StoredEvent[]; errors: unknown[]; subscription: Subscription } {
      const events: StoredEvent[] = [];
      const errors: unknown[] = [];
      const subscription = store.subscribeToAll({
        after,
        onEvent: (event) => {
          if (!streams || streams.has(event.streamId)) events.push(event);
        },
        onError: (error) => errors.push(error),
      });
      subscriptions.push(subscription);
      return { events, errors, subscription };
    }

    async function readMine(streams: Set<string>): Promise<StoredEvent[]> {
      return (await store.readAll({ after: base })).filter((event) => streams.has(event.streamId));
    }

    describe('appendMultiple', function () {
      it('writes several streams in one call, one result per write', async function () {
        const [a, b] = [streamName(), streamName()];
        const results = await store.appendMultiple([
          { streamId: a, events: newEvents(1), expected: NO_STREAM },
          { streamId: b, events: newEvents(2), expected: NO_STREAM },
        ]);
        expect(results.map((r) => r.nextExpectedVersion)).to.deep.equal([0n, 1n]);
        expect(results[1]!.position > results[0]!.position).to.equal(true);
        expect(await store.readStream(a)).to.have.length(1);
        expect(await store.readStream(b)).to.have.length(2);
      });

      it(
        atomicMultiStream
          ? 'writes nothing when one write is refused, and names the stream that refused'
          : 'stops at the first refused write, and names the stream that refused',
        async function () {
          const [a, taken] = [streamName(), streamName()];
          await store.append(taken, newEvents(1), NO_STREAM);
          let error: unknown;
          try {
            await store.appendMultiple([
              { streamId: a, events: newEvents(1), expected: NO_STREAM },
              { streamId: taken, events: newEvents(1), expected: NO_STREAM },
            ]);
          } catch (caught) {
            error = caught;
          }
          expect(error).to.be.instanceOf(WrongExpectedVersionError);
          expect((error as WrongExpectedVersionError).streamId).to.equal(taken);
          expect(await store.readStream(a)).to.have.length(atomicMultiStream ? 0 : 1);
          expect(await store.readStream(taken)).to.have.length(1);
        },
      );

      it('lets exactly one of many concurrent callers claim a stream, with its companion write', async function () {
        const claimed = streamName();
        const companions = Array.from({ length: 10 }, () => streamName());
        const outcomes = await Promise.allSettled(
          companions.map((companion) =>
            store.appendMultiple([
              { streamId: claimed, events: newEvents(1), expected: NO_STREAM },
              { streamId: companion, events: newEvents(1), expected: NO_STREAM },
            ]),
          ),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
        for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
          expect(o.reason).to.be.instanceOf(WrongExpectedVersionError);
        }
        const written = await Promise.all(companions.map((c) => store.readStream(c)));
        expect(written.filter((events) => events.length > 0)).to.have.length(1);
      });
    });

    describe('appendMultiple with a version check (a write with no events)', function () {
      it('lets the other writes commit when the checked stream stands at that version, writing nothing to it', async function () {
        const [checked, other] = [streamName(), streamName()];
        await store.append(checked, newEvents(2), NO_STREAM);
        const head = await store.headPosition();
        const results = await store.appendMultiple([
          { streamId: checked, events: [], expected: exactly(1n) },
          { streamId: other, events: newEvents(1), expected: NO_STREAM },
        ]);
        expect(results[0]).to.deep.equal({ nextExpectedVersion: 1n, position: -1n });
        expect(results[1]!.nextExpectedVersion).to.equal(0n);
        expect(results[1]!.position > head!).to.equal(true);
        expect(await store.readStream(checked)).to.have.length(2);
        expect(await store.streamVersion(checked)).to.equal(1n);
        expect(await store.readStream(other)).to.have.length(1);
      });

      it('checks a stream that a write of the same call appended to before it', async function () {
        const stream = streamName();
        const results = await store.appendMultiple([
          { streamId: stream, events: newEvents(2), expected: NO_STREAM },
          { streamId: stream, events: [], expected: exactly(1n) },
        ]);
        expect(results[1]).to.deep.equal({ nextExpectedVersion: 1n, position: -1n });
        expect(await store.readStream(stream)).to.have.length(2);
      });

      for (const [label, prepare, checkedAt] of [
        ['a wrong version', (s: string) => store.append(s, newEvents(2), NO_STREAM), 0n],
        ['a version the stream has not reached', (s: string) => store.append(s, newEvents(1), NO_STREAM), 1n],
        ['a missing stream', async () => undefined, 0n],
      ] as const) {
        it(`fails the call at ${label}, naming the checked stream, and writes nothing`, async function () {
          const [checked, fresh, existing] = [streamName(), streamName(), streamName()];
          await prepare(checked);
          await store.append(existing, newEvents(1), NO_STREAM);
          const before = await store.streamVersion(checked);
          const head = await store.headPosition();
          const error = await expectRejection(
            store.appendMultiple([
              { streamId: checked, events: [], expected: exactly(checkedAt) },
              { streamId: fresh, events: newEvents(1), expected: NO_STREAM },
              { streamId: existing, events: newEvents(1), expected: exactly(0n) },
            ]),
          );
          expect(error).to.be.instanceOf(WrongExpectedVersionError);
          expect((error as WrongExpectedVersionError).streamId).to.equal(checked);
          expect((error as WrongExpectedVersionError).actual).to.equal(before);
          expect(await store.streamVersion(checked)).to.equal(before);
          expect(await store.readStream(fresh)).to.deep.equal([]);
          expect(await store.readStream(existing)).to.have.length(1);
          expect(await store.headPosition()).to.equal(head);
        });
      }

      if (atomicMultiStream) {
        it('fails the call when a check placed after the writes does not hold, and writes nothing', async function () {
          const [checked, fresh] = [streamName(), streamName()];
          await store.append(checked, newEvents(1), NO_STREAM);
          const error = await expectRejection(
            store.appendMultiple([
              { streamId: fresh, events: newEvents(1), expected: NO_STREAM },
              { streamId: checked, events: [], expected: exactly(3n) },
            ]),
          );
          expect((error as WrongExpectedVersionError).streamId).to.equal(checked);
          expect(await store.readStream(fresh)).to.deep.equal([]);
        });
      }

      it('refuses a write with no events and any other expected version, writing nothing', async function () {
        for (const expected of [NO_STREAM, ANY]) {
          const [empty, fresh] = [streamName(), streamName()];
          const error = await expectRejection(
            store.appendMultiple([
              { streamId: fresh, events: newEvents(1), expected: NO_STREAM },
              { streamId: empty, events: [], expected },
            ]),
          );
          expect(error).to.be.instanceOf(Error);
          expect(error).not.to.be.instanceOf(WrongExpectedVersionError);
          expect(await store.readStream(fresh)).to.deep.equal([]);
        }
      });

      it('refuses an append with no events, even at an exact version', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(1), NO_STREAM);
        const error = await expectRejection(store.append(stream, [], exactly(0n)));
        expect(error).to.be.instanceOf(Error);
        expect(error).not.to.be.instanceOf(WrongExpectedVersionError);
      });

      it('commits the other calls of a group where one call\'s check fails', async function () {
        const checked = streamName();
        await store.append(checked, newEvents(1), NO_STREAM);
        const fresh = Array.from({ length: 6 }, () => streamName());
        // Issued together, so the stores that commit in groups decide them in one group.
        const outcomes = await Promise.allSettled(
          fresh.map((stream, i) =>
            store.appendMultiple([
              { streamId: checked, events: [], expected: exactly(i === 2 ? 5n : 0n) },
              { streamId: stream, events: newEvents(1), expected: NO_STREAM },
            ]),
          ),
        );
        expect(outcomes.map((o) => o.status)).to.deep.equal(fresh.map((_, i) => (i === 2 ? 'rejected' : 'fulfilled')));
        const refused = outcomes[2] as PromiseRejectedResult;
        expect(refused.reason).to.be.instanceOf(WrongExpectedVersionError);
        expect((refused.reason as WrongExpectedVersionError).streamId).to.equal(checked);
        const written = await Promise.all(fresh.map((stream) => store.readStream(stream)));
        expect(written.map((events) => events.length)).to.deep.equal(fresh.map((_, i) => (i === 2 ? 0 : 1)));
        expect(await store.readStream(checked)).to.have.length(1);
      });

      it('decides checks in a group that also repeats an event id (the stores\' call-by-call path)', async function () {
        const checked = streamName();
        await store.append(checked, newEvents(1), NO_STREAM);
        const [repeated, passing, failing] = [streamName(), streamName(), streamName()];
        const events = newEvents(1);
        const outcomes = await Promise.allSettled([
          // A store that commits while the next group gathers commits this one alone; the rest
          // then share a group.
          store.appendMultiple([{ streamId: streamName(), events: newEvents(1), expected: NO_STREAM }]),
          store.appendMultiple([{ streamId: repeated, events, expected: ANY }]),
          store.appendMultiple([{ streamId: repeated, events, expected: ANY }]),
          store.appendMultiple([
            { streamId: checked, events: [], expected: exactly(0n) },
            { streamId: passing, events: newEvents(1), expected: NO_STREAM },
          ]),
          store.appendMultiple([
            { streamId: checked, events: [], expected: exactly(1n) },
            { streamId: failing, events: newEvents(1), expected: NO_STREAM },
          ]),
        ]);
        expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
        expect((outcomes[3] as PromiseFulfilledResult<AppendResult[]>).value[0]).to.deep.equal({ nextExpectedVersion: 0n, position: -1n });
        expect(((outcomes[4] as PromiseRejectedResult).reason as WrongExpectedVersionError).streamId).to.equal(checked);
        expect(await store.readStream(repeated)).to.have.length(1);
        expect(await store.readStream(passing)).to.have.length(1);
        expect(await store.readStream(failing)).to.deep.equal([]);
        expect(await store.readStream(checked)).to.have.length(1);
      });

      it('refuses the calls of a group whose check follows another call\'s append to the checked stream', async function () {
        const checked = streamName();
        await store.append(checked, newEvents(1), NO_STREAM);
        const [first, second] = [streamName(), streamName()];
        const outcomes = await Promise.allSettled([
          store.appendMultiple([
            { streamId: checked, events: newEvents(1), expected: exactly(0n) },
            { streamId: first, events: newEvents(1), expected: NO_STREAM },
          ]),
          store.appendMultiple([
            { streamId: checked, events: [], expected: exactly(0n) },
            { streamId: second, events: newEvents(1), expected: NO_STREAM },
          ]),
        ]);
        // Either order is a serial one: the check passed before the append, or failed after it.
        const checkedFirst = outcomes[1]!.status === 'fulfilled';
        expect(outcomes[0]!.status).to.equal('fulfilled');
        expect(await store.readStream(checked)).to.have.length(2);
        expect(await store.readStream(second)).to.have.length(checkedFirst ? 1 : 0);
        if (!checkedFirst) {
          expect(((outcomes[1] as PromiseRejectedResult).reason as WrongExpectedVersionError).streamId).to.equal(checked);
        }
      });
    });

    describe('streamVersion', function () {
      it('is null for a missing stream and the last version after appends', async function () {
        const stream = streamName();
        expect(await store.streamVersion(stream)).to.equal(null);
        await store.append(stream, newEvents(2), NO_STREAM);
        expect(await store.streamVersion(stream)).to.equal(1n);
        await store.append(stream, newEvents(1), exactly(1n));
        expect(await store.streamVersion(stream)).to.equal(2n);
        expect(await store.streamVersion(streamName())).to.equal(null);
      });
    });

    describe('append', function () {
      it('creates a stream with no_stream and numbers versions from 0', async function () {
        const stream = streamName();
        const result = await store.append(stream, newEvents(3), NO_STREAM);
        expect(result.nextExpectedVersion).to.equal(2n);
        const stored = await store.readStream(stream);
        expect(stored.map((event) => event.version)).to.deep.equal([0n, 1n, 2n]);
        expect(result.position).to.equal(stored[2]!.position);
        expect(typeof result.position).to.equal('bigint');
      });

      it('rejects no_stream on an existing stream with WrongExpectedVersionError', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(1), NO_STREAM);
        const error = await expectRejection(store.append(stream, newEvents(1), NO_STREAM));
        expect(error).to.be.instanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).streamId).to.equal(stream);
        expect((error as WrongExpectedVersionError).actual).to.equal(0n);
        expect(await store.readStream(stream)).to.have.length(1);
      });

      it('accepts an exact version that matches and rejects one that does not', async function () {
        const stream = streamName();
        const first = await store.append(stream, newEvents(2), NO_STREAM);
        const second = await store.append(stream, newEvents(1), exactly(first.nextExpectedVersion));
        expect(second.nextExpectedVersion).to.equal(2n);
        expect(second.position > first.position).to.equal(true);

        for (const wrong of [0n, 1n, 3n, 10n]) {
          const error = await expectRejection(store.append(stream, newEvents(1), exactly(wrong)));
          expect(error).to.be.instanceOf(WrongExpectedVersionError);
          expect((error as WrongExpectedVersionError).actual).to.equal(2n);
        }
        expect(await store.readStream(stream)).to.have.length(3);
      });

      it('rejects an exact version on a stream that does not exist', async function () {
        const stream = streamName();
        const error = await expectRejection(store.append(stream, newEvents(1), exactly(0n)));
        expect(error).to.be.instanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).to.equal(null);
        expect(await store.readStream(stream)).to.deep.equal([]);
      });

      it('appends with any to new and existing streams', async function () {
        const stream = streamName();
        expect((await store.append(stream, newEvents(2), ANY)).nextExpectedVersion).to.equal(1n);
        expect((await store.append(stream, newEvents(2), ANY)).nextExpectedVersion).to.equal(3n);
        const stored = await store.readStream(stream);
        expect(stored.map((event) => event.version)).to.deep.equal([0n, 1n, 2n, 3n]);
      });

      it('continues versions across appends', async function () {
        const stream = streamName();
        let result = await store.append(stream, newEvents(1), NO_STREAM);
        for (let i = 0; i < 4; i += 1) {
          result = await store.append(stream, newEvents(2), exactly(result.nextExpectedVersion));
        }
        expect(result.nextExpectedVersion).to.equal(8n);
        const versions = (await store.readStream(stream)).map((event) => event.version);
        expect(versions).to.deep.equal([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]);
      });

      it('treats a re-append of the same event ids as a no-op returning the first result', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(1), NO_STREAM);
        const events = newEvents(2);
        const first = await store.append(stream, events, exactly(0n));
        const head = await store.headPosition();

        const again = await store.append(stream, events, exactly(0n));
        expect(again).to.deep.equal(first);
        // Whatever the expected version says: the first attempt already passed the check.
        expect(await store.append(stream, events, NO_STREAM)).to.deep.equal(first);
        expect(await store.append(stream, events, exactly(42n))).to.deep.equal(first);
        expect(await store.append(stream, events, ANY)).to.deep.equal(first);

        // Still the first result once the stream has moved on.
        await store.append(stream, newEvents(1), exactly(2n));
        expect(await store.append(stream, events, exactly(0n))).to.deep.equal(first);

        const stored = await store.readStream(stream);
        expect(stored).to.have.length(4);
        expect(stored.filter((event) => events.some((e) => e.id === event.id))).to.have.length(2);
        expect((await store.headPosition())! > head!).to.equal(true);
      });

      it('rejects an append that partly repeats stored event ids and writes nothing', async function () {
        const stream = streamName();
        const events = newEvents(2);
        await store.append(stream, events, NO_STREAM);
        const head = await store.headPosition();
        const overlapping = [events[1]!, newEvent()];
        for (const expected of [exactly(1n), ANY]) {
          const error = await expectRejection(store.append(stream, overlapping, expected));
          expect(error).to.be.instanceOf(Error);
          expect(error).not.to.be.instanceOf(WrongExpectedVersionError);
        }
        // Same ids in another order is not a retry either.
        const reordered = await expectRejection(store.append(stream, [events[1]!, events[0]!], ANY));
        expect(reordered).to.be.instanceOf(Error);
        expect(await store.readStream(stream)).to.have.length(2);
        expect(await store.headPosition()).to.equal(head);
      });

      it('rejects an event id repeated inside one append', async function () {
        const stream = streamName();
        const event = newEvent();
        const error = await expectRejection(store.append(stream, [event, { ...event }], NO_STREAM));
        expect(error).to.be.instanceOf(Error);
        expect(await store.readStream(stream)).to.deep.equal([]);
      });

      if (idsUniqueAcrossStreams) {
        it('rejects an event id already stored in another stream', async function () {
          const events = newEvents(1);
          await store.append(streamName(), events, NO_STREAM);
          const other = streamName();
          const error = await expectRejection(store.append(other, events, NO_STREAM));
          expect(error).to.be.instanceOf(Error);
          expect(error).not.to.be.instanceOf(WrongExpectedVersionError);
          expect(await store.readStream(other)).to.deep.equal([]);
        });
      }

      it('fails only the conflicting append among appends issued together', async function () {
        const existing = streamName();
        await store.append(existing, newEvents(1), NO_STREAM);
        const fresh = [streamName(), streamName(), streamName()];
        const results = await Promise.allSettled([
          store.append(fresh[0]!, newEvents(1), NO_STREAM),
          store.append(existing, newEvents(1), exactly(7n)),
          store.append(fresh[1]!, newEvents(2), NO_STREAM),
          store.append(existing, newEvents(1), NO_STREAM),
          store.append(fresh[2]!, newEvents(1), ANY),
        ]);
        expect(results.map((result) => result.status)).to.deep.equal([
          'fulfilled',
          'rejected',
          'fulfilled',
          'rejected',
          'fulfilled',
        ]);
        for (const result of results) {
          if (result.status === 'rejected') {
            expect(result.reason).to.be.instanceOf(WrongExpectedVersionError);
          }
        }
        expect(await store.readStream(existing)).to.have.length(1);
        for (const stream of fresh) expect(await store.readStream(stream)).to.not.be.empty;
      });
    });

    describe('readStream', function () {
      it('returns the events of one stream in version order', async function () {
        const stream = streamName();
        const other = streamName();
        const events = newEvents(5);
        await store.append(stream, events.slice(0, 2), NO_STREAM);
        await store.append(other, newEvents(2), NO_STREAM);
        await store.append(stream, events.slice(2), exactly(1n));
        const stored = await store.readStream(stream);
        expect(stored.map((event) => event.id)).to.deep.equal(events.map((event) => event.id));
        expect(stored.every((event) => event.streamId === stream)).to.equal(true);
      });

      it('returns an empty list for a stream that does not exist', async function () {
        expect(await store.readStream(streamName())).to.deep.equal([]);
      });

      it('reads only the events after a version when given one', async function () {
        const stream = streamName();
        const events = newEvents(5);
        await store.append(stream, events.slice(0, 3), NO_STREAM);
        await store.append(streamName(), newEvents(1), NO_STREAM);
        await store.append(stream, events.slice(3), exactly(2n));
        const after = await store.readStream(stream, { after: 2n });
        expect(after.map((event) => event.id)).to.deep.equal(events.slice(3).map((event) => event.id));
        expect(after.map((event) => event.version)).to.deep.equal([3n, 4n]);
        expect((await store.readStream(stream, { after: null })).map((event) => event.id)).to.deep.equal(events.map((event) => event.id));
        expect((await store.readStream(stream, { after: -1n })).map((event) => event.id)).to.deep.equal(events.map((event) => event.id));
        expect(await store.readStream(stream, { after: 4n })).to.deep.equal([]);
        expect(await store.readStream(stream, { after: 40n })).to.deep.equal([]);
        expect(await store.readStream(streamName(), { after: 0n })).to.deep.equal([]);
      });

      it('reads at most maxCount events, the first ones after the version given', async function () {
        const stream = streamName();
        const events = newEvents(5);
        await store.append(stream, events, NO_STREAM);
        const ids = async (options: { after?: bigint | null; maxCount?: number }) => (await store.readStream(stream, options)).map((event) => event.id);
        expect(await ids({ maxCount: 2 })).to.deep.equal(events.slice(0, 2).map((event) => event.id));
        expect(await ids({ after: 1n, maxCount: 2 })).to.deep.equal(events.slice(2, 4).map((event) => event.id));
        expect(await ids({ after: 3n, maxCount: 10 })).to.deep.equal(events.slice(4).map((event) => event.id));
        expect(await ids({ after: 1n, maxCount: 0 })).to.deep.equal([]);
      });
    });

    describe('readAll and headPosition', function () {
      it('reads all streams in global order', async function () {
        const streams = [streamName('a'), streamName('b'), streamName('c')];
        const appended: string[] = [];
        const results: AppendResult[] = [];
        for (let round = 0; round < 3; round += 1) {
          for (const stream of streams) {
            const events = newEvents(round + 1);
            results.push(
              await store.append(stream, events, round === 0 ? NO_STREAM : ANY),
            );
            appended.push(...events.map((event) => event.id));
          }
        }
        const all = await readMine(new Set(streams));
        expect(all.map((event) => event.id)).to.deep.equal(appended);
        expectStrictlyIncreasing(all);
        expect(results.map((result) => result.position)).to.deep.equal(
          [...results.map((result) => result.position)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        );
      });

      it('reads strictly after the given position and at most maxCount events', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(6), NO_STREAM);
        const all = await readMine(new Set([stream]));
        expect(all).to.have.length(6);

        const afterSecond = await store.readAll({ after: all[1]!.position });
        expect(afterSecond.map((event) => event.id)).to.deep.equal(all.slice(2).map((event) => event.id));

        const page = await store.readAll({ after: all[1]!.position, maxCount: 2 });
        expect(page.map((event) => event.id)).to.deep.equal(all.slice(2, 4).map((event) => event.id));

        expect(await store.readAll({ after: all[5]!.position })).to.deep.equal([]);
        expect(await store.readAll({ after: base, maxCount: 0 })).to.deep.equal([]);
        const first = await store.readAll({ after: base, maxCount: 1 });
        expect(first.map((event) => event.id)).to.deep.equal([all[0]!.id]);
      });

      it('reports the position of the newest event as head', async function () {
        if (startsEmpty) {
          expect(await store.headPosition()).to.equal(null);
          expect(await store.readAll()).to.deep.equal([]);
        }
        const first = await store.append(streamName(), newEvents(2), NO_STREAM);
        expect(await store.headPosition()).to.equal(first.position);
        const second = await store.append(streamName(), newEvents(1), NO_STREAM);
        expect(await store.headPosition()).to.equal(second.position);
        const all = await store.readAll({ after: base });
        expect(all[all.length - 1]!.position).to.equal(second.position);
      });
    });

    describe('round trip', function () {
      it('keeps type, schema version, data and metadata', async function () {
        const stream = streamName();
        const data = {
          amount: 1999,
          currency: 'EUR',
          captured: false,
          note: null,
          ratio: 0.25,
          text: 'Zürich — 東京 "quoted" \\ back',
          card: { brand: 'visa', last4: '4242', nested: { deeper: { list: [1, 'two', { three: 3 }] } } },
          tags: ['a', 'b'],
          empty: {},
        };
        const event: NewEvent = {
          id: randomUUID(),
          type: 'PaymentAuthorized',
          schemaVersion: 3,
          data,
          metadata: { correlationId: randomUUID(), causationId: randomUUID(), actor: { kind: 'merchant' } },
        };
        const before = Date.now();
        await store.append(stream, [event], NO_STREAM);
        const [stored] = await store.readStream(stream);
        expect(stored!.id).to.equal(event.id);
        expect(stored!.type).to.equal('PaymentAuthorized');
        expect(stored!.schemaVersion).to.equal(3);
        expect(stored!.data).to.deep.equal(data);
        expect(stored!.metadata).to.deep.equal(event.metadata);
        expect(stored!.streamId).to.equal(stream);
        const recordedAt = Date.parse(stored!.recordedAt);
        expect(Number.isNaN(recordedAt)).to.equal(false);
        expect(recordedAt).to.be.within(before - 60_000, Date.now() + 60_000);

        const [fromAll] = (await store.readAll({ after: base })).filter((e) => e.streamId === stream);
        expect(fromAll).to.deep.equal(stored);
      });

      it('stores an empty metadata object when none is given', async function () {
        const stream = streamName();
        await store.append(stream, [newEvent({ x: 1 })], NO_STREAM);
        const [stored] = await store.readStream(stream);
        expect(stored!.metadata).to.deep.equal({});
      });
    });

    describe('subscribeToAll', function () {
      it('delivers history, then live events, in order', async function () {
        const stream = streamName();
        const history = newEvents(3, 'h');
        await store.append(stream, history, NO_STREAM);
        const { events, errors } = collect(base, new Set([stream]));
        await waitFor(() => events.length === 3, 'history');
        const live = newEvents(2, 'l');
        await store.append(stream, live.slice(0, 1), exactly(2n));
        await store.append(stream, live.slice(1), exactly(3n));
        await waitFor(() => events.length === 5, 'live events');
        expect(events.map((event) => event.id)).to.deep.equal([...history, ...live].map((event) => event.id));
        expectStrictlyIncreasing(events);
        expect(errors).to.deep.equal([]);
      });

      it('lets its thread do other work while it catches up a long history', async function () {
        const stream = streamName();
        const total = 2_000;
        for (let i = 0; i < total; i += 500) await store.append(stream, newEvents(500, `c${i}-`), i === 0 ? NO_STREAM : exactly(BigInt(i - 1)));
        let seen = 0;
        let seenWhenTheThreadGotATurn: number | null = null;
        const subscription = store.subscribeToAll({
          after: base,
          onEvent: (event) => {
            if (event.streamId === stream) seen++;
          },
        });
        // Stands for anything else of the thread: a timer, a message asking it to stop.
        setImmediate(() => (seenWhenTheThreadGotATurn = seen));
        try {
          await waitFor(() => seen === total, 'the history');
        } finally {
          await subscription.stop();
        }
        expect(seenWhenTheThreadGotATurn, 'events delivered before the thread got a turn').to.be.below(total);
      });

      it('resumes strictly after a stored position, without gap or duplicate', async function () {
        const stream = streamName();
        const events = newEvents(5);
        await store.append(stream, events, NO_STREAM);
        const stored = await store.readStream(stream);
        const checkpoint = stored[1]!.position;
        const seen = collect(checkpoint, new Set([stream]));
        await waitFor(() => seen.events.length === 3, 'events after the checkpoint');
        const more = newEvent();
        await store.append(stream, [more], exactly(4n));
        await waitFor(() => seen.events.length === 4, 'the live event');
        await delay(50);
        expect(seen.events.map((event) => event.id)).to.deep.equal([
          ...events.slice(2).map((event) => event.id),
          more.id,
        ]);
      });

      it('waits for new events when subscribed at the head', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(2), NO_STREAM);
        const head = await store.headPosition();
        const seen = collect(head, new Set([stream]));
        await delay(30);
        expect(seen.events).to.deep.equal([]);
        await store.append(stream, newEvents(1), exactly(1n));
        await waitFor(() => seen.events.length === 1, 'the live event');
        expect(seen.events[0]!.version).to.equal(2n);
      });

      it('stop() waits for the running handler and ends delivery', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(3), NO_STREAM);
        let started = 0;
        let finished = 0;
        const subscription = store.subscribeToAll({
          after: base,
          onEvent: async (event) => {
            if (event.streamId !== stream) return;
            started += 1;
            await delay(60);
            finished += 1;
          },
        });
        subscriptions.push(subscription);
        await waitFor(() => started === 1, 'the first handler call');
        await subscription.stop();
        expect(finished).to.equal(started);
        const delivered = started;
        await store.append(stream, newEvents(1), exactly(2n));
        await delay(150);
        expect(started).to.equal(delivered);
        expect(delivered).to.be.lessThan(3);
        await subscription.stop();
      });

      it('stop() called from inside the handler does not deadlock', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(3), NO_STREAM);
        const seen: StoredEvent[] = [];
        let stopped: Promise<void> | undefined;
        const subscription: Subscription = store.subscribeToAll({
          after: base,
          onEvent: async (event) => {
            if (event.streamId !== stream) return;
            seen.push(event);
            stopped = subscription.stop();
            await stopped;
          },
        });
        subscriptions.push(subscription);
        await waitFor(() => stopped !== undefined, 'the handler');
        await stopped;
        await delay(50);
        expect(seen).to.have.length(1);
      });

      it('stops and reports when the handler throws', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(3), NO_STREAM);
        const failure = new Error('projection broke');
        const seen: StoredEvent[] = [];
        const errors: unknown[] = [];
        subscriptions.push(
          store.subscribeToAll({
            after: base,
            onEvent: (event) => {
              if (event.streamId !== stream) return;
              seen.push(event);
              if (seen.length === 2) throw failure;
            },
            onError: (error) => errors.push(error),
          }),
        );
        await waitFor(() => errors.length === 1, 'onError');
        await store.append(stream, newEvents(1), exactly(2n));
        await delay(100);
        expect(errors).to.deep.equal([failure]);
        expect(seen).to.have.length(2);
      });

      it('runs several subscriptions independently', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(2), NO_STREAM);
        const a = collect(base, new Set([stream]));
        const b = collect(base, new Set([stream]));
        await store.append(stream, newEvents(2), exactly(1n));
        await waitFor(() => a.events.length === 4 && b.events.length === 4, 'both subscriptions');
        expect(a.events.map((e) => e.id)).to.deep.equal(b.events.map((e) => e.id));
      });
    });

    describe('chain hashes', function () {
      /** Recomputes each event's hash from its content and its predecessor's stored hash. */
      function expectChained(events: StoredEvent[]): void {
        let prevHash: string | null = null;
        for (const event of events) {
          expect(event.chainHash, `hash of version ${event.version}`).to.match(/^[0-9a-f]{64}$/);
          expect(event.chainHash, `link of version ${event.version}`).to.equal(eventChainHash({ ...event, prevHash }));
          prevHash = event.chainHash;
        }
      }

      it('chains every event to the previous event of its stream, from the first one on', async function () {
        const stream = streamName();
        const other = streamName();
        await store.append(stream, newEvents(2), NO_STREAM);
        await store.append(other, newEvents(1), NO_STREAM);
        await store.append(stream, newEvents(3), exactly(1n));
        const stored = await store.readStream(stream);
        expect(stored).to.have.length(5);
        expectChained(stored);
        expectChained(await store.readStream(other));
        // readAll hands out the same hashes as readStream.
        const fromAll = (await readMine(new Set([stream]))).map((event) => event.chainHash);
        expect(fromAll).to.deep.equal(stored.map((event) => event.chainHash));
      });

      it('hashes content the way every store reads it back: key order, unicode and large numbers', async function () {
        const stream = streamName();
        const data = {
          zeta: 1,
          alpha: { z: [3, { y: 2, b: 1 }], a: null },
          amounts: [0.1, 1e21, 123456789012345680000, 9007199254740993, -0, 5e-324, 1.7976931348623157e308, -42.5],
          text: 'Zürich — 東京 😀 "quoted" \\ back\nline\u0007',
          empty: {},
          list: [],
        };
        const metadata = { correlationId: randomUUID(), nested: { b: 'two', a: 'one' } };
        const event: NewEvent = { id: randomUUID(), type: 'PaymentSettled', schemaVersion: 2, data, metadata };
        await store.append(stream, [event], NO_STREAM);
        const [stored] = await store.readStream(stream);
        // What was appended and what is read back hash the same, whatever the store did to the text.
        const expected = eventChainHash({ prevHash: null, streamId: stream, version: 0n, type: event.type, schemaVersion: 2, data, metadata });
        expect(stored!.chainHash).to.equal(expected);
        expectChained([stored!]);
      });

      it('keeps the chain when the same event ids are appended again', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(1), NO_STREAM);
        const events = newEvents(2);
        await store.append(stream, events, exactly(0n));
        const before = (await store.readStream(stream)).map((event) => event.chainHash);
        await store.append(stream, events, exactly(0n));
        await store.append(stream, events, ANY);
        expect((await store.readStream(stream)).map((event) => event.chainHash)).to.deep.equal(before);
        await store.append(stream, newEvents(1), exactly(2n));
        const after = await store.readStream(stream);
        expect(after.slice(0, 3).map((event) => event.chainHash)).to.deep.equal(before);
        expectChained(after);
      });

      it('never chains two concurrent appends to the same predecessor', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(1), NO_STREAM);
        const results = await Promise.allSettled([
          ...Array.from({ length: 10 }, () => store.append(stream, newEvents(2), ANY)),
          ...Array.from({ length: 10 }, () => store.append(stream, newEvents(1), exactly(0n))),
        ]);
        expect(results.filter((result) => result.status === 'fulfilled').length).to.be.at.least(10);
        const stored = await store.readStream(stream);
        expectChained(stored);
        expect(new Set(stored.map((event) => event.chainHash)).size).to.equal(stored.length);
      });

      it('chains each stream of an appendMultiple on its own', async function () {
        const [a, b] = [streamName(), streamName()];
        await store.append(a, newEvents(1), NO_STREAM);
        await store.appendMultiple([
          { streamId: a, events: newEvents(2), expected: exactly(0n) },
          { streamId: b, events: newEvents(2), expected: NO_STREAM },
        ]);
        expectChained(await store.readStream(a));
        expectChained(await store.readStream(b));
      });

      if (atomicMultiStream) {
        it('leaves nothing to chain to from an appendMultiple that was refused', async function () {
          const [a, taken] = [streamName(), streamName()];
          await store.append(a, newEvents(1), NO_STREAM);
          await store.append(taken, newEvents(1), NO_STREAM);
          const refused = store.appendMultiple([
            { streamId: a, events: newEvents(1), expected: exactly(0n) },
            { streamId: taken, events: newEvents(1), expected: NO_STREAM },
          ]);
          // Issued in the same tick as the refused one: a store batching appends must not let it
          // chain to the rolled-back event.
          const next = store.append(a, newEvents(1), ANY);
          await expectRejection(refused);
          await next;
          const stored = await store.readStream(a);
          expect(stored).to.have.length(2);
          expectChained(stored);
        });
      }
    });

    describe('concurrent appenders', function () {
      it('lets exactly one of 20 appends with the same expected version win', async function () {
        const stream = streamName();
        await store.append(stream, newEvents(1), NO_STREAM);
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, () => store.append(stream, newEvents(1), exactly(0n))),
        );
        const won = results.filter((result) => result.status === 'fulfilled');
        const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
        expect(won).to.have.length(1);
        expect(lost).to.have.length(19);
        for (const result of lost) expect(result.reason).to.be.instanceOf(WrongExpectedVersionError);
        expect((await store.readStream(stream)).map((event) => event.version)).to.deep.equal([0n, 1n]);
      });

      it('lets exactly one of 20 no_stream appends create the stream', async function () {
        const stream = streamName();
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, () => store.append(stream, newEvents(2), NO_STREAM)),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).to.have.length(1);
        for (const result of results) {
          if (result.status === 'rejected') expect(result.reason).to.be.instanceOf(WrongExpectedVersionError);
        }
        expect(await store.readStream(stream)).to.have.length(2);
      });

      it('appends to many streams at once; a live subscription sees each event once, in order', async function () {
        const streamCount = 40;
        const appendsPerStream = 5;
        const streams = Array.from({ length: streamCount }, () => streamName('load'));
        const mine = new Set(streams);
        const seen = collect(base, mine);

        await Promise.all(
          streams.map(async (stream) => {
            let expected = NO_STREAM;
            for (let i = 0; i < appendsPerStream; i += 1) {
              const result = await store.append(stream, newEvents(2), expected);
              expected = exactly(result.nextExpectedVersion);
            }
          }),
        );

        const total = streamCount * appendsPerStream * 2;
        const all = await readMine(mine);
        expect(all).to.have.length(total);
        expectStrictlyIncreasing(all);
        for (const stream of streams) {
          const versions = all.filter((event) => event.streamId === stream).map((event) => event.version);
          expect(versions).to.deep.equal(Array.from({ length: appendsPerStream * 2 }, (_, i) => BigInt(i)));
        }

        await waitFor(() => seen.events.length >= total, 'the subscription to catch up', 10_000);
        await delay(50);
        expect(seen.errors).to.deep.equal([]);
        expectStrictlyIncreasing(seen.events);
        expect(seen.events.map((event) => event.id)).to.deep.equal(all.map((event) => event.id));
      });
    });
  });
}
