/**
 * A payment as it stood at some point of its history: after a given stream version, or as of a
 * moment. The state is folded with `evolvePayment`, the one definition of what events mean.
 */
import { PAYMENT_EVENT_TYPES, type PaymentEvent } from './events';
import { evolvePayment, initialPaymentState, type PaymentState } from './state';

/** Up to and including a stream version, or every event recorded at or before an instant. */
export type AsOf = { kind: 'version'; version: bigint } | { kind: 'time'; at: string; epochMs: number };

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * `3` is a version; an ISO-8601 date, or date and time with a zone (`Z` or an offset), is a moment.
 * Null for anything else: a time without a zone would mean whatever the reader's zone is.
 */
export function parseAsOf(text: string): AsOf | null {
  const value = text.trim();
  if (/^\d{1,18}$/.test(value)) return { kind: 'version', version: BigInt(value) };
  if (!ISO_TIMESTAMP.test(value)) return null;
  const epochMs = Date.parse(value);
  if (Number.isNaN(epochMs)) return null;
  return { kind: 'time', at: value, epochMs };
}

export interface RecordedPaymentEvent {
  version: bigint;
  /** When the store recorded the event (ISO-8601). */
  recordedAt: string;
  type: string;
  /** The event as the domain reads it; null for a type the payment fold does not know. */
  event: PaymentEvent | null;
}

export interface PointInHistory {
  state: PaymentState;
  /** Version of the last event folded in; null when none was. */
  version: bigint | null;
}

const KNOWN: ReadonlySet<string> = new Set(PAYMENT_EVENT_TYPES);

export const isFoldable = (type: string): boolean => KNOWN.has(type);

/** Folds the events in version order up to `asOf` (all of them without one). */
export function paymentAsOf(events: readonly RecordedPaymentEvent[], asOf: AsOf | null): PointInHistory {
  let state = initialPaymentState();
  let version: bigint | null = null;
  for (const recorded of events) {
    if (asOf?.kind === 'version' && recorded.version > asOf.version) break;
    if (asOf?.kind === 'time' && Date.parse(recorded.recordedAt) > asOf.epochMs) break;
    version = recorded.version;
    // Types the payment fold does not know (added by other features) pass by without changing it.
    if (recorded.event && isFoldable(recorded.event.type)) state = evolvePayment(state, recorded.event);
  }
  return { state, version };
}
