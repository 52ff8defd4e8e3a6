/**
 * The ledger: every money movement of a payment, and every operator's top-up of a merchant's payout
 * balance, as a balanced posting set (one per event, keyed by the event id), per merchant and currency. What each event posts is decided by the pure rules in
 * src/domain/ledger/posting-rules.ts; this file only loads what they need to remember about each
 * payment (`ledger_payments`), runs them over the batch and writes the result.
 *
 * Like the transactions projection it keeps its own per-payment facts, so it never depends on how
 * far another projection has got.
 */
import type { Insertable, Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { type LedgerPayment, postEvent, postTopUp } from '../../src/domain/ledger/posting-rules';
import type { PaymentKind } from '../../src/domain/payment/events';
import type { PayoutBalanceToppedUp } from '../../src/domain/payouts/balance-events';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import { asPaymentEvent, isPaymentEvent, paymentsContinuedIn } from '../payment-events';
import type { LedgerDailyDecisionsTable, LedgerDailyTotalsTable, LedgerPaymentsTable, LedgerPostingsTable, LedgerTables } from './tables';

type PostingRow = Insertable<LedgerPostingsTable>;
type PaymentRow = Insertable<LedgerPaymentsTable>;
type TotalsRow = Insertable<LedgerDailyTotalsTable>;
type DecisionsRow = Insertable<LedgerDailyDecisionsTable>;

const PAYMENT_UPDATABLE_COLUMNS = ['outcome', 'decided_at', 'held_amount'] as const satisfies readonly (keyof LedgerPaymentsTable)[];

// merchant, currency, kind and initiated_at are the payment's for good: only written on insert.
const PAYMENT_UPSERT: UpsertSpec<LedgerTables, 'ledger_payments'> = {
  table: 'ledger_payments',
  columns: ['payment_id', 'merchant_id', 'currency', 'kind', 'initiated_at', ...PAYMENT_UPDATABLE_COLUMNS],
  key: ['payment_id'],
  update: PAYMENT_UPDATABLE_COLUMNS,
};

// A posting set is the event's: one already written stays as it is.
const POSTING_UPSERT: UpsertSpec<LedgerTables, 'ledger_postings'> = {
  table: 'ledger_postings',
  columns: [
    'posting_set_id',
    'line',
    'merchant_id',
    'currency',
    'account',
    'amount',
    'payment_id',
    'operation_id',
    'event_type',
    'event_position',
    'occurred_at',
  ],
  key: ['posting_set_id', 'line'],
  update: [],
};

// A day's totals grow by what each batch posts.
export const TOTALS_UPSERT: UpsertSpec<LedgerTables, 'ledger_daily_totals'> = {
  table: 'ledger_daily_totals',
  columns: ['merchant_id', 'currency', 'day', 'account', 'event_type', 'direction', 'line_count', 'amount'],
  key: ['merchant_id', 'currency', 'day', 'account', 'event_type', 'direction'],
  update: [],
  add: ['line_count', 'amount'],
};

export function ledgerPaymentOfRow(row: {
  payment_id: string;
  merchant_id: string;
  currency: string;
  kind: string;
  initiated_at: string;
  outcome: string;
  decided_at: string | null;
  held_amount: number | string;
}): LedgerPayment {
  return {
    paymentId: row.payment_id,
    merchantId: row.merchant_id,
    currency: row.currency,
    kind: row.kind as PaymentKind,
    initiatedAt: row.initiated_at,
    outcome: row.outcome as LedgerPayment['outcome'],
    decidedAt: row.decided_at,
    heldAmount: Number(row.held_amount),
  };
}

// A day's decisions grow by the payments each batch decides.
const DECISIONS_UPSERT: UpsertSpec<LedgerTables, 'ledger_daily_decisions'> = {
  table: 'ledger_daily_decisions',
  columns: ['merchant_id', 'currency', 'day', 'kind', 'outcome', 'payment_count'],
  key: ['merchant_id', 'currency', 'day', 'kind', 'outcome'],
  update: [],
  add: ['payment_count'],
};

function paymentRowOf(p: LedgerPayment): PaymentRow {
  return {
    payment_id: p.paymentId,
    merchant_id: p.merchantId,
    currency: p.currency,
    kind: p.kind,
    initiated_at: p.initiatedAt,
    outcome: p.outcome,
    decided_at: p.decidedAt,
    held_amount: p.heldAmount,
  };
}

const isTopUp = (event: StoredEvent): boolean => event.type === 'PayoutBalanceToppedUp';

/** Posts every money movement of the batch and remembers what the posting rules need per payment. */
export async function applyToLedger(trx: Transaction<LedgerTables>, events: StoredEvent[]): Promise<void> {
  const relevant = events.filter((event) => isPaymentEvent(event) || isTopUp(event));
  if (relevant.length === 0) return;

  const toLoad = paymentsContinuedIn(relevant.filter(isPaymentEvent));
  const payments = new Map<string, LedgerPayment>();
  for (const part of chunked(toLoad, 5_000)) {
    const rows = await trx.selectFrom('ledger_payments').selectAll().where('payment_id', 'in', part).execute();
    for (const row of rows) payments.set(row.payment_id, ledgerPaymentOfRow(row));
  }

  const changed = new Set<string>();
  const postings: PostingRow[] = [];
  const decisions: DecisionsRow[] = [];
  for (const stored of relevant) {
    if (isTopUp(stored)) {
      postings.push(...topUpPostings(stored));
      continue;
    }
    const event = asPaymentEvent(stored);
    const id = event.data.paymentId;
    const before = payments.get(id) ?? null;
    const { payment, lines, occurredAt } = postEvent(before, event);
    if (!payment) continue; // an event of a payment never initiated: nothing to post it against
    if (payment !== before) {
      payments.set(id, payment);
      changed.add(id);
      // The rules decide a payment once: from pending (or nothing yet) to approved or declined.
      if (payment.outcome !== 'pending' && (before?.outcome ?? 'pending') === 'pending') decisions.push(decisionRowOf(payment));
    }
    const operationId = 'operationId' in event.data ? event.data.operationId : null;
    lines.forEach((line, index) => {
      postings.push({
        posting_set_id: stored.id,
        line: index,
        merchant_id: payment.merchantId,
        currency: payment.currency,
        account: line.account,
        amount: line.amount,
        payment_id: id,
        operation_id: operationId,
        event_type: stored.type,
        event_position: stored.position,
        occurred_at: occurredAt,
      });
    });
  }

  await upsertRows(
    trx,
    PAYMENT_UPSERT,
    [...changed].map((id) => paymentRowOf(payments.get(id)!)),
  );
  await upsertRows(trx, POSTING_UPSERT, postings);
  await addToDailyTotals(trx, postings);
  // Each decision is counted once, behind the checkpoint's compare-and-set.
  await upsertRows(trx, DECISIONS_UPSERT, decisions);
}

/**
 * A top-up's posting set. It is no payment's: `payment_id` is empty and `operation_id` names the
 * top-up, so a payment's postings never include it.
 */
function topUpPostings(stored: StoredEvent): PostingRow[] {
  const data = stored.data as unknown as PayoutBalanceToppedUp['data'];
  return postTopUp(data).map((line, index) => ({
    posting_set_id: stored.id,
    line: index,
    merchant_id: data.merchantId,
    currency: data.currency,
    account: line.account,
    amount: line.amount,
    payment_id: '',
    operation_id: data.topUpId,
    event_type: stored.type,
    event_position: stored.position,
    occurred_at: data.toppedUpAt,
  }));
}

/** A decided payment as one payment of its day's decisions; the upsert adds it to the day's count. */
function decisionRowOf(payment: LedgerPayment): DecisionsRow {
  const day = payment.decidedAt!.slice(0, 10);
  return { merchant_id: payment.merchantId, currency: payment.currency, day, kind: payment.kind, outcome: payment.outcome, payment_count: 1 };
}

/**
 * The batch's postings added to their days' totals. Each event is applied once (its posting set is
 * written in the transaction that moves the checkpoint past it), so adding never counts one twice.
 */
async function addToDailyTotals(trx: Transaction<LedgerTables>, postings: readonly PostingRow[]): Promise<void> {
  await upsertRows(trx, TOTALS_UPSERT, postings.map(totalsRowOf));
}

/** A posting as one line of its day's totals (per account, event type and sign); the upsert sums them. */
export function totalsRowOf(posting: PostingRow): TotalsRow {
  const amount = Number(posting.amount);
  return {
    merchant_id: posting.merchant_id,
    currency: posting.currency,
    day: posting.occurred_at.slice(0, 10),
    account: posting.account,
    event_type: posting.event_type,
    direction: Math.sign(amount),
    line_count: 1,
    amount,
  };
}
