/**
 * An order id is a per-merchant uniqueness key. Each (merchant, order id) pair has its own stream
 * whose first event names the payment that owns it; appending it with "no stream expected" is what
 * makes exactly one payment win, across concurrent requests and across API processes.
 */
import { createHash } from 'node:crypto';

export const ORDER_EVENT_SCHEMA_VERSION = 1;

export interface OrderIdReserved {
  type: 'OrderIdReserved';
  /**
   * `paymentId` names the payment that owns the order id; for a Checkout session it is the session
   * id, and `sessionId` says so (the session's attempts share its order number).
   */
  data: { merchantId: string; orderId: string; paymentId: string; reservedAt: string; sessionId?: string };
}

/** The order id is hashed so any merchant string (any length, any characters) makes a valid stream id. */
export const orderStreamId = (merchantId: string, orderId: string): string =>
  `order-${merchantId}-${createHash('sha256').update(orderId, 'utf8').digest('hex')}`;

/** A repeat within this window returns the original outcome; later it is a duplicate payment. */
export const DUPLICATE_WINDOW_MS = 15_000;

export type RepeatVerdict = { kind: 'replay'; paymentId: string } | { kind: 'duplicate' };

export function judgeRepeat(reservation: OrderIdReserved['data'], now: Date): RepeatVerdict {
  const age = now.getTime() - Date.parse(reservation.reservedAt);
  return age <= DUPLICATE_WINDOW_MS ? { kind: 'replay', paymentId: reservation.paymentId } : { kind: 'duplicate' };
}
