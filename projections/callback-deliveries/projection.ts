/**
 * Callback deliveries as operators and notifiers query them: one row per delivery, folded with
 * `evolveDelivery` (the same fold the notifier decides on), and one row per attempt.
 */
import type { Insertable, Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { CALLBACK_EVENT_TYPES, type CallbackEvent } from '../../src/domain/callback-delivery/events';
import { evolveDelivery, initialDeliveryState, type DeliveryState, type ExistingDelivery } from '../../src/domain/callback-delivery/state';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import { DELIVERY_FACT_COLUMNS, type CallbackAttemptsTable, type CallbackDeliveriesTable, type CallbackDeliveriesTables } from './tables';

const TYPES: ReadonlySet<string> = new Set(CALLBACK_EVENT_TYPES);

const DELIVERY_COLUMNS = [...DELIVERY_FACT_COLUMNS, 'state'] as const;

/**
 * Whose delivery it is comes with CallbackScheduled and never changes; leaving those columns out
 * of the update spares their indexes (payment and merchant listings) a rewrite at every attempt.
 */
const IMMUTABLE_COLUMNS: ReadonlySet<string> = new Set(['payment_id', 'merchant_id']);

/** An attempt row learns its start and its end from different events, maybe in different batches. */
const ATTEMPT_FINISH_COLUMNS = ['finished_at', 'status_code', 'latency_ms', 'error', 'timed_out', 'outcome'] as const;

// delivery_id is the key; scheduled_position is only written on insert.
const DELIVERY_UPSERT: UpsertSpec<CallbackDeliveriesTables, 'callback_deliveries'> = {
  table: 'callback_deliveries',
  columns: ['delivery_id', ...DELIVERY_COLUMNS, 'scheduled_position'],
  key: ['delivery_id'],
  update: DELIVERY_COLUMNS.filter((column) => !IMMUTABLE_COLUMNS.has(column)),
};

const ATTEMPT_UPSERT: UpsertSpec<CallbackDeliveriesTables, 'callback_attempts'> = {
  table: 'callback_attempts',
  columns: ['delivery_id', 'attempt', 'url', 'started_at', ...ATTEMPT_FINISH_COLUMNS],
  key: ['delivery_id', 'attempt'],
  update: ATTEMPT_FINISH_COLUMNS,
};

function deliveryRow(state: ExistingDelivery, position: bigint): Insertable<CallbackDeliveriesTable> {
  return {
    delivery_id: state.deliveryId,
    payment_id: state.paymentId,
    merchant_id: state.merchantId,
    source_event_type: state.sourceEventType,
    url: state.url,
    status: state.status,
    attempts: state.attempts,
    next_attempt_at: state.nextAttemptAt,
    lease_until: state.leaseUntil,
    last_status_code: state.lastStatusCode,
    last_error: state.lastError,
    scheduled_at: state.scheduledAt,
    delivered_at: state.deliveredAt,
    updated_at: state.updatedAt,
    scheduled_position: position,
    state: JSON.stringify(state),
  };
}

/** Folds the batch's callback events into delivery rows and records each attempt. */
export async function applyToCallbackDeliveries(trx: Transaction<CallbackDeliveriesTables>, events: StoredEvent[]): Promise<void> {
  const relevant = events.filter((e) => TYPES.has(e.type));
  if (relevant.length === 0) return;

  const ids = [...new Set(relevant.map((e) => String(e.data.deliveryId)))];
  const states = new Map<string, DeliveryState>();
  const positions = new Map<string, bigint>();
  for (const part of chunked(ids, 5_000)) {
    const rows = await trx
      .selectFrom('callback_deliveries')
      .select(['delivery_id', 'state'])
      .where('delivery_id', 'in', part)
      .execute();
    for (const row of rows) states.set(row.delivery_id, JSON.parse(row.state) as ExistingDelivery);
  }

  const changed = new Set<string>();
  const attempts = new Map<string, Insertable<CallbackAttemptsTable>>();
  const attemptRow = (deliveryId: string, attempt: number, url: string) => {
    const key = `${deliveryId}#${attempt}`;
    let row = attempts.get(key);
    if (!row) {
      row = { delivery_id: deliveryId, attempt, url, started_at: null, finished_at: null, status_code: null, latency_ms: null, error: null, timed_out: 0, outcome: 'in_flight' };
      attempts.set(key, row);
    }
    return row;
  };

  for (const stored of relevant) {
    const event = { type: stored.type, data: stored.data } as unknown as CallbackEvent;
    const id = event.data.deliveryId;
    const before = states.get(id) ?? initialDeliveryState();
    const after = evolveDelivery(before, event);
    if (event.type === 'CallbackScheduled') positions.set(id, stored.position);
    if (after === before || !after.exists) continue;
    states.set(id, after);
    changed.add(id);
    switch (event.type) {
      case 'CallbackAttemptStarted':
        attemptRow(id, event.data.attempt, after.url).started_at = event.data.startedAt;
        break;
      case 'CallbackAttemptFailed':
        Object.assign(attemptRow(id, event.data.attempt, after.url), {
          finished_at: event.data.failedAt,
          status_code: event.data.statusCode,
          latency_ms: event.data.latencyMs === null ? null : Math.round(event.data.latencyMs),
          error: event.data.error,
          timed_out: event.data.timedOut ? 1 : 0,
          outcome: 'failure',
        });
        break;
      case 'CallbackDelivered':
        Object.assign(attemptRow(id, event.data.attempt, after.url), {
          finished_at: event.data.deliveredAt,
          status_code: event.data.statusCode,
          latency_ms: Math.round(event.data.latencyMs),
          error: null,
          timed_out: 0,
          outcome: 'success',
        });
        break;
      default:
        break;
    }
  }

  const rows: Insertable<CallbackDeliveriesTable>[] = [];
  for (const id of changed) {
    const state = states.get(id);
    // The scheduled position only matters on insert; an update keeps the stored one.
    if (state?.exists) rows.push(deliveryRow(state, positions.get(id) ?? 0n));
  }
  await upsertRows(trx, DELIVERY_UPSERT, rows);
  await upsertRows(trx, ATTEMPT_UPSERT, [...attempts.values()]);
}
