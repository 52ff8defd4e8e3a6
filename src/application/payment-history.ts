/**
 * A payment's history for operators: every event of its stream in order, as recorded, and the state
 * folded up to a chosen point. Read straight from the event store (the source of truth), so it
 * does not depend on how far the read models have got. The CLI and the admin API print the same
 * JSON.
 */
import { paymentAsOf, type AsOf, type RecordedPaymentEvent } from '../domain/payment/history';
import { paymentStreamId, type PaymentEvent } from '../domain/payment/events';
import type { ExistingPayment } from '../domain/payment/state';
import { toDomainEvent } from './command-handler';
import type { EventStore } from './ports/event-store';
import { eventUpcasters } from '../domain/upcasting/event-upcasters';
import { UpcastingEventStore } from './upcasting';

export interface HistoryEvent {
  version: number;
  /** Global position, as text: it may exceed what a JSON number holds exactly. */
  position: string;
  type: string;
  schema_version: number;
  recorded_at: string;
  correlation_id: string | null;
  causation_id: string | null;
  data: Record<string, unknown>;
}

export interface PaymentHistory {
  payment_id: string;
  stream_id: string;
  /** Version of the stream's last event. */
  version: number;
  events: HistoryEvent[];
  /** The point the state is folded up to: null means the whole history. */
  as_of: {
    requested: string;
    /** Last event folded in; null when the point lies before the payment's first event. */
    version: number | null;
    recorded_at: string | null;
  } | null;
  /** The payment as `evolvePayment` folds it up to `as_of`; null before it was initiated. */
  state: ExistingPayment | null;
}

/** Null when the payment has no stream. */
export async function paymentHistory(store: EventStore, paymentId: string, asOf: AsOf | null = null): Promise<PaymentHistory | null> {
  const streamId = paymentStreamId(paymentId);
  // The listing shows each event exactly as stored (its own schema version and data), which is what
  // an auditor compares with the chain; the state is folded from the events in their current shape.
  const stored = await (store instanceof UpcastingEventStore ? store.raw : store).readStream(streamId);
  if (stored.length === 0) return null;
  const recorded: RecordedPaymentEvent[] = stored.map((e) => ({
    version: e.version,
    recordedAt: e.recordedAt,
    type: e.type,
    event: toDomainEvent<PaymentEvent>(eventUpcasters.upcast(e)),
  }));
  const point = paymentAsOf(recorded, asOf);
  const folded = stored.find((e) => e.version === point.version);
  return {
    payment_id: paymentId,
    stream_id: streamId,
    version: Number(stored[stored.length - 1].version),
    events: stored.map((e) => ({
      version: Number(e.version),
      position: e.position.toString(),
      type: e.type,
      schema_version: e.schemaVersion,
      recorded_at: e.recordedAt,
      correlation_id: typeof e.metadata.correlationId === 'string' ? e.metadata.correlationId : null,
      causation_id: typeof e.metadata.causationId === 'string' ? e.metadata.causationId : null,
      data: e.data,
    })),
    as_of: asOf && {
      requested: asOf.kind === 'version' ? asOf.version.toString() : asOf.at,
      version: point.version === null ? null : Number(point.version),
      recorded_at: folded?.recordedAt ?? null,
    },
    state: point.state.exists ? point.state : null,
  };
}
