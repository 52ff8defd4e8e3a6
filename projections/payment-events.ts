/**
 * Payment events as the projections that follow payments (payments, transactions, ledger) pick
 * them out of a batch. Each of those keeps its own rows; only these helpers are shared.
 */
import type { StoredEvent } from '../src/application/ports/event-store';
import { PAYMENT_EVENT_TYPES, type PaymentEvent } from '../src/domain/payment/events';

const PAYMENT_TYPES: ReadonlySet<string> = new Set(PAYMENT_EVENT_TYPES);

export const isPaymentEvent = (event: StoredEvent): boolean => PAYMENT_TYPES.has(event.type);

/** The domain view of a stored payment event; only called once its type is known. */
export const asPaymentEvent = (event: StoredEvent): PaymentEvent =>
  ({ type: event.type, data: event.data }) as unknown as PaymentEvent;

/**
 * Payments of a batch whose stored rows a projection must load: those whose first event here is not
 * PaymentInitiated. A payment that starts in the batch starts from scratch, and at full load most
 * payments of a batch are new.
 */
export function paymentsContinuedIn(events: readonly StoredEvent[]): string[] {
  const firstType = new Map<string, string>();
  for (const e of events) if (!firstType.has(String(e.data.paymentId))) firstType.set(String(e.data.paymentId), e.type);
  return [...firstType].filter(([, type]) => type !== 'PaymentInitiated').map(([id]) => id);
}

/** The payment event of one type, as a projection's apply function for that type receives it. */
export type PaymentEventOf<T extends PaymentEvent['type']> = Extract<PaymentEvent, { type: T }>;
