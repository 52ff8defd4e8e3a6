/** Payment states folded from the log as it passes, so scheduling rarely reads a stream. */
import { paymentStreamId, type PaymentEvent } from '../../domain/payment/events';
import { evolvePayment, initialPaymentState, type PaymentState } from '../../domain/payment/state';
import { toDomainEvent } from '../command-handler';
import type { EventStore, StoredEvent } from '../ports/event-store';

const PAYMENT_CACHE_LIMIT = 20_000;

export class PaymentFolds {
  private readonly payments = new Map<string, { state: PaymentState; version: bigint }>();

  constructor(private readonly store: EventStore) {}

  /**
   * The payment's state after this event from the cache fed by the log, without I/O; null when the
   * cache cannot tell (started mid-stream from a checkpoint, or evicted): then the stream is read.
   */
  cached(stored: StoredEvent, event: PaymentEvent): PaymentState | null {
    const paymentId = String(stored.data.paymentId);
    const cached = this.payments.get(paymentId);
    let state: PaymentState | null = null;
    if (stored.version === 0n) state = evolvePayment(initialPaymentState(), event);
    else if (cached && cached.version === stored.version - 1n) state = evolvePayment(cached.state, event);
    this.payments.delete(paymentId);
    if (state) this.remember(paymentId, state, stored.version);
    return state;
  }

  async fromStream(stored: StoredEvent): Promise<PaymentState> {
    const paymentId = String(stored.data.paymentId);
    const events = await this.store.readStream(paymentStreamId(paymentId));
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
}
