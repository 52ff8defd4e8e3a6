/**
 * The notifier turns payment state changes into merchant callbacks and delivers them. It is made of
 * the subscription that follows the log and schedules deliveries (scheduling-subscription.ts, with
 * delivery-scheduler.ts), the sender that claims, sends and records attempts (delivery-sender.ts),
 * and the delivery decider (domain/callback-delivery) that says what each step means. Any number of
 * notifiers may run at once: each callback is scheduled and sent by exactly one of them.
 *
 * A restart in the middle of an outage picks the unfinished schedulings up again from the
 * checkpoint (log-progress.ts); a notifier that dies mid-attempt leaves a claim whose lease runs
 * out, and the next one sends again under the same delivery id.
 */
import { randomUUID } from 'node:crypto';
import { DeliveryScheduler } from './delivery-scheduler';
import { DeliverySender } from './delivery-sender';
import { LogProgress } from './log-progress';
import { MerchantCache } from './merchant-cache';
import { DEFAULT_RETRY_BACKOFF, type NotifierDeps } from './notifier-deps';
import { NotifierRuntime } from './notifier-runtime';
import { PaymentFolds } from './payment-folds';
import { SchedulingSubscription } from './scheduling-subscription';
import { UrlTimeouts } from './url-timeouts';

export {
  CALLBACK_CONTENT_TYPE,
  DEFAULT_RETRY_BACKOFF,
  type NotifierCheckpoint,
  type NotifierDeps,
  type NotifierSettings,
  type RetryBackoff,
} from './notifier-deps';

/** A claimed attempt outlives the HTTP timeout by this much before another notifier may take over. */
const LEASE_GRACE_MS = 30_000;
/** Eight of these (BUSY_SAVES_BEFORE_WAITING, checkpoint-saves.ts): two seconds of saves that may give up before one waits. */
const CHECKPOINT_EVERY_MS = 250;

export class Notifier {
  private readonly runtime: NotifierRuntime;
  private readonly progress: LogProgress;
  private readonly timeouts: UrlTimeouts;
  private readonly sender: DeliverySender;
  private readonly subscription: SchedulingSubscription;
  private pollTimer: NodeJS.Timeout | null = null;
  private checkpointTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: NotifierDeps) {
    const leaseMs = deps.settings.timeoutMs + LEASE_GRACE_MS;
    this.runtime = new NotifierRuntime(deps.logger, deps.retry ?? DEFAULT_RETRY_BACKOFF);
    this.progress = new LogProgress(deps.checkpoint);
    this.timeouts = new UrlTimeouts(deps.settings, deps.queries);
    const merchants = new MerchantCache(deps.merchants);
    this.sender = new DeliverySender(deps, { runtime: this.runtime, merchants, timeouts: this.timeouts, leaseMs });
    const scheduler = new DeliveryScheduler({
      store: deps.store,
      clock: deps.clock,
      merchants,
      timeouts: this.timeouts,
      leaseMs,
      instanceId: randomUUID(),
    });
    this.subscription = new SchedulingSubscription(deps, {
      runtime: this.runtime,
      progress: this.progress,
      folds: new PaymentFolds(deps.store),
      scheduler,
      sender: this.sender,
    });
  }

  async start(): Promise<void> {
    if (this.runtime.running) return;
    this.runtime.running = true;
    const after = await this.runtime.retrying('checkpoint load', () => this.deps.checkpoint.load());
    if (!after.ok) return; // stopped before the database answered
    this.progress.resumeAfter(after.value);
    this.subscription.subscribe();
    this.pollTimer = setInterval(() => void this.runDue().catch((error) => this.runtime.reportError('due pass', error)), this.deps.settings.pollMs);
    this.pollTimer.unref();
    this.checkpointTimer = setInterval(
      () => void this.progress.save(false).catch((error) => this.runtime.reportError('checkpoint', error)),
      CHECKPOINT_EVERY_MS,
    );
    this.checkpointTimer.unref();
  }

  async stop(): Promise<void> {
    this.runtime.running = false;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    // Work waiting to be retried gives up now; the checkpoint stays before it.
    this.runtime.wakeSleepers();
    await this.subscription.stop();
    this.sender.dropQueued();
    await this.idle();
    // The last checkpoint that could be saved stands if the database is down: that only means replaying.
    await this.progress.save().catch((error) => this.runtime.reportError('checkpoint', error));
  }

  /** Resolves when everything this notifier has started (scheduling, sends, recording) is finished. */
  async idle(): Promise<void> {
    while (this.runtime.busy || this.sender.queued > 0) await this.runtime.settled();
  }

  /** Resolves once the log up to its current head has been seen and everything it caused is done. */
  async catchUp(timeoutMs = 10_000): Promise<void> {
    if (!this.runtime.running) throw new Error('the notifier is not running');
    const head = await this.deps.store.headPosition();
    const deadline = Date.now() + timeoutMs;
    while (head !== null && (this.progress.lastSeen === null || this.progress.lastSeen < head)) {
      if (Date.now() > deadline) throw new Error('notifier did not catch up in time');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await this.idle();
  }

  /** One pass over the deliveries that are due (retries, redeliveries, abandoned attempts). */
  runDue(): Promise<number> {
    return this.sender.runDue();
  }

  /**
   * Sends a delivery now if it is due (after an operator's redelivery) and resolves once the attempt's
   * outcome is recorded; false when there was nothing to send.
   */
  sendIfDue(deliveryId: string): Promise<boolean> {
    return this.sender.sendIfDue(deliveryId);
  }

  /** URLs blocked right now, with the time each block ends (for operators). */
  blockedUrls(): Array<{ url: string; until: string }> {
    return this.timeouts.blocked(this.deps.clock.now().getTime());
  }
}
