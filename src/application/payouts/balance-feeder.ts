/**
 * The balance feeder: follows the global log and records, on each merchant's payout balance
 * stream, the payment events that change what the merchant may pay out: sales and captures that
 * settled, refunds and voids, and how every payout ended (settled, or declined: its hold released).
 *
 * Each pass reads the log after its checkpoint, in order, and sends each balance stream one command
 * with that stream's movements; the stream records only those beyond its own watermark, so a pass
 * repeated after a crash, or another feeder in another process, never records a movement twice.
 * Of the log it is handed only the money events, through the store's type-filtered read when it has
 * one (src/application/ports/type-filtered-reader.ts): every other event is scanned past, not parsed,
 * and the pass moves on from where each page's scan ended.
 * The checkpoint only saves replaying: it is written after the work, at the end of a pass (and every
 * few thousand events of a long one), without waiting for a busy database (checkpoint-saves.ts);
 * the next pass starts where this one ended, saved or not.
 */
import type { FedMovement } from '../../domain/payouts/balance-decide';
import { paymentStreamId, type PaymentEvent, type PaymentKind } from '../../domain/payment/events';
import type { EventStore, StoredEvent } from '../ports/event-store';
import { typeFilteredReaderOf } from '../ports/type-filtered-reader';
import type { Clock } from '../ports/clock';
import type { PayoutBalances } from './payout-balances';
import { nextTurn } from '../next-turn';
import { CheckpointSaves, type WorkerCheckpoint } from '../checkpoint-saves';

export type FeederCheckpoint = WorkerCheckpoint;

export interface BalanceFeederDeps {
  store: EventStore;
  balances: PayoutBalances;
  checkpoint: FeederCheckpoint;
  clock: Clock;
  /** Events of the log scanned per page (of which only the money events are read). Default 200. */
  pageSize?: number;
}

/** What the feeder must know of a payment to place its money. */
interface PaymentFacts {
  merchantId: string;
  currency: string;
  kind: PaymentKind;
}

const MONEY_EVENT_TYPES = ['PaymentInitiated', 'PaymentSettled', 'CaptureSucceeded', 'RefundSucceeded', 'PaymentVoided', 'PaymentDeclined'] as const;
const MONEY_EVENTS: ReadonlySet<string> = new Set(MONEY_EVENT_TYPES);
const FACTS_CACHE_LIMIT = 50_000;
/** Small pages hold the thread for little on an embedded store, where reading is synchronous. */
const DEFAULT_PAGE_SIZE = 200;
/** Within a long pass (a catch-up), the checkpoint is saved every this many events as well. */
const SAVE_EVERY_EVENTS = 5_000;

export class BalanceFeeder {
  private readonly facts = new Map<string, PaymentFacts>();
  private readonly saves: CheckpointSaves;
  /** Where the last pass ended; until the first pass, the stored checkpoint is read. */
  private fedUpTo: { position: bigint | null } | null = null;

  constructor(private readonly deps: BalanceFeederDeps) {
    this.saves = new CheckpointSaves(deps.checkpoint);
  }

  /**
   * Feeds everything appended so far; answers how many movements were sent. Once `signal` is
   * aborted (the gateway stopping), it ends after the page in hand, its checkpoint saved there, so a
   * stop does not wait for a catch-up of the whole log.
   */
  async runOnce(signal?: AbortSignal): Promise<number> {
    let after = this.fedUpTo ? this.fedUpTo.position : await this.deps.checkpoint.load();
    const pageSize = this.deps.pageSize ?? DEFAULT_PAGE_SIZE;
    const reader = typeFilteredReaderOf(this.deps.store);
    let sent = 0;
    let unsaved = 0;
    for (;;) {
      const page = await reader.readAllOfTypes(MONEY_EVENT_TYPES, { after, maxCount: pageSize });
      if (page.scanned > 0) {
        sent += await this.feed(page.events);
        // Past the other events scanned too: none of them moves money.
        after = page.scannedUpTo;
        this.fedUpTo = { position: after };
        unsaved += page.scanned;
      }
      const ended = page.scanned < pageSize || signal?.aborted === true;
      if (after !== null && unsaved > 0 && (ended || unsaved >= SAVE_EVERY_EVENTS)) {
        // The feeder runs on the workers' thread: a busy read-model database must not stop it.
        if (await this.saves.saveUnlessBusy(after)) unsaved = 0;
      }
      if (ended) return sent;
      // Reading and parsing a page is synchronous on an embedded store: small pages with a turn
      // of the event loop between them keep this from holding up requests on the same thread.
      await nextTurn();
    }
  }

  private async feed(page: StoredEvent[]): Promise<number> {
    const byBalance = new Map<string, { merchantId: string; currency: string; movements: FedMovement[] }>();
    for (const stored of page) {
      if (!MONEY_EVENTS.has(stored.type) || !stored.streamId.startsWith('payment-')) continue;
      const event = { type: stored.type, data: stored.data } as unknown as PaymentEvent;
      if (event.type === 'PaymentInitiated') {
        this.remember(event.data.paymentId, { merchantId: event.data.merchantId, currency: event.data.currency, kind: event.data.kind });
        continue;
      }
      const paymentId = (event.data as { paymentId: string }).paymentId;
      const facts = await this.factsOf(paymentId);
      if (!facts) continue;
      const effect = effectOf(event, facts.kind);
      if (!effect) continue;
      const key = `${facts.merchantId} ${facts.currency}`;
      let entry = byBalance.get(key);
      if (!entry) byBalance.set(key, (entry = { merchantId: facts.merchantId, currency: facts.currency, movements: [] }));
      entry.movements.push({ position: stored.position.toString(), paymentId, eventId: stored.id, eventType: stored.type, ...effect });
    }
    const now = this.deps.clock.now().toISOString();
    for (const { merchantId, currency, movements } of byBalance.values()) {
      await this.deps.balances.handle(
        merchantId,
        currency,
        { type: 'RecordPayoutMovements', data: { merchantId, currency, movements, now } },
        { correlationId: 'payout-balance-feeder', causationId: movements[movements.length - 1]!.eventId },
      );
    }
    return [...byBalance.values()].reduce((n, e) => n + e.movements.length, 0);
  }

  private remember(paymentId: string, facts: PaymentFacts): void {
    this.facts.set(paymentId, facts);
    if (this.facts.size > FACTS_CACHE_LIMIT) this.facts.delete(this.facts.keys().next().value!);
  }

  private async factsOf(paymentId: string): Promise<PaymentFacts | null> {
    const known = this.facts.get(paymentId);
    if (known) return known;
    const [first] = await this.deps.store.readStream(paymentStreamId(paymentId));
    if (!first || first.type !== 'PaymentInitiated') return null;
    const d = first.data as { merchantId: string; currency: string; kind: PaymentKind };
    const facts = { merchantId: d.merchantId, currency: d.currency, kind: d.kind };
    this.remember(paymentId, facts);
    return facts;
  }
}

/** What an event does to the payout balance, or null for nothing. */
function effectOf(event: PaymentEvent, kind: PaymentKind): Pick<FedMovement, 'effect' | 'amount'> | null {
  switch (event.type) {
    case 'PaymentSettled':
      return kind === 'credit' ? { effect: 'payout_settled', amount: event.data.amount } : { effect: 'received', amount: event.data.amount };
    case 'CaptureSucceeded':
      return { effect: 'received', amount: event.data.amount };
    case 'RefundSucceeded':
      return { effect: 'received', amount: -event.data.amount };
    case 'PaymentVoided':
      return { effect: 'received', amount: -event.data.amount };
    case 'PaymentDeclined':
      return kind === 'credit' ? { effect: 'payout_declined', amount: 0 } : null;
    default:
      return null;
  }
}
