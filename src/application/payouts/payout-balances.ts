/**
 * The payout balance streams' command handler: load, decide, append at the version read, as
 * `handleCommand` does, but built for contention. Many payouts of one merchant and currency decide
 * on the same stream at once, so:
 *
 * - within a process they take turns (one queue per stream): concurrent holds never conflict there;
 * - across processes the append's expected version decides: a loser reloads and decides again on
 *   what the winner left, after a short randomised pause, as often as it takes (bounded);
 * - a refusal (insufficient balance) decided on a state remembered from an earlier command is
 *   checked once more on the stream itself, so a top-up made by another process is never missed;
 * - a remembered state that turns out stale is brought up to date with only the events appended
 *   since its version. The feeder appends to a busy merchant's stream a few times a second for as
 *   long as it sells, so folding the whole stream again would cost more with every day, on the
 *   thread that answers the payout.
 */
import { payoutBalanceDecider } from '../../domain/payouts/balance-decider';
import type { PayoutBalanceCommand } from '../../domain/payouts/balance-decide';
import { payoutBalanceStreamId, type PayoutBalanceEvent } from '../../domain/payouts/balance-events';
import { availableOf, type PayoutBalanceState } from '../../domain/payouts/balance-state';
import { toDomainEvent, toNewEvent } from '../command-handler';
import { NO_STREAM, WrongExpectedVersionError, exactly, type EventMetadata, type EventStore } from '../ports/event-store';

/** Conflicts in a row before giving up: only other processes conflict, each round one of them wins. */
const MAX_ATTEMPTS = 200;
/** Streams whose last state a process remembers. */
const CACHE_LIMIT = 10_000;

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

type Known = { state: PayoutBalanceState; version: bigint | null };

const pause = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 + attempt * 2)));

export class PayoutBalances {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly known = new Map<string, Known>();

  constructor(private readonly store: EventStore) {}

  /** Decides `command` on the merchant's balance in `currency`; a refusal is the decider's DomainError. */
  handle(merchantId: string, currency: string, command: PayoutBalanceCommand, metadata: EventMetadata = {}): Promise<PayoutBalanceResult> {
    const streamId = payoutBalanceStreamId(merchantId, currency);
    return this.inTurn(streamId, () => this.decideAndAppend(streamId, command, metadata));
  }

  /** The balance as the stream has it now. */
  async balance(merchantId: string, currency: string): Promise<PayoutBalanceView> {
    const streamId = payoutBalanceStreamId(merchantId, currency);
    const { state } = await this.load(streamId, this.known.get(streamId));
    return { merchantId, currency, available: availableOf(state), held: state.held, toppedUp: state.toppedUp, received: state.received, paidOut: state.paidOut };
  }

  private async decideAndAppend(streamId: string, command: PayoutBalanceCommand, metadata: EventMetadata): Promise<PayoutBalanceResult> {
    // What this process remembers is decided on as it is: the append's expected version says
    // whether it was still the stream's last word.
    const remembered = this.known.get(streamId);
    let current: Known = remembered ?? (await this.load(streamId));
    let fresh = remembered === undefined;
    for (let attempt = 1; ; attempt++) {
      let newEvents: PayoutBalanceEvent[];
      try {
        newEvents = payoutBalanceDecider.decide(command, current.state);
      } catch (error) {
        // Refused on what this process remembered: the stream may have more (another process's top-up).
        if (!fresh) {
          current = await this.load(streamId, current);
          fresh = true;
          continue;
        }
        throw error;
      }
      if (newEvents.length === 0) return { state: current.state, newEvents };
      const events = newEvents.map((e) => toNewEvent(e, payoutBalanceDecider.schemaVersion, metadata));
      try {
        const result = await this.store.append(streamId, events, current.version === null ? NO_STREAM : exactly(current.version));
        const state = newEvents.reduce(payoutBalanceDecider.evolve, current.state);
        this.remember(streamId, { state, version: result.nextExpectedVersion });
        return { state, newEvents };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= MAX_ATTEMPTS) throw error;
        await pause(attempt);
        current = await this.load(streamId, current);
        fresh = true;
      }
    }
  }

  /** The stream's state now: `from` (a state at a known version) brought up to date, or the whole stream folded. */
  private async load(streamId: string, from?: Known): Promise<Known> {
    let { state, version } = from ?? { state: payoutBalanceDecider.initialState(), version: null };
    for (const stored of await this.store.readStream(streamId, { after: version })) {
      // A store that ignored `after` would hand back events already folded into `from`.
      if (version !== null && stored.version <= version) continue;
      state = payoutBalanceDecider.evolve(state, toDomainEvent<PayoutBalanceEvent>(stored));
      version = stored.version;
    }
    const known = { state, version };
    this.remember(streamId, known);
    return known;
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
