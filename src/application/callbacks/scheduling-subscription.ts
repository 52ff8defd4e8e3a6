/**
 * Follows the global event log from the stored checkpoint and schedules the callback each payment
 * event calls for. A scheduling that fails (the database refuses, times out or drops the connection)
 * is tried again with backoff for as long as it takes, never dropped: the checkpoint stays just
 * before the lowest payment event whose delivery is not recorded yet.
 *
 * A payment's callbacks go out in the order of its events: the first attempt of each waits until
 * the one before it (of the same payment, in this notifier) has had its answer, so a cascaded SALE's
 * declined attempt does not reach the merchant after its settlement. Retries are not held back.
 */
import { PAYMENT_EVENT_TYPES, type PaymentEvent } from '../../domain/payment/events';
import { toDomainEvent } from '../command-handler';
import type { StoredEvent, Subscription } from '../ports/event-store';
import { withoutLogFields } from '../ports/log-context';
import type { Claimed } from './claimed-delivery';
import type { DeliveryScheduler } from './delivery-scheduler';
import type { DeliverySender } from './delivery-sender';
import type { LogProgress } from './log-progress';
import type { NotifierDeps } from './notifier-deps';
import type { NotifierRuntime } from './notifier-runtime';
import type { PaymentFolds } from './payment-folds';
import { PaymentTurns, type Turn } from './payment-turns';

const PAYMENT_TYPES: ReadonlySet<string> = new Set(PAYMENT_EVENT_TYPES);
/** Schedulings not recorded yet beyond which the log waits for them. */
const MAX_UNSCHEDULED = 2_000;

export interface SchedulingParts {
  runtime: NotifierRuntime;
  progress: LogProgress;
  folds: PaymentFolds;
  scheduler: DeliveryScheduler;
  sender: DeliverySender;
}

export class SchedulingSubscription {
  private subscription: Subscription | null = null;
  /** Bumped whenever the subscription is replaced, so a stale one's deliveries and errors are ignored. */
  private generation = 0;
  private resubscribeTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  /** Schedulings not recorded yet: what the log's back-pressure counts (sends waiting for a slot or a turn do not). */
  private unscheduled = 0;
  private readonly turns = new PaymentTurns();

  constructor(
    private readonly deps: NotifierDeps,
    private readonly parts: SchedulingParts,
  ) {}

  /**
   * Follows the log after the last event seen. Everything seen is either done or pending (and
   * being retried), so a subscription that fails for good is replaced by one starting after it.
   */
  subscribe(): void {
    const generation = ++this.generation;
    this.subscription = this.deps.store.subscribeToAll({
      after: this.parts.progress.lastSeen,
      onEvent: (event) => {
        if (generation !== this.generation) return;
        this.failures = 0;
        return this.onEvent(event);
      },
      onError: (error) => this.failed(generation, error),
    });
  }

  /** Stops following the log; a replacement waiting to subscribe does not. */
  async stop(): Promise<void> {
    if (this.resubscribeTimer) clearTimeout(this.resubscribeTimer);
    this.resubscribeTimer = null;
    const subscription = this.subscription;
    this.subscription = null;
    this.generation++;
    if (subscription) await subscription.stop();
  }

  private failed(generation: number, error: unknown): void {
    if (generation !== this.generation) return;
    this.generation++;
    const subscription = this.subscription;
    this.subscription = null;
    // Not awaited: this may run inside the subscription's own handler.
    void subscription?.stop().catch(() => undefined);
    const { initialMs, maxMs } = this.parts.runtime.backoff;
    const delay = Math.min(initialMs * 2 ** this.failures, maxMs);
    this.failures++;
    this.deps.logger.error(`notifier subscription failed, resubscribing in ${delay} ms`, {
      error: error instanceof Error ? error.message : String(error),
    });
    if (!this.parts.runtime.running) return;
    this.resubscribeTimer = setTimeout(() => {
      this.resubscribeTimer = null;
      if (this.parts.runtime.running && this.subscription === null) this.subscribe();
    }, delay);
  }

  /**
   * Registers the event as pending before anything can fail, so the checkpoint cannot pass it, then
   * schedules its callback in the background, retried until it is recorded (or the notifier stops).
   */
  private async onEvent(stored: StoredEvent): Promise<void> {
    const { runtime, progress, folds, scheduler } = this.parts;
    if (!PAYMENT_TYPES.has(stored.type)) return progress.passed(stored.position);
    const event = toDomainEvent<PaymentEvent>(stored);
    const entry = progress.open(stored.position);
    const folded = folds.cached(stored, event);
    const turn = this.turns.take(String(stored.data.paymentId));
    const requestId = stored.metadata.correlationId;
    const scheduling = (this.deps.withLogFields ?? withoutLogFields)(typeof requestId === 'string' ? { requestId } : {}, () => {
      this.unscheduled++;
      return runtime.track(
        runtime
          .retrying('scheduling', async () => {
            const after = folded ?? (await folds.fromStream(stored));
            return after.exists ? await scheduler.schedule(stored, event, after) : null;
          })
          .then((outcome) => {
            this.unscheduled--;
            if (outcome.ok) entry.done = true;
            // The send waits for its turn apart from the scheduling, so the checkpoint does not.
            if (outcome.ok && outcome.value) this.sendInTurn(turn, outcome.value);
            else this.turns.finish(turn);
          }),
      );
    });
    // Back-pressure: the log must not run away from the appends it causes (nor from an outage).
    if (this.unscheduled > MAX_UNSCHEDULED) await scheduling;
  }

  /**
   * Sends a delivery whose first attempt is claimed once the payment's earlier callbacks have had
   * their answers, and ends its turn when its own attempt's outcome is recorded (or given up).
   */
  private sendInTurn(turn: Turn, { deliveryId, known }: Claimed): void {
    const { runtime, sender } = this.parts;
    const send = (): void => {
      if (!runtime.running) return this.turns.finish(turn);
      sender.onFinished(deliveryId, () => this.turns.finish(turn));
      sender.enqueue(deliveryId, known);
    };
    const wait = this.turns.whenReady(turn);
    if (wait) runtime.track(wait.then(send));
    else send();
  }
}
