/**
 * What must hold whatever the interleaving, read from the store, the read models, the provider and
 * what the merchant was told. Each check throws InvariantBroken naming itself and, where one payment
 * shows it, that payment.
 */
import { sql } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { callbackStreamId, type CallbackEvent, type CallbackScheduled } from '../../src/domain/callback-delivery/events';
import { parseRetrySchedule } from '../../src/domain/callback-delivery/retry-schedule';
import { evolveDelivery, initialDeliveryState } from '../../src/domain/callback-delivery/state';
import { paymentDecider } from '../../src/domain/payment/decider';
import type { ExistingPayment, PaymentState } from '../../src/domain/payment/state';
import { payoutBalanceStreamId, type PayoutBalanceEvent } from '../../src/domain/payouts/balance-events';
import { verifyProjections } from '../../projections/rebuild';
import { availableOf, evolvePayoutBalance, initialPayoutBalance } from '../../src/domain/payouts/balance-state';
import { foldPayment, quietly, type Model } from './run';
import { CALLBACK_RETRIES, type ReceivedCallback, type World } from './world';

export class InvariantBroken extends Error {
  constructor(
    readonly invariant: string,
    detail: string,
    readonly paymentId?: string,
  ) {
    super(detail);
    this.name = 'InvariantBroken';
  }
}

/** The invariants, by the name a failure prints (docs/simulation.md lists them). */
export const INVARIANTS = {
  amounts: 'refunded ≤ settled ≤ authorized, settled at most once, nothing held after a void or release',
  told: 'what the merchant was told agrees with the events',
  payoutBalance: 'available + held = top-ups + received − paid out, and every hold was placed on money available',
  holdsReleased: 'once every payout is decided nothing is held',
  finished: 'no payment unfinished past its deadlines',
  provider: "the gateway's outcome agrees with the provider's",
  ledger: 'the ledger sums to zero per merchant and currency, and each account is the fold of its postings',
  callbacks: 'every state change is called back once per delivery id, in order, the last with the final status; a delivery gives up only after every retry of its schedule, and says so',
  readModels: 'every read model equals a fresh rebuild from the events',
} as const;

const CHECKOUT_ORDER_STATUS: Record<string, string> = {
  prepare: 'PREPARE',
  settled: 'SETTLED',
  pending: 'PENDING',
  '3ds': '3DS',
  redirect: 'REDIRECT',
  decline: 'DECLINED',
  refund: 'REFUND',
  reversal: 'REVERSAL',
  void: 'VOID',
};
const UNFINISHED = new Set(['initiated', 'outcome_unknown', 'awaiting_3ds', 'awaiting_redirect', 'awaiting_provider']);

/** Still waiting for the acquirer, the payer or the provider, or for the answer to an operation. */
export const isOpen = (state: ExistingPayment): boolean => UNFINISHED.has(state.phase) || state.pendingOperation !== null;
const CARD_OUTCOMES = new Set(['SETTLED', 'DECLINED', '3DS', 'REDIRECT', 'PENDING', 'REFUND', 'REVERSAL', 'VOID', 'PREPARE']);

const fail = (invariant: keyof typeof INVARIANTS, detail: string, paymentId?: string): never => {
  throw new InvariantBroken(invariant, `${INVARIANTS[invariant]}: ${detail}`, paymentId);
};

interface Folded {
  paymentId: string;
  state: PaymentState & { exists: true };
  events: StoredEvent[];
}

/**
 * Every payment of the merchant in the store: those it was told of, and those it was not (an
 * answer lost to a fault, a scheduled charge).
 */
async function foldAll(world: World, model: Model): Promise<Folded[]> {
  for (const p of model.payments.values()) {
    const { state } = await foldPayment(world, p.transId);
    if (!state.exists) fail('told', `the merchant was given trans_id ${p.transId}, which has no payment`, p.transId);
  }
  const all = await quietly(world, () => world.api.store.readAll());
  const ids = all.filter((e) => e.type === 'PaymentInitiated' && (e.data as { merchantId: string }).merchantId === model.merchant.merchant_id).map((e) => (e.data as { paymentId: string }).paymentId);
  const out: Folded[] = [];
  for (const paymentId of ids) {
    const { state, events } = await foldPayment(world, paymentId);
    out.push({ paymentId, state: state as Folded['state'], events });
  }
  return out;
}

function checkAmounts(f: Folded): void {
  const { state, events, paymentId } = f;
  const count = (type: string) => events.filter((e) => e.type === type).length;
  if (count('PaymentSettled') > 1) fail('amounts', `settled ${count('PaymentSettled')} times`, paymentId);
  if (state.refundedAmount > state.settledAmount) fail('amounts', `refunded ${state.refundedAmount} of ${state.settledAmount} settled`, paymentId);
  if (state.settledAmount > state.amount) fail('amounts', `settled or captured ${state.settledAmount} of ${state.amount} authorized`, paymentId);
  const refunds = events.filter((e) => e.type === 'RefundSucceeded').reduce((n, e) => n + (e.data as { amount: number }).amount, 0);
  const settledIn = events.filter((e) => e.type === 'PaymentSettled' || e.type === 'CaptureSucceeded').reduce((n, e) => n + (e.data as { amount: number }).amount, 0);
  if (refunds > settledIn) fail('amounts', `refund events total ${refunds} against ${settledIn} settled`, paymentId);
  if (state.heldAmount < 0) fail('amounts', `holds ${state.heldAmount}`, paymentId);
  if ((state.phase === 'voided' || state.phase === 'reversed' || state.phase === 'declined') && state.heldAmount !== 0) fail('amounts', `still holds ${state.heldAmount} once ${state.phase}`, paymentId);
}

function checkTold(model: Model, f: Folded): void {
  const p = model.payments.get(f.paymentId);
  if (!p) return;
  const types = new Set(f.events.map((e) => e.type));
  const statuses = statusesOf(f.events);
  for (const told of p.told) {
    const { result, status } = told.body as { result?: string; status?: string };
    if (told.action === 'SALE' || told.action === 'RECURRING_SALE' || told.action === 'CREDIT2VIRTUAL') {
      if (result === 'SUCCESS' && !types.has('PaymentSettled') && !types.has('PaymentAuthorized'))
        fail('told', `told ${told.action} SUCCESS at step ${told.step}, but nothing settled or was authorized`, f.paymentId);
      if (result === 'DECLINED' && (!types.has('PaymentDeclined') || types.has('PaymentSettled')))
        fail('told', `told ${told.action} DECLINED at step ${told.step}, events: ${[...types].join(', ')}`, f.paymentId);
    }
    if (told.action === 'GET_TRANS_STATUS' && typeof status === 'string' && CARD_OUTCOMES.has(status) && !statuses.has(status))
      fail('told', `a status lookup at step ${told.step} said ${status}, which the payment never was (${[...statuses].join(', ')})`, f.paymentId);
  }
}

function statusesOf(events: StoredEvent[]): Set<string> {
  const out = new Set<string>();
  let state: PaymentState | null = null;
  for (const e of events) {
    state = foldOne(state, e);
    if (state.exists) out.add(state.status);
  }
  return out;
}

// A local fold step, so that status history is read from the same evolve the gateway uses.
const foldOne = (state: PaymentState | null, e: StoredEvent): PaymentState => paymentDecider.evolve(state ?? paymentDecider.initialState(), { type: e.type, data: e.data } as never);

interface ExpectedBalance {
  toppedUp: number;
  received: number;
  paidOut: number;
  held: number;
}

/** The payout balance as the payments' own events say it must be, computed apart from the feeder. */
async function expectedBalance(world: World, model: Model, currency: string, folded: Folded[]): Promise<ExpectedBalance> {
  const stream = await world.api.store.readStream(payoutBalanceStreamId(model.merchant.merchant_id, currency));
  const toppedUp = stream.filter((e) => e.type === 'PayoutBalanceToppedUp').reduce((n, e) => n + (e.data as { amount: number }).amount, 0);
  const holds = new Map<string, number>();
  for (const e of stream) if (e.type === 'PayoutHoldPlaced') holds.set((e.data as { paymentId: string }).paymentId, (e.data as { amount: number }).amount);
  let received = 0;
  let paidOut = 0;
  let held = 0;
  for (const f of folded) {
    if (f.state.currency !== currency) continue;
    const sum = (type: string) => f.events.filter((e) => e.type === type).reduce((n, e) => n + (e.data as { amount: number }).amount, 0);
    if (f.state.kind === 'credit') {
      const settled = f.events.some((e) => e.type === 'PaymentSettled');
      const declined = f.events.some((e) => e.type === 'PaymentDeclined');
      if (settled) paidOut += f.state.amount;
      else if (!declined && holds.has(f.paymentId)) held += holds.get(f.paymentId)!;
    } else {
      received += sum('PaymentSettled') + sum('CaptureSucceeded') - sum('RefundSucceeded') - sum('PaymentVoided');
    }
  }
  return { toppedUp, received, paidOut, held };
}

async function checkPayoutBalance(world: World, model: Model, folded: Folded[], exact: boolean): Promise<void> {
  const currency = 'USD';
  const view = await world.api.payouts.balance(model.merchant.merchant_id, currency);
  if (view.held < 0) fail('payoutBalance', `held is ${view.held}`);
  // Refunds and voids of sales may take the balance below zero (the cardholder's money comes first);
  // a payout never may: every hold was placed on money available when it was placed.
  let state = initialPayoutBalance();
  for (const e of await world.api.store.readStream(payoutBalanceStreamId(model.merchant.merchant_id, currency))) {
    const event = { type: e.type, data: e.data } as PayoutBalanceEvent;
    if (event.type === 'PayoutHoldPlaced' && event.data.amount > availableOf(state))
      fail('payoutBalance', `a hold of ${event.data.amount} was placed on ${availableOf(state)} available`, event.data.paymentId);
    state = evolvePayoutBalance(state, event);
  }
  if (!exact) return;
  const expected = await expectedBalance(world, model, currency, folded);
  const seen = { toppedUp: view.toppedUp, received: view.received, paidOut: view.paidOut, held: view.held };
  for (const key of Object.keys(expected) as (keyof ExpectedBalance)[]) {
    if (expected[key] !== seen[key]) {
      const culprit = key === 'held' ? folded.find((f) => f.state.kind === 'credit' && f.events.some((e) => e.type === 'PaymentDeclined'))?.paymentId : undefined;
      fail('payoutBalance', `${key} is ${seen[key]}, the events say ${expected[key]} (balance ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)})`, culprit);
    }
  }
}

export async function checkAfterStep(world: World, model: Model): Promise<void> {
  const folded = await foldAll(world, model);
  for (const f of folded) {
    checkAmounts(f);
    checkTold(model, f);
  }
  // Exact once the feeder has seen everything: no pass of this step failed.
  await checkPayoutBalance(world, model, folded, world.failedPasses === 0 && !world.faults.failing);
  world.failedPasses = 0;
}

export async function checkAtEnd(world: World, model: Model): Promise<void> {
  const folded = await foldAll(world, model);
  for (const f of folded) {
    checkAmounts(f);
    checkTold(model, f);
    if (UNFINISHED.has(f.state.phase)) fail('finished', `still ${f.state.phase} after every deadline`, f.paymentId);
    if (f.state.pendingOperation) fail('finished', `operation ${f.state.pendingOperation.operationId} still unanswered`, f.paymentId);
    checkProvider(world, f);
  }
  await checkPayoutBalance(world, model, folded, true);
  const view = await world.api.payouts.balance(model.merchant.merchant_id, 'USD');
  if (view.held !== 0) {
    const declined = folded.find((f) => f.state.kind === 'credit' && f.state.phase === 'declined');
    fail('holdsReleased', `${view.held} still held once every payout was decided`, declined?.paymentId);
  }
  await checkLedger(world);
  await checkCallbacks(world, model, folded);
  const differences = await verifyProjections({ store: world.api.store, db: world.api.readDb });
  if (differences.length > 0) fail('readModels', `${differences.length} rows differ, first: ${JSON.stringify(differences[0], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
}

function checkProvider(world: World, f: Folded): void {
  const txs = world.provider.byPayment(f.paymentId);
  const succeeded = txs.filter((t) => t.truth === 'success');
  const gatewayCharged = f.events.some((e) => e.type === 'PaymentSettled' || e.type === 'PaymentAuthorized');
  if (gatewayCharged && succeeded.length === 0) fail('provider', 'settled at the gateway, never at the provider', f.paymentId);
  if (!gatewayCharged && succeeded.length > 0) fail('provider', `charged at the provider (${succeeded.map((t) => t.reference).join(', ')}), ${f.state.phase} at the gateway`, f.paymentId);
  if (succeeded.length > 1) fail('provider', `charged ${succeeded.length} times at the provider`, f.paymentId);
}

async function checkLedger(world: World): Promise<void> {
  const db = world.api.readDb;
  const sums = await sql<{ merchant_id: string; currency: string; total: string | number }>`
    select merchant_id, currency, sum(amount) as total from ledger_postings group by merchant_id, currency`.execute(db);
  for (const row of sums.rows) if (Number(row.total) !== 0) fail('ledger', `postings of ${row.currency} sum to ${row.total}`);
  const sets = await sql<{ posting_set_id: string; total: string | number }>`
    select posting_set_id, sum(amount) as total from ledger_postings group by posting_set_id having sum(amount) <> 0`.execute(db);
  if (sets.rows.length > 0) fail('ledger', `posting set ${sets.rows[0]!.posting_set_id} sums to ${sets.rows[0]!.total}`);
  const accounts = await sql<{ account: string; currency: string; postings: string | number; totals: string | number }>`
    select p.account, p.currency, p.postings, coalesce(t.totals, 0) as totals from
      (select account, currency, sum(amount) as postings from ledger_postings group by account, currency) p
      left join (select account, currency, sum(amount) as totals from ledger_daily_totals group by account, currency) t
      on t.account = p.account and t.currency = p.currency`.execute(db);
  for (const a of accounts.rows) if (Number(a.postings) !== Number(a.totals)) fail('ledger', `${a.account} ${a.currency}: postings ${a.postings}, daily totals ${a.totals}`);
}

async function checkCallbacks(world: World, model: Model, folded: Folded[]): Promise<void> {
  const all = await quietly(world, () => world.api.store.readAll());
  const scheduled = all.filter((e) => e.type === 'CallbackScheduled').map((e) => e.data as CallbackScheduled['data']);
  const received = world.endpoint.received;
  const bySource = new Map(scheduled.map((s) => [s.sourceEventId, s]));
  const positionOf = new Map(all.map((e) => [e.id, e.position]));
  for (const s of scheduled) {
    if (!folded.some((f) => f.paymentId === s.paymentId)) continue;
    const got = received.filter((r) => r.deliveryId === s.deliveryId);
    const status = checkDeliveryRecord(s, all.filter((e) => e.streamId === callbackStreamId(s.deliveryId)), got);
    if (!got.some((r) => r.acknowledged)) fail('callbacks', `delivery ${s.deliveryId} (${s.sourceEventType}) never reached the merchant`, s.paymentId);
    if (got.some((r) => r.body !== s.body)) fail('callbacks', `delivery ${s.deliveryId} was sent with another body`, s.paymentId);
    if (status !== 'delivered') fail('callbacks', `delivery ${s.deliveryId} (${s.sourceEventType}) reached the merchant but ends ${status} at the gateway`, s.paymentId);
  }
  for (const f of folded) {
    // Every change of status is called back.
    let before: string | null = null;
    let state: PaymentState | null = null;
    for (const e of f.events) {
      state = foldOne(state, e);
      const status = state.exists ? state.status : null;
      if (status !== before && before !== null && !bySource.has(e.id)) fail('callbacks', `${e.type} (v${e.version}) changed the status ${before} → ${status} and was not called back`, f.paymentId);
      before = status;
    }
    const mine = scheduled.filter((s) => s.paymentId === f.paymentId).sort((a, b) => Number((positionOf.get(a.sourceEventId) ?? 0n) - (positionOf.get(b.sourceEventId) ?? 0n)));
    if (mine.length === 0) continue;
    // First arrivals in the order of the events, as the notifier promises within one process's life:
    // a restarted one sends what its predecessor left claimed once the claim's lease runs out.
    const firstArrival = mine.map((s) => received.findIndex((r) => r.deliveryId === s.deliveryId));
    for (let i = 1; i < firstArrival.length; i++) {
      const [a, b] = [received[firstArrival[i - 1]!], received[firstArrival[i]!]];
      if (a && b && a.generation === b.generation && firstArrival[i]! < firstArrival[i - 1]!) fail('callbacks', `${mine[i]!.sourceEventType} reached the merchant before ${mine[i - 1]!.sourceEventType}`, f.paymentId);
    }
    const lastFields = new URLSearchParams(mine[mine.length - 1]!.body);
    // Checkout callbacks name the payment's status in `order_status`, in their own words.
    const orderStatus = lastFields.get('order_status');
    const last = orderStatus !== null ? (CHECKOUT_ORDER_STATUS[orderStatus] ?? orderStatus) : lastFields.get('status');
    if (last !== null && last !== f.state.status) fail('callbacks', `the last callback says ${last}, the payment is ${f.state.status}`, f.paymentId);
  }
}

const RETRY_SCHEDULE = parseRetrySchedule(CALLBACK_RETRIES)!;

/**
 * One delivery's own record against the retry schedule: each retry waited as long as the schedule
 * says (an interrupted attempt goes again at once), the gateway gave up only once every retry of a
 * round had failed and then recorded `CallbackFailed` (an operator finds it there, and only there),
 * and every attempt it records an answer to did reach the endpoint. Returns how the delivery ends.
 */
function checkDeliveryRecord(s: CallbackScheduled['data'], stream: StoredEvent[], got: ReceivedCallback[]): string {
  const broken = (detail: string): never => fail('callbacks', `delivery ${s.deliveryId} (${s.sourceEventType}) ${detail}`, s.paymentId);
  let state = initialDeliveryState();
  let givenUp: number | null = null;
  for (const e of stream) {
    const event = { type: e.type, data: e.data } as CallbackEvent;
    if (givenUp !== null && event.type !== 'CallbackFailed') broken(`used up its retries at attempt ${givenUp} and was not recorded as failed (${event.type} came next)`);
    givenUp = null;
    if (state.exists && event.type === 'CallbackAttemptStarted') {
      const due = state.status === 'pending' ? state.nextAttemptAt : null;
      if (due === null || Date.parse(event.data.startedAt) < Date.parse(due)) broken(`attempt ${event.data.attempt} started at ${event.data.startedAt} while ${state.status}, due at ${due}`);
    }
    if (state.exists && event.type === 'CallbackAttemptFailed' && state.status === 'in_flight' && event.data.attempt === state.attempts) {
      const retry = state.failuresInRound;
      const d = event.data;
      const interrupted = d.statusCode === null && !d.timedOut && (d.error ?? '').startsWith('interrupted');
      const expected = retry >= RETRY_SCHEDULE.length ? null : new Date(Date.parse(d.failedAt) + (interrupted ? 0 : RETRY_SCHEDULE[retry]!)).toISOString();
      if (d.nextAttemptAt !== expected) broken(`attempt ${d.attempt} (failure ${retry + 1} of its round) failed at ${d.failedAt} with its next attempt at ${d.nextAttemptAt}; the schedule says ${expected}`);
      if (expected === null) givenUp = d.attempt;
    }
    if (event.type === 'CallbackFailed' && state.exists && state.failuresInRound !== RETRY_SCHEDULE.length + 1)
      broken(`failed for good after ${state.failuresInRound} failed attempts in its round; the schedule makes ${RETRY_SCHEDULE.length + 1}`);
    const answered = event.type === 'CallbackDelivered' || (event.type === 'CallbackAttemptFailed' && (event.data.statusCode !== null || event.data.timedOut));
    if (answered && !got.some((r) => r.attempt === event.data.attempt)) broken(`records an answer to attempt ${event.data.attempt}, which never reached the endpoint`);
    state = evolveDelivery(state, event);
  }
  if (givenUp !== null) broken(`used up its retries at attempt ${givenUp} and was not recorded as failed`);
  return state.exists ? state.status : 'unknown';
}
