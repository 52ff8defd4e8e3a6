/**
 * A SALE (S2S CARD, Checkout credit and the chains' charges go through here too): the order id is
 * reserved on its own stream expecting none, with the payment. A repeat of the order id within
 * the duplicate window gets the original payment's outcome; a later one is a duplicate.
 */
import { newId } from '../../new-id';
import { DUPLICATE_WINDOW_MS } from '../../../domain/order/order-reservation';
import type { ExistingPayment } from '../../../domain/payment/state';
import { orderReservation, orderReserved, orderTaken, repeatOf } from '../../order-reservation';
import { exactly, WrongExpectedVersionError, type EventMetadata } from '../../ports/event-store';
import type { PaymentDeps } from '../deps';
import { DuplicatePaymentError } from '../errors';
import { paymentStream } from '../payment-stream';
import { startPayment } from '../start-payment/handler';
import type { InternalSale, SaleRequest, SaleResult } from '../types';

export async function sale(deps: PaymentDeps, request: InternalSale): Promise<SaleResult> {
  const paymentId = newId();
  const metadata: EventMetadata = { correlationId: request.correlationId, causationId: request.correlationId };
  const claim = orderReservation({ merchantId: request.merchantId, orderId: request.orderId, paymentId }, deps.clock.now().toISOString(), metadata);
  try {
    const payment = await startPayment(deps, request, paymentId, claim, request.channel ?? 's2s_card');
    return { payment, replayed: false };
  } catch (error) {
    if (!orderTaken(error, claim)) throw error;
    return { payment: await replayOrReject(deps, request), replayed: true };
  }
}

/**
 * A SALE whose order id is reserved already: the original payment's outcome within the duplicate
 * window, else DuplicatePaymentError; null while the order id is free. Asked before work that must
 * not be done twice for one order (a wallet token is opened once: a repeat answers from the original).
 *
 * A repeat writes nothing, so no write carries the merchant settings' version check
 * (`merchantSettingsAt`): it is read here instead, and a stale one refused the way the write would.
 */
export async function repeatedOrder(deps: PaymentDeps, request: Pick<SaleRequest, 'merchantId' | 'orderId' | 'merchantSettingsAt'>): Promise<ExistingPayment | null> {
  if (!(await orderReserved(deps.store, request))) return null;
  const settings = request.merchantSettingsAt;
  if (settings) {
    const actual = await deps.store.streamVersion(settings.streamId);
    if (actual !== settings.version) throw new WrongExpectedVersionError(settings.streamId, exactly(settings.version), actual);
  }
  return replayOrReject(deps, request);
}

async function replayOrReject(deps: PaymentDeps, request: Pick<SaleRequest, 'merchantId' | 'orderId'>): Promise<ExistingPayment> {
  const { store, clock } = deps;
  const verdict = await repeatOf(store, request, 'payment', clock.now());
  if (verdict.kind === 'duplicate') throw new DuplicatePaymentError();
  // The original request may still be talking to the connector: wait for its outcome.
  const deadline = Date.now() + (deps.replayWaitMs ?? DUPLICATE_WINDOW_MS);
  const stream = paymentStream(store);
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    const { state } = await stream.load(verdict.owner);
    if (state.exists && state.phase !== 'initiated') return state;
    if (Date.now() > deadline) {
      if (state.exists) return state;
      throw new DuplicatePaymentError();
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
