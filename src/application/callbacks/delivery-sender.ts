/**
 * Sends claimed deliveries and records their outcomes. Every attempt is claimed by appending
 * `CallbackAttemptStarted` at the version read, so two notifiers never send the same attempt; the
 * outcome is recorded afterwards. Retries come from the deliveries read model (what is due now),
 * but whether an attempt may start is decided on the delivery's own stream. A notifier that dies
 * mid-attempt leaves a claim whose lease runs out; the next one records the attempt as interrupted
 * and sends again under the same delivery id.
 */
import type { RecordCallbackResult } from '../../domain/callback-delivery/commands';
import { callbackDecider } from '../../domain/callback-delivery/decider';
import { callbackStreamId } from '../../domain/callback-delivery/events';
import type { DeliveryState, ExistingDelivery } from '../../domain/callback-delivery/state';
import { callbackSignatureHeader } from '../../domain/callback/callback-encoding';
import { DomainError } from '../../domain/errors';
import { handleCommand, loadState } from '../command-handler';
import type { MerchantAccount } from '../merchant-service';
import type { CallbackResponse } from '../ports/callback-sender';
import { WrongExpectedVersionError } from '../ports/event-store';
import type { Claimed, KnownDelivery } from './claimed-delivery';
import type { MerchantCache } from './merchant-cache';
import type { NotifierDeps } from './notifier-deps';
import type { NotifierRuntime } from './notifier-runtime';
import type { UrlTimeouts } from './url-timeouts';

export interface DeliverySenderParts {
  runtime: NotifierRuntime;
  merchants: MerchantCache;
  timeouts: UrlTimeouts;
  leaseMs: number;
}

export class DeliverySender {
  /** Deliveries this notifier is sending right now, and those waiting for a free slot. */
  private readonly sending = new Set<string>();
  private readonly queue: Claimed[] = [];
  private inFlight = 0;
  private polling: Promise<number> | null = null;
  private readonly finishWaiters = new Map<string, Array<() => void>>();

  constructor(
    private readonly deps: NotifierDeps,
    private readonly parts: DeliverySenderParts,
  ) {}

  /** Sends waiting for a free slot. */
  get queued(): number {
    return this.queue.length;
  }

  /** One pass over the deliveries that are due (retries, redeliveries, abandoned attempts). */
  runDue(): Promise<number> {
    this.polling ??= this.duePass().finally(() => {
      this.polling = null;
    });
    return this.polling;
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

  /** Runs `then` once the delivery's current attempt has its outcome recorded (or is given up). */
  onFinished(deliveryId: string, then: () => void): void {
    const list = this.finishWaiters.get(deliveryId) ?? [];
    list.push(then);
    this.finishWaiters.set(deliveryId, list);
  }

  enqueue(deliveryId: string, known: KnownDelivery): void {
    this.sending.add(deliveryId);
    if (this.inFlight < this.deps.settings.maxInFlight) this.parts.runtime.track(this.deliver(deliveryId, known));
    else this.queue.push({ deliveryId, known });
  }

  /**
   * Queued sends give up (their claims' leases run out and they are sent again later); whoever
   * waits for them, a payment's next callback or an operator's redelivery, is let go.
   */
  dropQueued(): void {
    for (const { deliveryId } of this.queue.splice(0)) {
      this.sending.delete(deliveryId);
      this.releaseWaiters(deliveryId);
    }
  }

  private releaseWaiters(deliveryId: string): void {
    const list = this.finishWaiters.get(deliveryId);
    this.finishWaiters.delete(deliveryId);
    for (const resolve of list ?? []) resolve();
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
        await this.parts.timeouts.refresh(url, now.getTime());
      }
      if (this.parts.timeouts.blockedUntil(url, now.getTime()) !== null) continue;
      if (await this.claim(deliveryId)) started++;
    }
    return started;
  }

  private async claim(deliveryId: string): Promise<boolean> {
    const now = this.deps.clock.now().toISOString();
    try {
      const result = await handleCommand(this.deps.store, callbackStreamId(deliveryId), callbackDecider, {
        type: 'StartCallbackAttempt',
        data: { now, leaseMs: this.parts.leaseMs, retryScheduleMs: this.deps.settings.retryScheduleMs },
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

  private async deliver(deliveryId: string, known: KnownDelivery): Promise<void> {
    this.inFlight++;
    try {
      const delivery = known.state as ExistingDelivery;
      // A database failure here is retried while the attempt's lease holds; after that, another
      // notifier (or this one's due pass) records the attempt as interrupted and sends again.
      const until = Date.now() + this.parts.leaseMs;
      const lookup = await this.parts.runtime.retrying('merchant lookup', () => this.parts.merchants.accountOf(delivery.merchantId), until);
      if (!lookup.ok) return;
      const response = await this.post(deliveryId, delivery, lookup.value);
      const finishedAt = this.deps.clock.now();
      if (response.timedOut) this.parts.timeouts.note(delivery.url, { deliveryId, attempt: delivery.attempts }, finishedAt.getTime());
      this.logAttempt(deliveryId, delivery, response);
      await this.record(deliveryId, known, this.resultOf(delivery, response, finishedAt), until);
    } catch (error) {
      this.parts.runtime.reportError('delivery', error);
    } finally {
      this.inFlight--;
      this.sending.delete(deliveryId);
      this.releaseWaiters(deliveryId);
      const next = this.queue.shift();
      if (next) this.parts.runtime.track(this.deliver(next.deliveryId, next.known));
    }
  }

  private post(deliveryId: string, delivery: ExistingDelivery, merchant: MerchantAccount | undefined): Promise<CallbackResponse> {
    const nowSeconds = Math.floor((this.deps.signingClock ?? this.deps.clock).now().getTime() / 1000);
    if (!merchant) return Promise.resolve({ statusCode: null, latencyMs: 0, error: 'merchant no longer exists', timedOut: false });
    return this.deps.sender.send({
      url: delivery.url,
      contentType: delivery.contentType,
      body: delivery.body,
      headers: {
        'X-Signature': callbackSignatureHeader(merchant.password, delivery.body, nowSeconds),
        'X-Delivery-Id': deliveryId,
        'X-Delivery-Attempt': String(delivery.attempts),
      },
      timeoutMs: this.deps.settings.timeoutMs,
    });
  }

  private logAttempt(deliveryId: string, delivery: ExistingDelivery, response: CallbackResponse): void {
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
  }

  private resultOf(delivery: ExistingDelivery, response: CallbackResponse, finishedAt: Date): RecordCallbackResult {
    return {
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
  }

  /** Records the attempt's outcome, retried while its lease holds. */
  private async record(deliveryId: string, known: KnownDelivery, command: RecordCallbackResult, until: number): Promise<void> {
    let first = true;
    await this.parts.runtime.retrying(
      'recording a callback attempt',
      async () => {
        let current: { state: DeliveryState; version: bigint | null } = known;
        if (!first) {
          // The failed try may have been recorded after all (a reply lost after the commit).
          current = await loadState(this.deps.store, callbackStreamId(deliveryId), callbackDecider);
          const s = current.state;
          if (!s.exists || s.status !== 'in_flight' || s.attempts !== command.data.attempt) return;
        }
        first = false;
        await handleCommand(this.deps.store, callbackStreamId(deliveryId), callbackDecider, command, {}, current);
      },
      until,
    );
  }
}
