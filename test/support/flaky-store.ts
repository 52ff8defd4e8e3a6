/**
 * A database that misbehaves on purpose, for tests of what survives it. While `failing`, a seeded
 * share of calls go wrong in one of the ways a real connection does:
 *
 * - refused: the call throws before anything happens (connection refused, pool exhausted);
 * - lost reply: the call happens (an append commits) and then throws, like a statement timeout or a
 *   connection dropped after COMMIT: the caller cannot tell whether it took effect;
 * - slow: the call hangs a little and then throws without effect.
 *
 * The same seed gives the same sequence of outcomes for the same sequence of calls.
 */
import type {
  AppendResult,
  EventStore,
  ExpectedVersion,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
  StreamWrite,
  SubscribeOptions,
  Subscription,
} from '../../src/application/ports/event-store';
import { PollingSubscription } from '../../src/adapters/event-store/shared';
import { seededRandom } from '../../src/cli/seed/seeded-random';

export class InjectedFault extends Error {
  constructor(
    readonly kind: 'refused' | 'lost reply' | 'slow',
    what: string,
  ) {
    super(`injected fault (${kind}) in ${what}`);
    this.name = 'InjectedFault';
  }
}

/** Decides, call by call, whether and how a call fails; shared by every wrapper of one test. */
export class FaultInjector {
  /** Whether faults are injected at all; a test heals the database by setting it to false. */
  failing = true;
  /** Faults injected so far, by kind. */
  readonly injected = { refused: 0, 'lost reply': 0, slow: 0 };
  /**
   * Set to 'refused' for an outage in which nothing reaches the database: no call commits, not even
   * one whose reply would be lost.
   */
  only: 'refused' | null = null;
  private readonly random: () => number;

  constructor(
    /** Share of calls that fail while `failing`; 1 is a full outage. */
    public rate: number,
    seed: number,
    /** Which calls may fail (by the name the wrappers give them); default all. */
    private readonly affects: (what: string) => boolean = () => true,
  ) {
    this.random = seededRandom(seed);
  }

  async call<T>(what: string, perform: () => Promise<T>): Promise<T> {
    if (!this.failing || !this.affects(what) || this.random() >= this.rate) return perform();
    const pick = this.random();
    if (pick < 0.4 || this.only === 'refused') {
      this.injected.refused++;
      throw new InjectedFault('refused', what);
    }
    if (pick < 0.8) {
      await perform();
      this.injected['lost reply']++;
      throw new InjectedFault('lost reply', what);
    }
    this.injected.slow++;
    await new Promise((resolve) => setTimeout(resolve, Math.floor(this.random() * 20)));
    throw new InjectedFault('slow', what);
  }
}

/**
 * An event store whose every call may fail. Its subscription reads through the failing `readAll`
 * in pages, as the SQL stores' subscriptions do, so it can fail too (and give up after repeated
 * read failures, as theirs do).
 */
export class FlakyEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly faults: FaultInjector,
    private readonly pollIntervalMs = 10,
  ) {}

  append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    return this.faults.call('append', () => this.inner.append(streamId, events, expected));
  }

  appendMultiple(writes: StreamWrite[]): Promise<AppendResult[]> {
    return this.faults.call('appendMultiple', () => this.inner.appendMultiple(writes));
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.faults.call('readStream', () => this.inner.readStream(streamId, options));
  }

  readAll(options?: ReadAllOptions): Promise<StoredEvent[]> {
    return this.faults.call('readAll', () => this.inner.readAll(options));
  }

  streamVersion(streamId: string): Promise<bigint | null> {
    return this.faults.call('streamVersion', () => this.inner.streamVersion(streamId));
  }

  headPosition(): Promise<bigint | null> {
    return this.faults.call('headPosition', () => this.inner.headPosition());
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return new PollingSubscription(
      {
        readAfter: (after, maxCount) => this.readAll({ after, maxCount }),
        onWake: () => () => undefined,
        pollIntervalMs: this.pollIntervalMs,
      },
      options,
      () => undefined,
    );
  }

  async close(): Promise<void> {
    // The inner store belongs to whoever made it.
  }
}
