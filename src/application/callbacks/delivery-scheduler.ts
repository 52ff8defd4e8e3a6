/**
 * Records the delivery a payment event calls for (`CallbackScheduled`, with the exact body) in a
 * stream whose id is derived from the payment event, together with the claim on the first attempt.
 * The stream can be created once, so of all the notifiers following the log exactly one schedules
 * and sends each callback; the others see the stream exists and move on.
 */
import type { ScheduleCallback } from '../../domain/callback-delivery/commands';
import { callbackDecider } from '../../domain/callback-delivery/decider';
import { callbackStreamId } from '../../domain/callback-delivery/events';
import { callbackFieldsFor } from '../../domain/callback/callback-content';
import { encodeCallbackBody } from '../../domain/callback/callback-encoding';
import type { PaymentEvent } from '../../domain/payment/events';
import type { ExistingPayment } from '../../domain/payment/state';
import { handleCommand, loadState } from '../command-handler';
import type { Clock } from '../ports/clock';
import { WrongExpectedVersionError, type EventStore, type StoredEvent } from '../ports/event-store';
import type { Claimed } from './claimed-delivery';
import { deliveryIdFor } from './delivery-id';
import type { MerchantCache } from './merchant-cache';
import { CALLBACK_CONTENT_TYPE } from './notifier-deps';
import type { UrlTimeouts } from './url-timeouts';

export interface DeliverySchedulerDeps {
  store: EventStore;
  clock: Clock;
  merchants: MerchantCache;
  timeouts: UrlTimeouts;
  leaseMs: number;
  /** Marks the claims this notifier appends, so it knows its own after a lost reply. */
  instanceId: string;
}

export class DeliveryScheduler {
  constructor(private readonly deps: DeliverySchedulerDeps) {}

  /**
   * Records the callback this payment event calls for, if any; returns the delivery when its first
   * attempt was claimed with it (the URL is not blocked), for the caller to send in the payment's turn.
   */
  async schedule(stored: StoredEvent, event: PaymentEvent, after: ExistingPayment): Promise<Claimed | null> {
    const command = await this.commandFor(stored, event, after);
    if (!command) return null;
    const { deliveryId } = command.data;
    let result;
    try {
      // The id is new unless another notifier (or an earlier run) got here first: expect no stream
      // without reading it; a conflict re-reads and then decides there is nothing to do.
      result = await handleCommand(
        this.deps.store,
        callbackStreamId(deliveryId),
        callbackDecider,
        command,
        { correlationId: stored.metadata.correlationId, causationId: stored.id, notifier: this.deps.instanceId },
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

  /** The scheduling of the event's callback; null when the merchant is not to be called about it. */
  private async commandFor(stored: StoredEvent, event: PaymentEvent, after: ExistingPayment): Promise<ScheduleCallback | null> {
    const merchant = await this.deps.merchants.accountOf(after.merchantId);
    if (!merchant) return null;
    const url = after.notificationUrl ?? merchant.notificationUrl;
    if (!url) return null;
    const fields = callbackFieldsFor(event, after, { password: merchant.password, protocolMapping: merchant.protocolMapping });
    if (!fields) return null;
    const now = this.deps.clock.now();
    return {
      type: 'ScheduleCallback',
      data: {
        deliveryId: deliveryIdFor(stored.id),
        paymentId: after.paymentId,
        merchantId: after.merchantId,
        sourceEventId: stored.id,
        sourceEventType: stored.type,
        url,
        contentType: CALLBACK_CONTENT_TYPE,
        body: encodeCallbackBody(fields),
        now: now.toISOString(),
        startNow: this.deps.timeouts.blockedUntil(url, now.getTime()) === null,
        leaseMs: this.deps.leaseMs,
      },
    };
  }

  /**
   * The delivery exists already. When its first attempt was claimed by this notifier (the append
   * committed but its reply was lost), it is still this notifier's to send, in the payment's turn:
   * left to the due pass, it would reach the merchant after the payment's later callbacks.
   */
  private async ownFirstClaim(deliveryId: string): Promise<Claimed | null> {
    const events = await this.deps.store.readStream(callbackStreamId(deliveryId));
    const claims = events.filter((e) => e.type === 'CallbackAttemptStarted');
    if (claims.length !== 1 || claims[0]!.metadata?.notifier !== this.deps.instanceId) return null;
    const { state, version } = await loadState(this.deps.store, callbackStreamId(deliveryId), callbackDecider);
    if (!state.exists || state.status !== 'in_flight' || state.attempts !== 1 || version === null) return null;
    return { deliveryId, known: { state, version } };
  }
}
