/**
 * A SALE (S2S CARD, Checkout credit and the chains' charges go through here too): the order id is
 * reserved on its own stream expecting none, with the payment. A repeat of the order id within
 * the duplicate window gets the original payment's outcome; a later one is a duplicate.
 */
import { newId } from '../../new-id';
import { DUPLICATE_WINDOW_MS, ORDER_EVENT_SCHEMA_VERSION, judgeRepeat, orderStreamId, type OrderIdReserved } from '../../../domain/order/order-reservation';
import type { ExistingPayment } from '../../../domain/payment/state';
import { toNewEvent } from '../../command-handler';
import { NO_STREAM, WrongExpectedVersionError, type EventMetadata } from '../../ports/event-store';
import type { PaymentDeps } from '../deps';
import { DuplicatePaymentError } from '../errors';
import { paymentStream } from '../payment-stream';
import { startPayment } from '../start-payment/handler';
import type { InternalSale, SaleRequest, SaleResult } from '../types';

export async function sale(deps: PaymentDeps, request: InternalSale): Promise<SaleResult> {
  const paymentId = newId();
  const metadata: EventMetadata = { correlationId: request.correlationId, causationId: request.correlationId };
  const reservation: OrderIdReserved = {
    type: 'OrderIdReserved',
    data: { merchantId: request.merchantId, orderId: request.orderId, paymentId, reservedAt: deps.clock.now().toISOString() },
  };
  const orderStream = orderStreamId(request.merchantId, request.orderId);
  try {
    const claim = { streamId: orderStream, events: [toNewEvent(reservation, ORDER_EVENT_SCHEMA_VERSION, metadata)], expected: NO_STREAM };
    const payment = await startPayment(deps, request, paymentId, claim, request.channel ?? 's2s_card');
    return { payment, replayed: false };
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError) || error.streamId !== orderStream) throw error;
    return { payment: await replayOrReject(deps, request), replayed: true };
  }
}

/**
 * A SALE whose order id is reserved already: the original payment's outcome within the duplicate
 * window, else DuplicatePaymentError; null while the order id is free. Asked before work that must
 * not be done twice for one order (a wallet token is opened once: a repeat answers from the original).
 */
export async function repeatedOrder(deps: PaymentDeps, request: Pick<SaleRequest, 'merchantId' | 'orderId'>): Promise<ExistingPayment | null> {
  if ((await deps.store.streamVersion(orderStreamId(request.merchantId, request.orderId))) === null) return null;
  return replayOrReject(deps, request);
}

async function replayOrReject(deps: PaymentDeps, request: Pick<SaleRequest, 'merchantId' | 'orderId'>): Promise<ExistingPayment> {
  const { store, clock } = deps;
  const events = await store.readStream(orderStreamId(request.merchantId, request.orderId));
  const reserved = events.find((e) => e.type === 'OrderIdReserved');
  // An order number of a Checkout session is never a SALE's to replay.
  if (!reserved || (reserved.data as OrderIdReserved['data']).sessionId) throw new DuplicatePaymentError();
  const verdict = judgeRepeat(reserved.data as OrderIdReserved['data'], clock.now());
  if (verdict.kind === 'duplicate') throw new DuplicatePaymentError();
  // The original request may still be talking to the connector: wait for its outcome.
  const deadline = Date.now() + (deps.replayWaitMs ?? DUPLICATE_WINDOW_MS);
  const stream = paymentStream(store);
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    const { state } = await stream.load(verdict.paymentId);
    if (state.exists && state.phase !== 'initiated') return state;
    if (Date.now() > deadline) {
      if (state.exists) return state;
      throw new DuplicatePaymentError();
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
