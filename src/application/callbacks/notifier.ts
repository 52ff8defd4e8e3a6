/**
 * The notifier turns payment state changes into merchant callbacks and delivers them.
 *
 * Scheduling: it follows the global event log from a stored checkpoint. For each payment event that
 * a merchant must hear about, it records a delivery (`CallbackScheduled`, with the exact body) in a
 * stream whose id is derived from the payment event, together with the claim on the first attempt.
 * Any number of notifiers may follow the log: the stream can be created once, so exactly one of
 * them schedules and sends each callback; the others see the stream exists and move on.
 *
 * Delivering: every attempt is claimed by appending `CallbackAttemptStarted` at the version read, so
 * two notifiers never send the same attempt; the outcome is recorded afterwards. Retries come from the
 * deliveries read model (what is due now), but whether an attempt may start is decided on the
 * delivery's own stream. A notifier that dies mid-attempt leaves a claim whose lease runs out; the
 * next one records the attempt as interrupted and sends again under the same delivery id.
 */
import type { CallbackQueries } from '../../../projections/callback-queries';
import type { CallbackCommand } from '../../domain/callback-delivery/commands';
import { callbackStreamId } from '../../domain/callback-delivery/events';
import type { DeliveryState, ExistingDelivery } from '../../domain/callback-delivery/state';
import { blockedUntil, type UrlBlockPolicy } from '../../domain/callback-delivery/url-block';
import { callbackFieldsFor, type CallbackContext } from '../../domain/callback/callback-content';
import { callbackSignatureHeader, encodeCallbackBody } from '../../domain/callback/callback-encoding';
import { DomainError } from '../../domain/errors';
import { PAYMENT_EVENT_TYPES, paymentStreamId, type PaymentEvent } from '../../domain/payment/events';
import { evolvePayment, initialPaymentState, type PaymentState } from '../../domain/payment/state';
import { handleCommand, toDomainEvent } from '../command-handler';
import type { MerchantAccount } from '../merchant-service';
import type { CallbackSender } from '../ports/callback-sender';
import type { Clock } from '../ports/clock';
import { WrongExpectedVersionError, type EventStore, type StoredEvent, type Subscription } from '../ports/event-store';
import type { Logger } from '../ports/logger';
import { callbackDecider } from './callback-decider';
import { deliveryIdFor } from './delivery-id';

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

export interface NotifierCheckpoint {
  load(): Promise<bigint | null>;
  save(position: bigint): Promise<void>;
}

export interface NotifierDeps {
  store: EventStore;
  merchants: { accountById(merchantId: string): Promise<MerchantAccount | undefined> };
  queries: CallbackQueries;
  checkpoint: NotifierCheckpoint;
  sender: CallbackSender;
  clock: Clock;
  logger: Logger;
  settings: NotifierSettings;
}

const PAYMENT_TYPES: ReadonlySet<string> = new Set(PAYMENT_EVENT_TYPES);
const PAYMENT_CACHE_LIMIT = 20_000;
/** A claimed attempt outlives the HTTP timeout by this much before another notifier may take over. */
const LEASE_GRACE_MS = 30_000;
const MERCHANT_CACHE_MS = 1_000;

interface Pending {
  position: bigint;
  done: boolean;
}

export class Notifier {
  private subscription: Subscription | null = null;
  private running = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private checkpointTimer: NodeJS.Timeout | null = null;

  /** Payment states folded from the log as it passes, so scheduling rarely reads a stream. */
  private readonly payments = new Map<string, { state: PaymentState; version: bigint }>();
  /** Scheduling appends in progress, in log order; the checkpoint advances over finished ones only. */
  private readonly pending: Pending[] = [];
  private lastSeen: bigint | null = null;
  private savedCheckpoint: bigint | null = null;
  private readonly work = new Set<Promise<unknown>>();

  /** Deliveries this notifier is sending right now, and those waiting for a free slot. */
  private readonly sending = new Set<string>();
  private readonly queue: Array<{ deliveryId: string; known: { state: DeliveryState; version: bigint } }> = [];
  private inFlight = 0;
  /** Times (ms) of timed-out attempts per URL, this process's and those read from the read model. */
  private readonly timeouts = new Map<string, number[]>();
  private polling: Promise<number> | null = null;
  private readonly finishWaiters = new Map<string, Array<() => void>>();
  private readonly merchantCache = new Map<string, { account: MerchantAccount | undefined; at: number }>();
  private readonly leaseMs: number;

  constructor(private readonly deps: NotifierDeps) {
    this.leaseMs = deps.settings.timeoutMs + LEASE_GRACE_MS;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const after = await this.deps.checkpoint.load();
    this.lastSeen = after;
    this.savedCheckpoint = after;
    this.subscription = this.deps.store.subscribeToAll({
      after,
      onEvent: (event) => this.onEvent(event),
      onError: (error) => this.deps.logger.error('notifier subscription failed', { error: String(error) }),
    });
    this.pollTimer = setInterval(() => void this.runDue().catch((error) => this.reportError('due pass', error)), this.deps.settings.pollMs);
    this.pollTimer.unref();
    this.checkpointTimer = setInterval(() => void this.saveCheckpoint().catch((error) => this.reportError('checkpoint', error)), 250);
    this.checkpointTimer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    const subscription = this.subscription;
    this.subscription = null;
    if (subscription) await subscription.stop();
    this.queue.length = 0;
    await this.idle();
    await this.saveCheckpoint();
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

  // ---- scheduling -------------------------------------------------------------------------

  private async onEvent(stored: StoredEvent): Promise<void> {
    this.lastSeen = stored.position;
    if (!PAYMENT_TYPES.has(stored.type)) return;
    const event = toDomainEvent<PaymentEvent>(stored);
    const after = await this.foldPayment(stored, event);
    if (!after.exists) return;
    const entry: Pending = { position: stored.position, done: false };
    this.pending.push(entry);
    const scheduling = this.track(
      this.schedule(stored, event, after)
        .catch((error) => this.reportError('scheduling', error))
        .finally(() => {
          entry.done = true;
        }),
    );
    // Back-pressure: the log must not run away from the appends it causes.
    if (this.work.size > 2_000) await scheduling;
  }

  private async foldPayment(stored: StoredEvent, event: PaymentEvent): Promise<PaymentState> {
    const paymentId = String(stored.data.paymentId);
    const cached = this.payments.get(paymentId);
    let state: PaymentState;
    if (cached && cached.version === stored.version - 1n) {
      state = evolvePayment(cached.state, event);
    } else {
      // Started mid-stream (from a checkpoint) or evicted: fold the stream up to this event.
      const events = await this.deps.store.readStream(paymentStreamId(paymentId));
      state = initialPaymentState();
      for (const e of events) {
        if (e.version > stored.version) break;
        state = evolvePayment(state, toDomainEvent<PaymentEvent>(e));
      }
    }
    this.payments.delete(paymentId);
    if (this.payments.size >= PAYMENT_CACHE_LIMIT) this.payments.delete(this.payments.keys().next().value!);
    this.payments.set(paymentId, { state, version: stored.version });
    return state;
  }

  private async schedule(stored: StoredEvent, event: PaymentEvent, after: Extract<PaymentState, { exists: true }>): Promise<void> {
    const merchant = await this.merchant(after.merchantId);
    if (!merchant) return;
    const url = after.notificationUrl ?? merchant.notificationUrl;
    if (!url) return;
    const context: CallbackContext = { password: merchant.password, protocolMapping: merchant.protocolMapping };
    const fields = callbackFieldsFor(event, after, context);
    if (!fields) return;
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
        { correlationId: stored.metadata.correlationId, causationId: stored.id },
        { state: callbackDecider.initialState(), version: null },
      );
    } catch (error) {
      // Another notifier created the delivery first: it is theirs to send.
      if (error instanceof WrongExpectedVersionError) return;
      throw error;
    }
    if (result.newEvents.some((e) => e.type === 'CallbackAttemptStarted') && result.version !== null) {
      this.enqueue(deliveryId, { state: result.state, version: result.version });
    }
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

  private async saveCheckpoint(): Promise<void> {
    let upTo: bigint | null = null;
    while (this.pending.length > 0 && this.pending[0].done) upTo = this.pending.shift()!.position;
    // With nothing in progress, everything seen so far is accounted for.
    if (this.pending.length === 0 && this.lastSeen !== null) upTo = this.lastSeen;
    else if (this.pending.length > 0) upTo = this.pending[0].position - 1n;
    if (upTo === null || (this.savedCheckpoint !== null && upTo <= this.savedCheckpoint)) return;
    await this.deps.checkpoint.save(upTo);
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
    const finished = new Promise<void>((resolve) => {
      const list = this.finishWaiters.get(deliveryId) ?? [];
      list.push(resolve);
      this.finishWaiters.set(deliveryId, list);
    });
    if (!(await this.claim(deliveryId))) {
      this.releaseWaiters(deliveryId);
      return false;
    }
    await finished;
    return true;
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

  private enqueue(deliveryId: string, known: { state: DeliveryState; version: bigint }): void {
    this.sending.add(deliveryId);
    if (this.inFlight < this.deps.settings.maxInFlight) this.track(this.deliver(deliveryId, known));
    else this.queue.push({ deliveryId, known });
  }

  private async deliver(deliveryId: string, known: { state: DeliveryState; version: bigint }): Promise<void> {
    this.inFlight++;
    try {
      const delivery = known.state as ExistingDelivery;
      const merchant = await this.merchant(delivery.merchantId);
      const nowSeconds = Math.floor(this.deps.clock.now().getTime() / 1000);
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
      await handleCommand(
        this.deps.store,
        callbackStreamId(deliveryId),
        callbackDecider,
        {
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
        },
        {},
        known,
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
