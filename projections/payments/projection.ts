/**
 * One row per payment. The row is whatever `evolvePayment` says the payment is: the projection never
 * decides a status itself, it folds events into the stored `state` and flattens the result, so the
 * status lookup can never disagree with the command side.
 */
import type { Insertable, Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { brandOf, evolvePayment, initialPaymentState, type ExistingPayment, type PaymentState } from '../../src/domain/payment/state';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import { asPaymentEvent, isPaymentEvent, paymentsContinuedIn } from '../payment-events';
import type { PaymentsTable, PaymentsTables } from './tables';

type PaymentRowInsert = Insertable<PaymentsTable>;

const UPDATABLE_COLUMNS = [
  'merchant_id',
  'order_id',
  'channel',
  'kind',
  'status',
  'phase',
  'currency',
  'amount',
  'amount_text',
  'held_amount',
  'settled_amount',
  'refunded_amount',
  'reversed_amount',
  'descriptor',
  'decline_reason',
  'card_mask',
  'card_brand',
  'method',
  'card_exp_month',
  'card_exp_year',
  'card_token',
  'payer_email',
  'term_url_3ds',
  'notification_url',
  'redirect_url',
  'redirect_params',
  'initiated_at',
  'updated_at',
  'expires_at',
  'stream_version',
  'state',
] as const satisfies readonly (keyof PaymentsTable)[];

/**
 * Whose payment it is, its order and when it began come with PaymentInitiated and never change;
 * leaving them out of the update spares the indexes that hold them a rewrite at every later event.
 */
const IMMUTABLE_COLUMNS: ReadonlySet<string> = new Set(['merchant_id', 'order_id', 'initiated_at']);

// payment_id and initiated_position are only written on insert, and so are the immutable columns.
const UPSERT: UpsertSpec<PaymentsTables, 'payments'> = {
  table: 'payments',
  columns: ['payment_id', ...UPDATABLE_COLUMNS, 'initiated_position'],
  key: ['payment_id'],
  update: UPDATABLE_COLUMNS.filter((column) => !IMMUTABLE_COLUMNS.has(column)),
};

/** Every column a reader gets back (initiated_position only orders rows inside SQL). */
export const PAYMENT_COLUMNS = ['payment_id', ...UPDATABLE_COLUMNS] as const;

export function paymentRow(state: ExistingPayment, streamVersion: number, initiatedPosition: bigint): PaymentRowInsert {
  const action = state.payerAction;
  return {
    payment_id: state.paymentId,
    merchant_id: state.merchantId,
    order_id: state.orderId,
    channel: state.channel,
    kind: state.kind,
    status: state.status,
    phase: state.phase,
    currency: state.currency,
    amount: state.amount,
    amount_text: state.amountText,
    held_amount: state.heldAmount,
    settled_amount: state.settledAmount,
    refunded_amount: state.refundedAmount,
    reversed_amount: state.reversedAmount,
    descriptor: state.descriptor,
    decline_reason: state.declineReason,
    // A payment made with an alternative method has no card: its card columns are empty.
    card_mask: state.card?.mask ?? '',
    card_brand: state.card?.brand ?? '',
    method: brandOf(state),
    card_exp_month: state.card?.expMonth ?? '',
    card_exp_year: state.card?.expYear ?? '',
    card_token: state.card?.token ?? null,
    payer_email: state.payer.email ?? null,
    term_url_3ds: state.termUrl3ds,
    notification_url: state.notificationUrl,
    redirect_url: action ? action.url : null,
    redirect_params: action ? JSON.stringify(action.params) : null,
    initiated_at: state.initiatedAt,
    updated_at: state.updatedAt,
    expires_at: state.expiresAt ?? null,
    initiated_position: initiatedPosition,
    stream_version: streamVersion,
    state: JSON.stringify(state),
  };
}

interface Folding {
  state: PaymentState;
  streamVersion: number;
  /** Only known when PaymentInitiated is in this batch; an existing row keeps its own. */
  initiatedPosition: bigint;
  changed: boolean;
}

/** Folds the batch's payment events into the rows of the payments they belong to. */
export async function applyToPayments(trx: Transaction<PaymentsTables>, events: StoredEvent[]): Promise<void> {
  const relevant = events.filter(isPaymentEvent);
  if (relevant.length === 0) return;

  const toLoad = paymentsContinuedIn(relevant);
  const folding = new Map<string, Folding>();
  for (const part of chunked(toLoad, 5_000)) {
    const rows = await trx.selectFrom('payments').select(['payment_id', 'state', 'stream_version']).where('payment_id', 'in', part).execute();
    for (const row of rows) {
      folding.set(row.payment_id, {
        state: JSON.parse(row.state) as PaymentState,
        streamVersion: Number(row.stream_version),
        initiatedPosition: 0n,
        changed: false,
      });
    }
  }

  for (const event of relevant) {
    const id = String(event.data.paymentId);
    let entry = folding.get(id);
    if (!entry) {
      entry = { state: initialPaymentState(), streamVersion: -1, initiatedPosition: 0n, changed: false };
      folding.set(id, entry);
    }
    const before = entry.state;
    entry.state = evolvePayment(entry.state, asPaymentEvent(event));
    if (entry.state === before) continue; // a stray event the fold ignored
    if (event.type === 'PaymentInitiated') entry.initiatedPosition = event.position;
    entry.streamVersion = Number(event.version);
    entry.changed = true;
  }

  const rows: PaymentRowInsert[] = [];
  for (const entry of folding.values()) {
    if (entry.changed && entry.state.exists) rows.push(paymentRow(entry.state, entry.streamVersion, entry.initiatedPosition));
  }
  await upsertRows(trx, UPSERT, rows);
}
