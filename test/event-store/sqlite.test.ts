import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { exactly, NO_STREAM, type StoredEvent, type Subscription, WrongExpectedVersionError } from '../../src/application/ports/event-store';
import { SqliteEventStore, type SqliteEventStoreOptions } from '../../src/adapters/event-store/sqlite-event-store';
import { verifyEventLog } from '../../src/application/audit/verifier';
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

eventStoreContract('SQLite (in memory)', async () => {
  const store = new SqliteEventStore({ filename: ':memory:', pollIntervalMs: 20 });
  return { store, cleanup: () => store.close() };
});

lightReadsContract(
  'SQLite (in memory)',
  async () => {
    const store = new SqliteEventStore({ filename: ':memory:', pollIntervalMs: 20 });
    return { store, cleanup: () => store.close() };
  },
  { native: true },
);

/**
 * The process's one writer commits on a thread of its own or on the thread that serves requests;
 * either way the contract, the ports of other threads and the commit signal behave alike.
 */
const WRITERS: Array<[string, Pick<SqliteEventStoreOptions, 'writerThread' | 'processWriter'>]> = [
  ['writer thread', { writerThread: true }],
  ['serving-thread writer', { processWriter: true }],
];

for (const [mode, writer] of WRITERS) {
  eventStoreContract(`SQLite (file, ${mode})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-store-thread-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.db'), pollIntervalMs: 20, ...writer });
    return {
      store,
      cleanup: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  // Reads on this thread while another thread commits: the scan of a type-filtered page and the
  // events it hands out are one snapshot.
  lightReadsContract(
    `SQLite (file, ${mode})`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'event-store-light-'));
      const store = new SqliteEventStore({ filename: join(dir, 'events.db'), pollIntervalMs: 20, ...writer });
      return {
        store,
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    { native: true },
  );

  // A store on another thread of the process (the notifier's) commits through the first store's
  // writer thread: the whole contract holds for it.
  eventStoreContract(`SQLite (file, through another store's writer port, ${mode})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-store-port-'));
    const owner = new SqliteEventStore({ filename: join(dir, 'events.db'), pollIntervalMs: 20, ...writer });
    const store = new SqliteEventStore({ filename: join(dir, 'events.db'), pollIntervalMs: 20, writerPort: owner.openWriterPort()! });
    return {
      store,
      cleanup: async () => {
        await store.close();
        await owner.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  describe(`SQLite event store writing through another store's writer (${mode})`, function () {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'event-store-port-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('commits both stores\' concurrent appends through the one writer: every append once, the expected versions checked across both, the chain unbroken', async () => {
      const file = join(dir, 'events.db');
      const owner = new SqliteEventStore({ filename: file, ...writer });
      const other = new SqliteEventStore({ filename: file, writerPort: owner.openWriterPort()! });
      try {
        const appends = Array.from({ length: 200 }, (_, i) => (i % 2 ? owner : other).append(streamName(`p${i}`), [newEvent(), newEvent()], NO_STREAM));
        // Both stores race for the same new stream: exactly one may create it.
        const race = await Promise.allSettled([owner.append('race-1', [newEvent()], NO_STREAM), other.append('race-1', [newEvent()], NO_STREAM)]);
        const results = await Promise.all(appends);
        expect(new Set(results.map((r) => r.position)).size).to.equal(200);
        expect(race.filter((r) => r.status === 'fulfilled')).to.have.length(1);
        const refused = race.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason).to.be.instanceOf(WrongExpectedVersionError);
        const all = await other.readAll();
        expect(all).to.have.length(401);
        expectStrictlyIncreasing(all);
        expect((await verifyEventLog(owner)).ok).to.equal(true);
      } finally {
        await other.close();
        await owner.close();
      }
    });

    it('answers an append it can no longer commit with an error once the writer is gone, never leaves it waiting', async () => {
      const file = join(dir, 'events.db');
      const owner = new SqliteEventStore({ filename: file, ...writer });
      const other = new SqliteEventStore({ filename: file, writerPort: owner.openWriterPort()! });
      try {
        await other.append(streamName('before'), [newEvent()], NO_STREAM);
        await owner.close();
        const late = await Promise.race([
          other.append(streamName('after'), [newEvent()], NO_STREAM).then(
            () => 'written',
            () => 'refused',
          ),
          delay(3000).then(() => 'waiting'),
        ]);
        expect(late).to.equal('refused');
      } finally {
        await other.close();
      }
    });

    it('has no port to give when it is not the process\'s writer', async () => {
      const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
      try {
        expect(store.openWriterPort()).to.equal(null);
      } finally {
        await store.close();
      }
    });
  });

  describe(`SQLite event store subscriptions told of the writer's commits (${mode})`, function () {
    let dir: string;
    let file: string;
    const open: SqliteEventStore[] = [];
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'event-store-signal-'));
      file = join(dir, 'events.db');
    });
    afterEach(async () => {
      for (const store of open.splice(0).reverse()) await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    function openStore(options: Omit<SqliteEventStoreOptions, 'filename'>): SqliteEventStore {
      const store = new SqliteEventStore({ filename: file, ...options });
      open.push(store);
      return store;
    }

    /** Subscribes to `store` from the start; `seen` fills as events are handed over. */
    function follow(store: SqliteEventStore): { seen: StoredEvent[]; subscription: Subscription } {
      const seen: StoredEvent[] = [];
      return { seen, subscription: store.subscribeToAll({ after: null, onEvent: (e) => void seen.push(e) }) };
    }

    /** Counts the subscription reads of `store` (each look for new events is one). */
    function countReads(store: SqliteEventStore): { count: number } {
      const reads = { count: 0 };
      const target = store as unknown as { readAfter: (...args: unknown[]) => StoredEvent[] };
      const read = target.readAfter.bind(store);
      target.readAfter = (...args) => {
        reads.count += 1;
        return read(...args);
      };
      return reads;
    }

    it('a store on another thread (the projector\'s) reads a commit at once, and does not read an idle store every few milliseconds', async () => {
      const owner = openStore({ ...writer });
      // A reader of its own, as the projector's thread has: it writes nothing, so only the signal can wake it.
      const reader = openStore({ pollIntervalMs: 5, idlePollIntervalMs: 60_000, commitSignal: owner.commitSignal()! });
      const reads = countReads(reader);
      const { seen, subscription } = follow(reader);

      await delay(300);
      // One read on start, maybe one more: not one every 5 ms.
      expect(reads.count).to.be.at.most(2);

      await owner.append(streamName(), newEvents(2), NO_STREAM);
      await waitFor(() => seen.length === 2, 'the commit, long before the 60 s idle poll', 2000);
      await subscription.stop();
    });

    it('the writer\'s own store reads what another thread committed through its port at once', async () => {
      const owner = openStore({ ...writer, pollIntervalMs: 5, idlePollIntervalMs: 60_000 });
      const other = openStore({ writerPort: owner.openWriterPort()! });
      const reads = countReads(owner);
      const { seen, subscription } = follow(owner);
      await delay(300);
      expect(reads.count).to.be.at.most(2);
      await other.append(streamName(), newEvents(1), NO_STREAM);
      await waitFor(() => seen.length === 1, 'the other thread\'s commit', 2000);
      await subscription.stop();
    });

    it('reads a busy writer\'s commits a batch at a time, at most about one read per poll interval', async () => {
      const owner = openStore({ ...writer });
      const reader = openStore({ pollIntervalMs: 50, idlePollIntervalMs: 60_000, commitSignal: owner.commitSignal()! });
      const { seen, subscription } = follow(reader);
      await delay(50);
      const reads = countReads(reader);
      const started = performance.now();
      // One commit every 2 ms or so, each woken reader's cue.
      for (let i = 0; i < 100; i++) {
        await owner.append(streamName(), newEvents(1), NO_STREAM);
        await delay(1);
      }
      const elapsed = performance.now() - started;
      await waitFor(() => seen.length === 100, 'every commit', 5000);
      // A burst of a few reads, then one per 50 ms of commits (and one for the last of them).
      expect(reads.count).to.be.at.most(4 + Math.ceil(elapsed / 50) + 2);
      await subscription.stop();
    });

    it('reads a commit the settling time after it, together with what committed meanwhile', async () => {
      const owner = openStore({ ...writer });
      const reader = openStore({ pollIntervalMs: 5, idlePollIntervalMs: 60_000, commitSignal: owner.commitSignal()!, commitSettleMs: 100 });
      const { seen, subscription } = follow(reader);
      await delay(50);
      const reads = countReads(reader);
      // A SALE's intent and outcome, a few milliseconds apart.
      await owner.append(streamName(), newEvents(1), NO_STREAM);
      await delay(5);
      await owner.append(streamName(), newEvents(1), NO_STREAM);
      await waitFor(() => seen.length === 2, 'both commits', 2000);
      expect(reads.count).to.equal(1);
      await subscription.stop();
    });

    it('after a burst of its own appends (a notifier recording deliveries), still reads the next commit within a poll interval', async () => {
      const owner = openStore({ ...writer });
      // Its own appends wake it at once, whatever its read budget says: they must not run up a debt it pays later.
      const notifier = openStore({ writerPort: owner.openWriterPort()!, pollIntervalMs: 20, idlePollIntervalMs: 60_000, commitSignal: owner.commitSignal()! });
      const { seen, subscription } = follow(notifier);
      for (let i = 0; i < 100; i++) {
        await notifier.append(streamName(), newEvents(1), NO_STREAM);
        await delay(1);
      }
      await waitFor(() => seen.length === 100, 'its own appends', 5000);
      await owner.append(streamName(), newEvents(1), NO_STREAM);
      await waitFor(() => seen.length === 101, 'the next commit, within a few poll intervals', 500);
      await subscription.stop();
    });

    it('a hurried subscription (a reader waits for its own write) reads a commit at once instead of after its settling time', async () => {
      const owner = openStore({ ...writer });
      const reader = openStore({ pollIntervalMs: 5, idlePollIntervalMs: 60_000, commitSignal: owner.commitSignal()!, commitSettleMs: 60_000 });
      const { seen, subscription } = follow(reader);
      await delay(50);
      await owner.append(streamName(), newEvents(1), NO_STREAM);
      await delay(50);
      expect(seen, 'still settling').to.have.length(0);

      subscription.hurry!();

      await waitFor(() => seen.length === 1, 'the commit, long before the settling time ends', 2000);
      await subscription.stop();
    });

    it('without a writer thread there is no signal to hand out', async () => {
      const store = openStore({});
      expect(store.commitSignal()).to.equal(null);
    });
  });
}

describe('SQLite event store with a writer thread', function () {
  it('keeps an acknowledged append after close and reopen, and batches appends that arrive while a batch commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-store-thread-'));
    const file = join(dir, 'events.db');
    try {
      const store = new SqliteEventStore({ filename: file, writerThread: true });
      const appends = Array.from({ length: 200 }, (_, i) => store.append(streamName(`t${i}`), [newEvent()], NO_STREAM));
      const results = await Promise.all(appends);
      expect(new Set(results.map((r) => r.position)).size).to.equal(200);
      await store.close();
      const reopened = new SqliteEventStore({ filename: file });
      const all = await reopened.readAll();
      expect(all).to.have.length(200);
      expectStrictlyIncreasing(all);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite event store writer thread under a held lock', function () {
  /** Transactions in a WAL file: each one ends with a frame that records the database size. */
  function commitsInWal(file: string): number {
    const wal = readFileSync(`${file}-wal`);
    if (wal.length < 32) return 0;
    const pageSize = wal.readUInt32BE(8);
    let commits = 0;
    for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) {
      if (wal.readUInt32BE(offset + 4) !== 0) commits++;
    }
    return commits;
  }

  it('commits every append that queued up while a transaction waited, from any thread, in the next transaction together', async function () {
    this.timeout(10_000);
    const dir = mkdtempSync(join(tmpdir(), 'event-store-group-'));
    const file = join(dir, 'events.db');
    const owner = new SqliteEventStore({ filename: file, writerThread: true });
    const other = new SqliteEventStore({ filename: file, writerPort: owner.openWriterPort()! });
    const blocker = new Database(file);
    try {
      await owner.append(streamName('warm'), [newEvent()], NO_STREAM);
      const before = commitsInWal(file);
      // Another process holds the write lock: the writer's next transaction waits for it.
      blocker.prepare('BEGIN IMMEDIATE').run();
      const first = owner.append(streamName('first'), [newEvent()], NO_STREAM);
      await delay(100);
      // Sent while the first one waits, on this thread and on another one.
      const later = [
        owner.append(streamName('second'), [newEvent()], NO_STREAM),
        other.append(streamName('third'), [newEvent()], NO_STREAM),
        owner.append(streamName('fourth'), [newEvent()], NO_STREAM),
      ];
      await delay(100);
      blocker.prepare('ROLLBACK').run();
      const results = await Promise.all([first, ...later]);
      expect(new Set(results.map((r) => r.position)).size).to.equal(4);
      // One transaction for the first append, one for the three that waited behind it.
      expect(commitsInWal(file) - before).to.equal(2);
    } finally {
      blocker.close();
      await other.close();
      await owner.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite event store on a file', function () {
  let dir: string;
  let file: string;
  const open: SqliteEventStore[] = [];

  function openStore(pollIntervalMs = 20): SqliteEventStore {
    const store = new SqliteEventStore({ filename: file, pollIntervalMs });
    open.push(store);
    return store;
  }

  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'event-store-'));
    file = join(dir, 'events.db');
  });

  afterEach(async function () {
    await Promise.all(open.splice(0).map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the file with WAL, full sync and a busy timeout', async function () {
    const store = openStore();
    const db = (store as unknown as { db: { pragma(sql: string, o: { simple: true }): unknown } }).db;
    expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
    expect(Number(db.pragma('synchronous', { simple: true }))).to.equal(2);
    expect(Number(db.pragma('busy_timeout', { simple: true }))).to.equal(5000);
  });

  it('keeps events across close and reopen', async function () {
    const first = openStore();
    const stream = streamName();
    const event = newEvent({ nested: { a: [1, 2] } });
    const result = await first.append(stream, [event, newEvent()], NO_STREAM);
    await first.close();

    const second = openStore();
    const stored = await second.readStream(stream);
    expect(stored.map((e) => e.id)[0]).to.equal(event.id);
    expect(stored[0]!.data).to.deep.equal({ nested: { a: [1, 2] } });
    expect(await second.headPosition()).to.equal(result.position);
    const next = await second.append(stream, newEvents(1), exactly(1n));
    expect(next.nextExpectedVersion).to.equal(2n);
    expect(next.position > result.position).to.equal(true);
  });

  it('writes appends accepted before close', async function () {
    const store = openStore();
    const stream = streamName();
    const pending = store.append(stream, newEvents(2), NO_STREAM);
    await store.close();
    await pending;
    const reopened = openStore();
    expect(await reopened.readStream(stream)).to.have.length(2);
  });

  it('shares one file between two instances, as a CLI next to a server would', async function () {
    const server = openStore();
    const cli = openStore();
    const seen: StoredEvent[] = [];
    const subscription = server.subscribeToAll({ after: null, onEvent: (e) => void seen.push(e) });

    // Only the other instance writes: the server's subscription can learn of it only by polling.
    const stream = streamName();
    await cli.append(stream, newEvents(3), NO_STREAM);
    await waitFor(() => seen.length === 3, 'events written by the other instance');

    const streams = Array.from({ length: 10 }, () => streamName());
    await Promise.all(
      streams.map((s, i) => (i % 2 === 0 ? server : cli).append(s, newEvents(2), NO_STREAM)),
    );
    await waitFor(() => seen.length === 23, 'events of both instances');
    expectStrictlyIncreasing(seen);
    expect(seen.map((e) => e.id)).to.deep.equal((await cli.readAll()).map((e) => e.id));

    // Both check the expected version against the file, not against what they saw themselves.
    const results = await Promise.allSettled([
      server.append(stream, newEvents(1), exactly(2n)),
      cli.append(stream, newEvents(1), exactly(2n)),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost!.reason).to.be.instanceOf(WrongExpectedVersionError);
    await subscription.stop();
  });

  it('wakes its own subscriptions without waiting for the poll interval', async function () {
    const store = openStore(60_000);
    const seen: StoredEvent[] = [];
    const subscription = store.subscribeToAll({ after: null, onEvent: (e) => void seen.push(e) });
    await delay(20);
    await store.append(streamName(), newEvents(1), NO_STREAM);
    await waitFor(() => seen.length === 1, 'the in-process wake-up', 1000);
    await subscription.stop();
  });

  it('commits appends issued in the same tick in one transaction (group commit)', async function () {
    const store = openStore();
    const batches: number[] = [];
    const internals = store as unknown as { writeInline(batch: unknown[]): unknown };
    const writeInline = internals.writeInline;
    internals.writeInline = (batch) => {
      batches.push(batch.length);
      return writeInline(batch);
    };
    const streams = Array.from({ length: 64 }, () => streamName());
    const results = await Promise.allSettled([
      ...streams.map((s) => store.append(s, newEvents(1), NO_STREAM)),
      store.append(streams[0]!, newEvents(1), NO_STREAM),
    ]);
    expect(batches).to.deep.equal([65]);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(64);
    expect((results[64] as PromiseRejectedResult).reason).to.be.instanceOf(WrongExpectedVersionError);
    const positions = results.slice(0, 64).map((r) => (r as PromiseFulfilledResult<{ position: bigint }>).value.position);
    expect(positions).to.deep.equal(positions.map((_, i) => BigInt(i + 1)));

    await store.append(streamName(), newEvents(1), NO_STREAM);
    expect(batches).to.deep.equal([65, 1]);
  });
});
