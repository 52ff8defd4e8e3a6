/**
 * The notifier turns payment state changes into merchant callbacks and delivers them.
 *
 * Scheduling: it follows the global event log from a stored checkpoint. For each payment event that
 * a merchant must hear about, it records a delivery (`CallbackScheduled`, with the exact body) in a
 * stream whose id is derived from the payment event, together with the claim on the first attempt.
 * Any number of notifiers may follow the log: the stream can be created once, so exactly one of
 * them schedules and sends each callback; the others see the stream exists and move on.
 *
 * A scheduling that fails (the database refuses, times out or drops the connection) is tried again
 * with backoff for as long as it takes, never dropped: the checkpoint stays just before the lowest
 * payment event whose delivery is not recorded yet, so a restart in the middle of an outage picks
 * the unfinished ones up again.
 *
 * A payment's callbacks go out in the order of its events: the first attempt of each waits until
 * the one before it (of the same payment, in this notifier) has had its answer, so a cascaded SALE's
 * declined attempt does not reach the merchant after its settlement. Retries are not held back.
 *
 * Delivering: every attempt is claimed by appending `CallbackAttemptStarted` at the version read, so
 * two notifiers never send the same attempt; the outcome is recorded afterwards. Retries come from the
 * deliveries read model (what is due now), but whether an attempt may start is decided on the
 * delivery's own stream. A notifier that dies mid-attempt leaves a claim whose lease runs out; the
 * next one records the attempt as interrupted and sends again under the same delivery id.
 */
import { randomUUID } from 'node:crypto';
import type { CallbackCommand } from '../../domain/callback-delivery/commands';
import { callbackStreamId } from '../../domain/callback-delivery/events';
import type { DeliveryState, ExistingDelivery } from '../../domain/callback-delivery/state';
import { blockedUntil, type UrlBlockPolicy } from '../../domain/callback-delivery/url-block';
import { callbackFieldsFor, type CallbackContext } from '../../domain/callback/callback-content';
import { callbackSignatureHeader, encodeCallbackBody } from '../../domain/callback/callback-encoding';
import { DomainError } from '../../domain/errors';
import { PAYMENT_EVENT_TYPES, paymentStreamId, type PaymentEvent } from '../../domain/payment/events';
import { evolvePayment, initialPaymentState, type PaymentState } from '../../domain/payment/state';
import { CheckpointSaves, type WorkerCheckpoint } from '../checkpoint-saves';
import { handleCommand, loadState, toDomainEvent } from '../command-handler';
import type { MerchantAccount } from '../merchant-service';
import type { CallbackSender } from '../ports/callback-sender';
import type { DueCallbackDeliveries } from '../ports/callback-deliveries-read-model';
import type { Clock } from '../ports/clock';
import { WrongExpectedVersionError, type EventStore, type StoredEvent, type Subscription } from '../ports/event-store';
import type { Logger } from '../ports/logger';
import { withoutLogFields, type WithLogFields } from '../ports/log-context';
import { callbackDecider } from '../../domain/callback-delivery/decider';
import { deliveryIdFor } from './delivery-id';
import { PaymentTurns, type Turn } from './payment-turns';

export const CALLBACK_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface NotifierSettings {
  timeoutMs: number;
  retryScheduleMs: readonly number[];
  blockPolicy: UrlBlockPolicy;
  /** How often due retries are looked for. */
  pollMs: number;
  /** Callbacks on the wire at once, over all merchants. */
  maxInFlight: number;
}

export type NotifierCheckpoint = WorkerCheckpoint;

/** Backoff between tries of work the database failed: doubling from `initialMs` up to `maxMs`. */
export interface RetryBackoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { initialMs: 100, maxMs: 30_000 };

export interface NotifierDeps {
  store: EventStore;
  merchants: { accountById(merchantId: string): Promise<MerchantAccount | undefined> };
  queries: DueCallbackDeliveries;
  checkpoint: NotifierCheckpoint;
  sender: CallbackSender;
  clock: Clock;
  /**
   * Real time, for the X-Signature `t` a merchant checks against its own clock; the sandbox's
   * movable `clock` dates business events only. Default `clock`.
   */
  signingClock?: Clock;
  logger: Logger;
  settings: NotifierSettings;
  /** Default DEFAULT_RETRY_BACKOFF. */
  retry?: RetryBackoff;
  /** Lets the lines logged while a payment event's callback is scheduled and sent carry the request id that caused it. */
  withLogFields?: WithLogFields;
}

const PAYMENT_TYPES: ReadonlySet<string> = new Set(PAYMENT_EVENT_TYPES);
const PAYMENT_CACHE_LIMIT = 20_000;
/** A claimed attempt outlives the HTTP timeout by this much before another notifier may take over. */
const LEASE_GRACE_MS = 30_000;
const MERCHANT_CACHE_MS = 1_000;
/** Eight of these (BUSY_SAVES_BEFORE_WAITING, checkpoint-saves.ts): two seconds of saves that may give up before one waits. */
const CHECKPOINT_EVERY_MS = 250;

/** A delivery's state as this notifier last appended it, so a send needs no read. */
interface KnownDelivery {
  state: DeliveryState;
  version: bigint;
}

/** A delivery whose attempt is claimed, to be sent by the notifier that claimed it. */
interface Claimed {
  deliveryId: string;
  known: KnownDelivery;
}

interface Pending {
  position: bigint;
  done: boolean;
}

export class Notifier {
  private subscription: Subscription | null = null;
  /** Bumped whenever the subscription is replaced, so a stale one's deliveries and errors are ignored. */
  private generation = 0;
  private resubscribeTimer: NodeJS.Timeout | null = null;
  private subscriptionFailures = 0;
  private running = false;
  /** Backoff pauses in progress; stop() ends them at once. */
  private readonly sleepers = new Set<() => void>();
  private readonly backoff: RetryBackoff;
  private pollTimer: NodeJS.Timeout | null = null;
  private checkpointTimer: NodeJS.Timeout | null = null;

  /** Payment states folded from the log as it passes, so scheduling rarely reads a stream. */
  private readonly payments = new Map<string, { state: PaymentState; version: bigint }>();
  /** Scheduling appends in progress, in log order; the checkpoint advances over finished ones only. */
  private readonly pending: Pending[] = [];
  private lastSeen: bigint | null = null;
  private savedCheckpoint: bigint | null = null;
  private readonly checkpointSaves: CheckpointSaves;
  private readonly work = new Set<Promise<unknown>>();

  /** Deliveries this notifier is sending right now, and those waiting for a free slot. */
  private readonly sending = new Set<string>();
  private readonly queue: Claimed[] = [];
  private inFlight = 0;
  /** Schedulings not recorded yet: what the log's back-pressure counts (sends waiting for a slot or a turn do not). */
  private unscheduled = 0;
  /** Times (ms) of timed-out attempts per URL, this process's and those read from the read model. */
  private readonly timeouts = new Map<string, number[]>();
  private polling: Promise<number> | null = null;
  private readonly finishWaiters = new Map<string, Array<() => void>>();
  private readonly turns = new PaymentTurns();
  private readonly merchantCache = new Map<string, { account: MerchantAccount | undefined; at: number }>();
  private readonly leaseMs: number;
  /** Marks the claims this notifier appends, so it knows its own after a lost reply. */
  private readonly instanceId = randomUUID();

  constructor(private readonly deps: NotifierDeps) {
    this.leaseMs = deps.settings.timeoutMs + LEASE_GRACE_MS;
    this.backoff = deps.retry ?? DEFAULT_RETRY_BACKOFF;
    this.checkpointSaves = new CheckpointSaves(deps.checkpoint);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const after = await this.retrying('checkpoint load', () => this.deps.checkpoint.load());
    if (!after.ok) return; // stopped before the database answered
    this.pending.length = 0;
    this.lastSeen = after.value;
    this.savedCheckpoint = after.value;
    this.subscribe();
    this.pollTimer = setInterval(() => void this.runDue().catch((error) => this.reportError('due pass', error)), this.deps.settings.pollMs);
    this.pollTimer.unref();
    this.checkpointTimer = setInterval(() => void this.saveCheckpoint(false).catch((error) => this.reportError('checkpoint', error)), CHECKPOINT_EVERY_MS);
    this.checkpointTimer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    if (this.resubscribeTimer) clearTimeout(this.resubscribeTimer);
    this.resubscribeTimer = null;
    // Work waiting to be retried gives up now; the checkpoint stays before it.
    for (const wake of [...this.sleepers]) wake();
    const subscription = this.subscription;
    this.subscription = null;
    this.generation++;
    if (subscription) await subscription.stop();
    // Queued sends give up (their claims' leases run out and they are sent again later); whoever
    // waits for them, a payment's next callback or an operator's redelivery, is let go.
    for (const { deliveryId } of this.queue.splice(0)) {
      this.sending.delete(deliveryId);
      this.releaseWaiters(deliveryId);
    }
    await this.idle();
    // The last checkpoint that could be saved stands if the database is down: that only means replaying.
    await this.saveCheckpoint().catch((error) => this.reportError('checkpoint', error));
  }

  /** Resolves when everything this notifier has started (scheduling, sends, recording) is finished. */
  async idle(): Promise<void> {
    while (this.work.size > 0 || this.queue.length > 0) await Promise.allSettled([...this.work]);
  }

  /** Resolves once the log up to its current head has been seen and everything it caused is done. */
  async catchUp(timeoutMs = 10_000): Promise<void> {
    if (!this.running) throw new Error('the notifier is not running');
    const head = await this.deps.store.headPosition();
    const deadline = Date.now() + timeoutMs;
    while (head !== null && (this.lastSeen === null || this.lastSeen < head)) {
      if (Date.now() > deadline) throw new Error('notifier did not catch up in time');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await this.idle();
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.work.add(promise);
    void promise.finally(() => this.work.delete(promise)).catch(() => undefined);
    return promise;
  }

  private reportError(what: string, error: unknown): void {
    this.deps.logger.error(`notifier ${what} failed`, { error: error instanceof Error ? error.message : String(error) });
  }

  /** Sleeps for `ms`, or less if the notifier stops meanwhile. */
  private pause(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /**
   * Runs `work` until it succeeds, pausing with backoff after each failure, for as long as the
   * notifier runs (and, with `untilMs`, until that time). `ok: false` means it gave up.
   */
  private async retrying<T>(what: string, work: () => Promise<T>, untilMs = Infinity): Promise<{ ok: true; value: T } | { ok: false }> {
    let delay = this.backoff.initialMs;
    for (;;) {
      try {
        return { ok: true, value: await work() };
      } catch (error) {
        if (!this.running || Date.now() + delay > untilMs) {
          this.reportError(what, error);
          return { ok: false };
        }
        this.deps.logger.warn(`notifier ${what} failed, retrying in ${delay} ms`, {
          error: error instanceof Error ? error.message : String(error),
        });
        await this.pause(delay);
        if (!this.running) return { ok: false };
        delay = Math.min(delay * 2, this.backoff.maxMs);
      }
    }
  }

  /**
   * Follows the log after the last event seen. Everything seen is either done or pending (and
   * being retried), so a subscription that fails for good is replaced by one starting after it.
   */
  private subscribe(): void {
    const generation = ++this.generation;
    this.subscription = this.deps.store.subscribeToAll({
      after: this.lastSeen,
      onEvent: (event) => {
        if (generation !== this.generation) return;
        this.subscriptionFailures = 0;
        return this.onEvent(event);
      },
      onError: (error) => this.subscriptionFailed(generation, error),
    });
  }

  private subscriptionFailed(generation: number, error: unknown): void {
    if (generation !== this.generation) return;
    this.generation++;
    const subscription = this.subscription;
    this.subscription = null;
    // Not awaited: this may run inside the subscription's own handler.
    void subscription?.stop().catch(() => undefined);
    const delay = Math.min(this.backoff.initialMs * 2 ** this.subscriptionFailures, this.backoff.maxMs);
    this.subscriptionFailures++;
    this.deps.logger.error(`notifier subscription failed, resubscribing in ${delay} ms`, {
      error: error instanceof Error ? error.message : String(error),
    });
    if (!this.running) return;
    this.resubscribeTimer = setTimeout(() => {
      this.resubscribeTimer = null;
      if (this.running && this.subscription === null) this.subscribe();
    }, delay);
  }

  // ---- scheduling -------------------------------------------------------------------------

  /**
   * Registers the event as pending before anything can fail, so the checkpoint cannot pass it, then
   * schedules its callback in the background, retried until it is recorded (or the notifier stops).
   */
  private async onEvent(stored: StoredEvent): Promise<void> {
    if (!PAYMENT_TYPES.has(stored.type)) {
      this.lastSeen = stored.position;
      return;
    }
    const event = toDomainEvent<PaymentEvent>(stored);
    const entry: Pending = { position: stored.position, done: false };
    this.pending.push(entry);
    this.lastSeen = stored.position;
    const folded = this.foldCached(stored, event);
    const turn = this.turns.take(String(stored.data.paymentId));
    const requestId = stored.metadata.correlationId;
    const scheduling = (this.deps.withLogFields ?? withoutLogFields)(typeof requestId === 'string' ? { requestId } : {}, () => {
      this.unscheduled++;
      return this.track(
        this.retrying('scheduling', async () => {
          const after = folded ?? (await this.foldFromStream(stored));
          return after.exists ? await this.schedule(stored, event, after) : null;
        }).then((outcome) => {
          this.unscheduled--;
          if (outcome.ok) entry.done = true;
          // The send waits for its turn apart from the scheduling, so the checkpoint does not.
          if (outcome.ok && outcome.value) this.sendInTurn(turn, outcome.value);
          else this.turns.finish(turn);
        }),
      );
    });
    // Back-pressure: the log must not run away from the appends it causes (nor from an outage).
    if (this.unscheduled > 2_000) await scheduling;
  }

  /**
   * The payment's state after this event from the cache fed by the log, without I/O; null when the
   * cache cannot tell (started mid-stream from a checkpoint, or evicted): then the stream is read.
   */
  private foldCached(stored: StoredEvent, event: PaymentEvent): PaymentState | null {
    const paymentId = String(stored.data.paymentId);
    const cached = this.payments.get(paymentId);
    let state: PaymentState | null = null;
    if (stored.version === 0n) state = evolvePayment(initialPaymentState(), event);
    else if (cached && cached.version === stored.version - 1n) state = evolvePayment(cached.state, event);
    this.payments.delete(paymentId);
    if (state) this.remember(paymentId, state, stored.version);
    return state;
  }

  private async foldFromStream(stored: StoredEvent): Promise<PaymentState> {
    const paymentId = String(stored.data.paymentId);
    const events = await this.deps.store.readStream(paymentStreamId(paymentId));
    let state = initialPaymentState();
    for (const e of events) {
      if (e.version > stored.version) break;
      state = evolvePayment(state, toDomainEvent<PaymentEvent>(e));
    }
    // Unless the log has moved the cache on meanwhile, the next event of this payment can use it.
    if (!this.payments.has(paymentId)) this.remember(paymentId, state, stored.version);
    return state;
  }

  private remember(paymentId: string, state: PaymentState, version: bigint): void {
    if (this.payments.size >= PAYMENT_CACHE_LIMIT) this.payments.delete(this.payments.keys().next().value!);
    this.payments.set(paymentId, { state, version });
  }

  /**
   * Records the callback this payment event calls for, if any; returns the delivery when its first
   * attempt was claimed with it (the URL is not blocked), for the caller to send in the payment's turn.
   */
  private async schedule(stored: StoredEvent, event: PaymentEvent, after: Extract<PaymentState, { exists: true }>): Promise<Claimed | null> {
    const merchant = await this.merchant(after.merchantId);
    if (!merchant) return null;
    const url = after.notificationUrl ?? merchant.notificationUrl;
    if (!url) return null;
    const context: CallbackContext = { password: merchant.password, protocolMapping: merchant.protocolMapping };
    const fields = callbackFieldsFor(event, after, context);
    if (!fields) return null;
    const deliveryId = deliveryIdFor(stored.id);
    const now = this.deps.clock.now();
    const command: CallbackCommand = {
      type: 'ScheduleCallback',
      data: {
        deliveryId,
        paymentId: after.paymentId,
        merchantId: after.merchantId,
        sourceEventId: stored.id,
        sourceEventType: stored.type,
        url,
        contentType: CALLBACK_CONTENT_TYPE,
        body: encodeCallbackBody(fields),
        now: now.toISOString(),
        startNow: this.blockedUntil(url, now.getTime()) === null,
        leaseMs: this.leaseMs,
      },
    };
    let result;
    try {
      // The id is new unless another notifier (or an earlier run) got here first: expect no stream
      // without reading it; a conflict re-reads and then decides there is nothing to do.
      result = await handleCommand(
        this.deps.store,
        callbackStreamId(deliveryId),
        callbackDecider,
        command,
        { correlationId: stored.metadata.correlationId, causationId: stored.id, notifier: this.instanceId },
        { state: callbackDecider.initialState(), version: null },
      );
    } catch (error) {
      // Another notifier created the delivery first: it is theirs to send.
      if (error instanceof WrongExpectedVersionError) return null;
      throw error;
    }
    if (result.newEvents.some((e) => e.type === 'CallbackAttemptStarted') && result.version !== null) {
      return { deliveryId, known: { state: result.state, version: result.version } };
    }
    return this.ownFirstClaim(deliveryId);
  }

  /**
   * The delivery exists already. When its first attempt was claimed by this notifier (the append
   * committed but its reply was lost), it is still this notifier's to send, in the payment's turn:
   * left to the due pass, it would reach the merchant after the payment's later callbacks.
   */
  private async ownFirstClaim(deliveryId: string): Promise<Claimed | null> {
    const events = await this.deps.store.readStream(callbackStreamId(deliveryId));
    const claims = events.filter((e) => e.type === 'CallbackAttemptStarted');
    if (claims.length !== 1 || claims[0]!.metadata?.notifier !== this.instanceId) return null;
    const { state, version } = await loadState(this.deps.store, callbackStreamId(deliveryId), callbackDecider);
    if (!state.exists || state.status !== 'in_flight' || state.attempts !== 1 || version === null) return null;
    return { deliveryId, known: { state, version } };
  }

  /**
   * Sends a delivery whose first attempt is claimed once the payment's earlier callbacks have had
   * their answers, and ends its turn when its own attempt's outcome is recorded (or given up).
   */
  private sendInTurn(turn: Turn, { deliveryId, known }: Claimed): void {
    const send = (): void => {
      if (!this.running) return this.turns.finish(turn);
      this.onFinished(deliveryId, () => this.turns.finish(turn));
      this.enqueue(deliveryId, known);
    };
    const wait = this.turns.whenReady(turn);
    if (wait) this.track(wait.then(send));
    else send();
  }

  /**
   * Merchant settings for callbacks, re-read at most once a second: a settings change reaches
   * callbacks within a second, and a busy log does not cost a stream lookup per event.
   */
  private async merchant(merchantId: string): Promise<MerchantAccount | undefined> {
    const now = Date.now();
    const cached = this.merchantCache.get(merchantId);
    if (cached && now - cached.at < MERCHANT_CACHE_MS) return cached.account;
    const account = await this.deps.merchants.accountById(merchantId);
    if (this.merchantCache.size > 10_000) this.merchantCache.clear();
    this.merchantCache.set(merchantId, { account, at: now });
    return account;
  }

  /**
   * Saves the position right before the lowest event whose delivery is not recorded yet. The
   * periodic saves (`mayWait` false) do not wait for a busy database: callbacks are sent from this
   * thread, and a checkpoint saved a moment later only means replaying a moment more after a crash.
   */
  private async saveCheckpoint(mayWait = true): Promise<void> {
    while (this.pending.length > 0 && this.pending[0].done) this.pending.shift();
    // With nothing in progress, everything seen so far is accounted for.
    const upTo = this.pending.length > 0 ? this.pending[0].position - 1n : this.lastSeen;
    if (upTo === null || (this.savedCheckpoint !== null && upTo <= this.savedCheckpoint)) return;
    if (mayWait) await this.checkpointSaves.save(upTo);
    else if (!(await this.checkpointSaves.saveUnlessBusy(upTo))) return;
    this.savedCheckpoint = upTo;
  }

  // ---- delivering -------------------------------------------------------------------------

  /** One pass over the deliveries that are due (retries, redeliveries, abandoned attempts). */
  runDue(): Promise<number> {
    this.polling ??= this.duePass().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async duePass(): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.queries.due(now.toISOString(), 500);
    let started = 0;
    const checked = new Set<string>();
    for (const { delivery_id: deliveryId, url } of due) {
      if (this.sending.has(deliveryId)) continue;
      if (!checked.has(url)) {
        checked.add(url);
        await this.refreshTimeouts(url, now.getTime());
      }
      if (this.blockedUntil(url, now.getTime()) !== null) continue;
      if (await this.claim(deliveryId)) started++;
    }
    return started;
  }

  /**
   * Sends a delivery now if it is due (after an operator's redelivery) and resolves once the attempt's
   * outcome is recorded; false when there was nothing to send.
   */
  async sendIfDue(deliveryId: string): Promise<boolean> {
    if (this.sending.has(deliveryId)) return false;
    const finished = new Promise<void>((resolve) => this.onFinished(deliveryId, resolve));
    if (!(await this.claim(deliveryId))) {
      this.releaseWaiters(deliveryId);
      return false;
    }
    await finished;
    return true;
  }

  private onFinished(deliveryId: string, then: () => void): void {
    const list = this.finishWaiters.get(deliveryId) ?? [];
    list.push(then);
    this.finishWaiters.set(deliveryId, list);
  }

  private releaseWaiters(deliveryId: string): void {
    const list = this.finishWaiters.get(deliveryId);
    this.finishWaiters.delete(deliveryId);
    for (const resolve of list ?? []) resolve();
  }

  private async claim(deliveryId: string): Promise<boolean> {
    const now = this.deps.clock.now().toISOString();
    try {
      const result = await handleCommand(this.deps.store, callbackStreamId(deliveryId), callbackDecider, {
        type: 'StartCallbackAttempt',
        data: { now, leaseMs: this.leaseMs, retryScheduleMs: this.deps.settings.retryScheduleMs },
      });
      if (result.state.exists && result.state.status === 'in_flight' && result.version !== null) {
        this.enqueue(deliveryId, { state: result.state, version: result.version });
        return true;
      }
      return false;
    } catch (error) {
      // Already delivered, not due after all, or claimed by another notifier: nothing to do here.
      if (error instanceof DomainError || error instanceof WrongExpectedVersionError) return false;
      throw error;
    }
  }

  private enqueue(deliveryId: string, known: KnownDelivery): void {
    this.sending.add(deliveryId);
    if (this.inFlight < this.deps.settings.maxInFlight) this.track(this.deliver(deliveryId, known));
    else this.queue.push({ deliveryId, known });
  }

  private async deliver(deliveryId: string, known: KnownDelivery): Promise<void> {
    this.inFlight++;
    try {
      const delivery = known.state as ExistingDelivery;
      // A database failure here is retried while the attempt's lease holds; after that, another
      // notifier (or this one's due pass) records the attempt as interrupted and sends again.
      const until = Date.now() + this.leaseMs;
      const lookup = await this.retrying('merchant lookup', () => this.merchant(delivery.merchantId), until);
      if (!lookup.ok) return;
      const merchant = lookup.value;
      const nowSeconds = Math.floor((this.deps.signingClock ?? this.deps.clock).now().getTime() / 1000);
      const response = merchant
        ? await this.deps.sender.send({
            url: delivery.url,
            contentType: delivery.contentType,
            body: delivery.body,
            headers: {
              'X-Signature': callbackSignatureHeader(merchant.password, delivery.body, nowSeconds),
              'X-Delivery-Id': deliveryId,
              'X-Delivery-Attempt': String(delivery.attempts),
            },
            timeoutMs: this.deps.settings.timeoutMs,
          })
        : { statusCode: null, latencyMs: 0, error: 'merchant no longer exists', timedOut: false };
      const finishedAt = this.deps.clock.now();
      if (response.timedOut) this.noteTimeout(delivery.url, finishedAt.getTime());
      // Never the URL or the body: either may hold what only the merchant should see.
      this.deps.logger.info('callback attempt', {
        deliveryId,
        paymentId: delivery.paymentId,
        attempt: delivery.attempts,
        statusCode: response.statusCode,
        ms: response.latencyMs,
        timedOut: response.timedOut,
        ...(response.error ? { error: response.error } : {}),
      });
      const command: CallbackCommand = {
        type: 'RecordCallbackResult',
        data: {
          attempt: delivery.attempts,
          statusCode: response.statusCode,
          latencyMs: response.latencyMs,
          error: response.error,
          timedOut: response.timedOut,
          now: finishedAt.toISOString(),
          retryScheduleMs: this.deps.settings.retryScheduleMs,
        },
      };
      let first = true;
      await this.retrying(
        'recording a callback attempt',
        async () => {
          let current: { state: DeliveryState; version: bigint | null } = known;
          if (!first) {
            // The failed try may have been recorded after all (a reply lost after the commit).
            current = await loadState(this.deps.store, callbackStreamId(deliveryId), callbackDecider);
            const s = current.state;
            if (!s.exists || s.status !== 'in_flight' || s.attempts !== delivery.attempts) return;
          }
          first = false;
          await handleCommand(this.deps.store, callbackStreamId(deliveryId), callbackDecider, command, {}, current);
        },
        until,
      );
    } catch (error) {
      this.reportError('delivery', error);
    } finally {
      this.inFlight--;
      this.sending.delete(deliveryId);
      this.releaseWaiters(deliveryId);
      const next = this.queue.shift();
      if (next) this.track(this.deliver(next.deliveryId, next.known));
    }
  }

  // ---- blocked URLs -----------------------------------------------------------------------

  private noteTimeout(url: string, at: number): void {
    const list = this.timeouts.get(url) ?? [];
    list.push(at);
    this.timeouts.set(url, this.recent(list, at));
  }

  private recent(list: number[], now: number): number[] {
    const horizon = now - this.deps.settings.blockPolicy.windowMs - this.deps.settings.blockPolicy.blockMs;
    return [...new Set(list.filter((t) => t >= horizon))];
  }

  /** Timeouts recorded by other notifiers (or before a restart) count too. */
  private async refreshTimeouts(url: string, now: number): Promise<void> {
    const { windowMs, blockMs } = this.deps.settings.blockPolicy;
    const since = new Date(now - windowMs - blockMs).toISOString();
    const recorded = (await this.deps.queries.timeoutsSince(url, since)).map((iso) => Date.parse(iso));
    const merged = this.recent([...(this.timeouts.get(url) ?? []), ...recorded], now);
    if (merged.length) this.timeouts.set(url, merged);
    else this.timeouts.delete(url);
  }

  private blockedUntil(url: string, now: number): number | null {
    const list = this.timeouts.get(url);
    return list ? blockedUntil(list, now, this.deps.settings.blockPolicy) : null;
  }

  /** URLs blocked right now, with the time each block ends (for operators). */
  blockedUrls(): Array<{ url: string; until: string }> {
    const now = this.deps.clock.now().getTime();
    const out: Array<{ url: string; until: string }> = [];
    for (const url of this.timeouts.keys()) {
      const until = this.blockedUntil(url, now);
      if (until !== null) out.push({ url, until: new Date(until).toISOString() });
    }
    return out;
  }
}
