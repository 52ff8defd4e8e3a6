/**
 * The payout balance streams' command handler: load, decide, append at the version read, as
 * `handleCommand` does, but built for contention. Many payouts of one merchant and currency decide
 * on the same stream at once, so:
 *
 * - within a process they take turns (one queue per stream): concurrent holds never conflict there;
 * - across processes the append's expected version decides: a loser reloads and decides again on
 *   what the winner left, after a short randomised pause, as often as it takes (bounded);
 * - a refusal (insufficient balance) or an empty decision taken on a state remembered from an
 *   earlier command is checked once more on the stream itself, so a top-up or a hold made by another
 *   process is never missed (an empty decision appends nothing, so no version check would say so);
 * - a remembered state that turns out stale is brought up to date with only the events appended
 *   since its version. The feeder appends to a busy merchant's stream a few times a second for as
 *   long as it sells, so folding the whole stream again would cost more with every day, on the
 *   thread that answers the payout.
 */
import { payoutBalanceDecider } from '../../domain/payouts/balance-decider';
import type { PayoutBalanceCommand } from '../../domain/payouts/balance-decide';
import { payoutBalanceStreamId, type PayoutBalanceEvent } from '../../domain/payouts/balance-events';
import {
  PAYOUT_BALANCE_SNAPSHOT_SCHEMA_VERSION,
  fromPayoutBalanceSnapshot,
  payoutBalanceSnapshot,
  payoutBalanceSnapshotStreamId,
} from '../../domain/payouts/balance-snapshot';
import { availableOf, type PayoutBalanceState } from '../../domain/payouts/balance-state';
import { toDomainEvent, toNewEvent } from '../command-handler';
import { lastEventOf } from '../last-event';
import { ANY, NO_STREAM, WrongExpectedVersionError, exactly, type EventMetadata, type EventStore } from '../ports/event-store';

/** Conflicts in a row before giving up: only other processes conflict, each round one of them wins. */
const MAX_ATTEMPTS = 200;
/** Streams whose last state a process remembers. */
const CACHE_LIMIT = 10_000;
/**
 * Balance events between two snapshots: a process that remembers nothing of a balance folds at
 * most about this many (a fold of 20,000 takes about 440 ms; of 1,000, a few). The feeder, which appends
 * most of them, takes most snapshots.
 */
export const DEFAULT_SNAPSHOT_EVERY = 1_000;

export interface PayoutBalanceView {
  merchantId: string;
  currency: string;
  available: number;
  held: number;
  toppedUp: number;
  received: number;
  paidOut: number;
}

export interface PayoutBalanceResult {
  state: PayoutBalanceState;
  newEvents: PayoutBalanceEvent[];
}

export interface PayoutBalancesOptions {
  /** Balance events between two snapshots. Default DEFAULT_SNAPSHOT_EVERY. */
  snapshotEvery?: number;
}

interface Balance {
  merchantId: string;
  currency: string;
  streamId: string;
}

interface Known {
  state: PayoutBalanceState;
  version: bigint | null;
  /** The version the newest snapshot this process knows of was folded through. */
  snapshotThrough: bigint | null;
}

const pause = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 + attempt * 2)));

const balanceOf = (merchantId: string, currency: string): Balance => ({ merchantId, currency, streamId: payoutBalanceStreamId(merchantId, currency) });

export class PayoutBalances {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly known = new Map<string, Known>();
  private readonly snapshotEvery: bigint;

  constructor(
    private readonly store: EventStore,
    options: PayoutBalancesOptions = {},
  ) {
    this.snapshotEvery = BigInt(Math.max(1, options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY));
  }

  /** Decides `command` on the merchant's balance in `currency`; a refusal is the decider's DomainError. */
  handle(merchantId: string, currency: string, command: PayoutBalanceCommand, metadata: EventMetadata = {}): Promise<PayoutBalanceResult> {
    const balance = balanceOf(merchantId, currency);
    return this.inTurn(balance.streamId, () => this.decideAndAppend(balance, command, metadata));
  }

  /** The balance as the stream has it now. */
  async balance(merchantId: string, currency: string): Promise<PayoutBalanceView> {
    const balance = balanceOf(merchantId, currency);
    const { state } = await this.load(balance, this.known.get(balance.streamId));
    return { merchantId, currency, available: availableOf(state), held: state.held, toppedUp: state.toppedUp, received: state.received, paidOut: state.paidOut };
  }

  private async decideAndAppend(balance: Balance, command: PayoutBalanceCommand, metadata: EventMetadata): Promise<PayoutBalanceResult> {
    const { streamId } = balance;
    // What this process remembers is decided on as it is: the append's expected version says
    // whether it was still the stream's last word.
    const remembered = this.known.get(streamId);
    let current: Known = remembered ?? (await this.load(balance));
    let fresh = remembered === undefined;
    for (let attempt = 1; ; attempt++) {
      let newEvents: PayoutBalanceEvent[];
      try {
        newEvents = payoutBalanceDecider.decide(command, current.state);
      } catch (error) {
        // Refused on what this process remembered: the stream may have more (another process's top-up).
        if (!fresh) {
          current = await this.load(balance, current);
          fresh = true;
          continue;
        }
        throw error;
      }
      if (newEvents.length === 0) {
        // Nothing to record on what this process remembered may only mean it has not seen what
        // another process appended: a payout's decline finds no hold in a state from before the
        // hold was placed, and an empty decision appends nothing that a version check could refuse.
        if (!fresh) {
          current = await this.load(balance, current);
          fresh = true;
          continue;
        }
        return { state: current.state, newEvents };
      }
      const events = newEvents.map((e) => toNewEvent(e, payoutBalanceDecider.schemaVersion, metadata));
      try {
        const result = await this.store.append(streamId, events, current.version === null ? NO_STREAM : exactly(current.version));
        const state = newEvents.reduce(payoutBalanceDecider.evolve, current.state);
        const known: Known = { state, version: result.nextExpectedVersion, snapshotThrough: current.snapshotThrough };
        this.remember(streamId, known);
        await this.snapshotIfDue(balance, known, command.data.now);
        return { state, newEvents };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= MAX_ATTEMPTS) throw error;
        await pause(attempt);
        current = await this.load(balance, current);
        fresh = true;
      }
    }
  }

  /**
   * The stream's state now: `from` (a state at a known version) brought up to date; with nothing
   * remembered, the newest snapshot brought up to date, or else the whole stream folded.
   */
  private async load(balance: Balance, from?: Known): Promise<Known> {
    let { state, version, snapshotThrough } = from ?? (await this.latestSnapshot(balance)) ?? { state: payoutBalanceDecider.initialState(), version: null, snapshotThrough: null };
    for (const stored of await this.store.readStream(balance.streamId, { after: version })) {
      // A store that ignored `after` would hand back events already folded into `from`.
      if (version !== null && stored.version <= version) continue;
      state = payoutBalanceDecider.evolve(state, toDomainEvent<PayoutBalanceEvent>(stored));
      version = stored.version;
    }
    const known = { state, version, snapshotThrough };
    this.remember(balance.streamId, known);
    return known;
  }

  private async latestSnapshot(balance: Balance): Promise<Known | null> {
    const stored = await lastEventOf(this.store, payoutBalanceSnapshotStreamId(balance.merchantId, balance.currency));
    const snapshot = stored ? fromPayoutBalanceSnapshot(stored) : null;
    return snapshot && { state: snapshot.state, version: snapshot.version, snapshotThrough: snapshot.version };
  }

  /** Records the state as a snapshot once enough events have been appended since the last one. */
  private async snapshotIfDue(balance: Balance, known: Known, now: string): Promise<void> {
    if (known.version === null || known.version - (known.snapshotThrough ?? -1n) < this.snapshotEvery) return;
    const snapshot = payoutBalanceSnapshot(balance.merchantId, balance.currency, known.state, known.version, now);
    try {
      // Any version: a snapshot another process took meanwhile is as true as this one.
      await this.store.append(
        payoutBalanceSnapshotStreamId(balance.merchantId, balance.currency),
        [toNewEvent(snapshot, PAYOUT_BALANCE_SNAPSHOT_SCHEMA_VERSION, { correlationId: 'payout-balance-snapshot' })],
        ANY,
      );
      known.snapshotThrough = known.version;
    } catch {
      // The command itself is recorded; a snapshot only saves reading, and the next command
      // on this balance tries again.
    }
  }

  private remember(streamId: string, known: Known): void {
    this.known.delete(streamId);
    this.known.set(streamId, known);
    if (this.known.size > CACHE_LIMIT) this.known.delete(this.known.keys().next().value!);
  }

  /** Runs `work` after every earlier command of this process on the same stream. */
  private inTurn<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(streamId) ?? Promise.resolve();
    const mine = before.then(work, work);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(streamId, settled);
    void settled.then(() => {
      if (this.queues.get(streamId) === settled) this.queues.delete(streamId);
    });
    return mine;
  }
}
