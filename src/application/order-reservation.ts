/**
 * Reserving a merchant's order id, for whatever takes one: a SALE (or payout) names its payment,
 * a Checkout session names itself. The reservation is written with what it reserves for, expecting
 * no stream, so exactly one request wins; a request that loses meets the winner's reservation,
 * which says whether it is a repeat (within the duplicate window, of the same kind of owner) or a
 * duplicate.
 */
import { ORDER_EVENT_SCHEMA_VERSION, judgeRepeat, orderStreamId, type OrderIdReserved } from '../domain/order/order-reservation';
import { toNewEvent } from './command-handler';
import { NO_STREAM, WrongExpectedVersionError, type EventMetadata, type EventStore, type StreamWrite } from './ports/event-store';

export interface OrderOwner {
  merchantId: string;
  orderId: string;
  /** The payment that owns the order id; a Checkout session's own id for a session. */
  paymentId: string;
  /** Set for a Checkout session, whose attempts all share its order id. */
  sessionId?: string;
}

/** The write that reserves the order id: put first in the owner's append, so nothing else is recorded without it. */
export function orderReservation(owner: OrderOwner, reservedAt: string, metadata: EventMetadata): StreamWrite {
  const { merchantId, orderId, paymentId, sessionId } = owner;
  const reservation: OrderIdReserved = {
    type: 'OrderIdReserved',
    data: { merchantId, orderId, paymentId, ...(sessionId ? { sessionId } : {}), reservedAt },
  };
  return {
    streamId: orderStreamId(owner.merchantId, owner.orderId),
    events: [toNewEvent(reservation, ORDER_EVENT_SCHEMA_VERSION, metadata)],
    expected: NO_STREAM,
  };
}

/** Whether an append failed because the order id was reserved already (and not for another reason). */
export function orderTaken(error: unknown, reservation: StreamWrite): boolean {
  return error instanceof WrongExpectedVersionError && error.streamId === reservation.streamId;
}

/** What a request meets on an order id reserved already: the owner it repeats (a payment's id, or a session's), or a duplicate. */
export type OrderRepeat = { kind: 'replay'; owner: string } | { kind: 'duplicate' };

/**
 * A repeat of a reserved order id: a replay of its owner within the duplicate window, when the
 * owner is of the kind asked for (an order number of a Checkout session is never a SALE's to
 * replay, nor a SALE's a session's); a duplicate otherwise.
 */
export async function repeatOf(
  store: EventStore,
  order: { merchantId: string; orderId: string },
  ownedBy: 'payment' | 'session',
  now: Date,
): Promise<OrderRepeat> {
  const events = await store.readStream(orderStreamId(order.merchantId, order.orderId));
  const reserved = events.find((e) => e.type === 'OrderIdReserved')?.data as OrderIdReserved['data'] | undefined;
  const owner = ownedBy === 'session' ? reserved?.sessionId : reserved?.sessionId ? undefined : reserved?.paymentId;
  if (!reserved || !owner || judgeRepeat(reserved, now).kind === 'duplicate') return { kind: 'duplicate' };
  return { kind: 'replay', owner };
}

/** Whether the order id is reserved at all, asked before work that must not be done twice for one order. */
export async function orderReserved(store: EventStore, order: { merchantId: string; orderId: string }): Promise<boolean> {
  return (await store.streamVersion(orderStreamId(order.merchantId, order.orderId))) !== null;
}
