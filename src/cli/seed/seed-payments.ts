/**
 * Fills an event store with realistic payment histories, fast, for rebuild benchmarks and for
 * trying the operator tools on volume.
 *
 * Every event comes out of the real payment decider, fed the command data the gateway would feed
 * it (acquirer answers as the sandbox gives them), so the stored events are exactly what the
 * gateway writes. Only HTTP, hashing and the acquirer round trips are skipped, and the appends are
 * batched: many payments per `appendMultiple`. Time is simulated: payments arrive one every couple
 * of seconds, and their captures, refunds, voids and payer returns come minutes to days later,
 * interleaved with newer payments as they would be in a live store.
 */
import type { EventStore, StreamWrite } from '../../application/ports/event-store';
import { MinQueue } from './min-queue';
import { newPayment } from './new-payment';
import { runNextStep } from './run-step';
import { diceOf, seededRandom, type Dice } from './seeded-random';
import type { SeededPayment } from './seeded-payment';

export interface SeedOptions {
  store: EventStore;
  /** At least this many events are written (the last payment's history is completed). */
  events: number;
  /** Merchants the payments belong to; they must exist for the read models to make sense. */
  merchantIds: string[];
  /** Simulated time of the first payment. Default: as far back as the payments take, ending now. */
  startAt?: Date;
  /** Source of randomness for the mix (not for ids). Default: a fixed seed, so runs look alike. */
  random?: () => number;
  /** Events per appendMultiple call. Default 50,000: the fewer commits, the fewer index pages written again. */
  eventsPerAppend?: number;
  onProgress?(written: number): void;
}

export interface SeedResult {
  events: number;
  payments: number;
  /** Payments per final status, e.g. `{ SETTLED: 1200, DECLINED: 180, ... }`. */
  byStatus: Record<string, number>;
}

/** Simulated gap between two new payments. */
const PAYMENT_EVERY_MS = 2_000;

const eventsOf = (writes: StreamWrite[]): number => writes.reduce((n, w) => n + w.events.length, 0);

/** One seeding: the payments waiting for their next request, and the writes not appended yet. */
class Seeding {
  /** Follow-ups waiting for their simulated time, soonest first. */
  private readonly queue = new MinQueue<SeededPayment>();
  /** Events of the queued payments' requests still to run. */
  private planned = 0;
  private written = 0;
  private pendingEvents = 0;
  private payments = 0;
  private readonly byStatus: Record<string, number> = {};
  private writes: StreamWrite[] = [];
  private readonly perAppend: number;

  constructor(private readonly options: SeedOptions) {
    this.perAppend = Math.max(1, options.eventsPerAppend ?? 50_000);
  }

  /** Events written, waiting to be, and planned for the payments under way. */
  get eventsSoFar(): number {
    return this.written + this.pendingEvents + this.planned;
  }

  get result(): SeedResult {
    return { events: this.written, payments: this.payments, byStatus: this.byStatus };
  }

  async addPayment(payment: SeededPayment): Promise<void> {
    this.planned += payment.steps.reduce((n, s) => n + s.events, 0) + 1;
    await this.runStep(payment);
  }

  /** Runs a payment's next step through the decider and queues what it records. */
  async runStep(payment: SeededPayment): Promise<void> {
    const writes = runNextStep(payment);
    const events = eventsOf(writes);
    this.writes.push(...writes);
    this.pendingEvents += events;
    this.planned -= events;
    if (payment.next < payment.steps.length) {
      this.queue.push(payment.steps[payment.next].at, payment);
    } else {
      this.payments++;
      const status = payment.state.exists ? payment.state.status : 'NONE';
      this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    }
    if (this.pendingEvents >= this.perAppend) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.writes.length === 0) return;
    const batch = this.writes;
    this.writes = [];
    this.pendingEvents = 0;
    await this.options.store.appendMultiple(batch);
    this.written += eventsOf(batch);
    this.options.onProgress?.(this.written);
  }

  /** Runs every queued request due by `clock` (all of them without one), soonest first. */
  async runDue(clock = Infinity): Promise<void> {
    while (this.queue.size > 0 && this.queue.peekKey()! <= clock) await this.runStep(this.queue.pop()!);
  }
}

/** Writes payment histories until at least `events` events are stored. */
export async function seedPayments(options: SeedOptions): Promise<SeedResult> {
  if (options.merchantIds.length === 0) throw new Error('seeding needs at least one merchant');
  const dice: Dice = diceOf(options.random ?? seededRandom());
  const expectedPayments = Math.ceil(options.events / 3.5);
  let clock = options.startAt?.getTime() ?? Date.now() - expectedPayments * PAYMENT_EVERY_MS;
  const seeding = new Seeding(options);
  while (seeding.eventsSoFar < options.events) {
    clock += dice.between(PAYMENT_EVERY_MS / 2, (PAYMENT_EVERY_MS * 3) / 2);
    await seeding.runDue(clock);
    await seeding.addPayment(newPayment(dice, dice.pick(options.merchantIds), clock));
  }
  await seeding.runDue();
  await seeding.flush();
  return seeding.result;
}
