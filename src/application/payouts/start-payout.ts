/**
 * A payout (`CREDIT2VIRTUAL`): money from the merchant's payout balance to a payee's account with
 * an alternative method's provider (a mobile-money wallet, an email). It is a payment of kind
 * `credit` on its own stream, so status lookups, callbacks, reconciliation and the ledger follow it
 * as any payment; what is its own is the money:
 *
 * 1. the order id is reserved together with `PaymentInitiated` (the duplicate rule of every SALE);
 * 2. its amount is held on the merchant's payout balance stream (PayoutBalances), decided at the
 *    version read, so no two payouts spend the same money; a balance that cannot cover it declines
 *    the payout (`Insufficient payout balance`) and nothing moves;
 * 3. only then is the provider asked, and its answer recorded. How the payout ends (settled, or
 *    declined now or later) reaches the balance through the balance feeder, which follows the log.
 */
import { newId } from '../new-id';
import { DomainError } from '../../domain/errors';
import { DUPLICATE_WINDOW_MS } from '../../domain/order/order-reservation';
import type { AuthorizationResult } from '../../domain/payment/commands';
import { paymentDecider } from '../../domain/payment/decider';
import { paymentStreamId, type MethodSnapshot, type PayerSnapshot, type PaymentEvent } from '../../domain/payment/events';
import { connectorOf, type ExistingPayment, type PaymentState } from '../../domain/payment/state';
import { INSUFFICIENT_PAYOUT_BALANCE } from '../../domain/payouts/balance-decide';
import { toNewEvent } from '../command-handler';
import { callConnector, payerReturnUrl, toAuthorizationResult } from '../payments/connector-calls';
import type { PaymentDeps } from '../payments/deps';
import { DuplicatePaymentError } from '../payments/errors';
import { existing } from '../payments/existing';
import { paymentStream } from '../payments/payment-stream';
import { routeOf } from '../payments/start-payment/route';
import { orderReservation, orderTaken, repeatOf } from '../order-reservation';
import { NO_STREAM, type EventMetadata } from '../ports/event-store';
import type { PayoutBalances } from './payout-balances';

export type PayoutDeps = Pick<PaymentDeps, 'store' | 'connectors' | 'clock' | 'logger' | 'baseUrl' | 'replayWaitMs'> & { balances: PayoutBalances };

export interface PayoutRequest {
  merchantId: string;
  orderId: string;
  orderDescription: string;
  currency: string;
  /** Minor units, and the merchant's text of it (echoed, hashed). */
  amount: number;
  amountText: string;
  /** The payout method (`brand`) and its parameters. */
  method: MethodSnapshot;
  /** Who is paid (`payee_*`). */
  payee: PayerSnapshot;
  notificationUrl: string | null;
  correlationId: string;
  /** The merchant's connectors, in order. */
  connectors: readonly string[];
}

export interface PayoutResult {
  payment: ExistingPayment;
  /** True when this request repeated an order id within the duplicate window. */
  replayed: boolean;
}

export async function startPayout(deps: PayoutDeps, request: PayoutRequest): Promise<PayoutResult> {
  const paymentId = newId();
  const metadata: EventMetadata = { correlationId: request.correlationId, causationId: request.correlationId };
  // Routed before anything is recorded: a payout no connector can make must not burn the order id.
  const route = routeOf(deps.connectors, request.connectors, {
    method: request.method.brand,
    currency: request.currency,
    kind: 'credit',
    amount: request.amount,
    recurring: false,
  });
  const now = deps.clock.now().toISOString();
  const initiated = initiatedEvents(request, paymentId, route, now);
  const recorded = await reserveAndInitiate(deps, request, paymentId, initiated, metadata, now);
  if (recorded.replayed) return { payment: recorded.payment, replayed: true };
  // The money first: nothing is sent to the provider before it is set aside.
  const refusal = await holdOnBalance(deps, request, paymentId, metadata, now);
  const start = { state: initiated.reduce(paymentDecider.evolve, paymentDecider.initialState()), version: recorded.version };
  return { payment: await askProvider(deps, request, paymentId, start, refusal, metadata), replayed: false };
}

function initiatedEvents(request: PayoutRequest, paymentId: string, route: string[], now: string): PaymentEvent[] {
  return paymentDecider.decide(
    {
      type: 'InitiatePayment',
      data: {
        paymentId,
        merchantId: request.merchantId,
        channel: 's2s_apm',
        kind: 'credit',
        orderId: request.orderId,
        orderDescription: request.orderDescription,
        currency: request.currency,
        amount: request.amount,
        amountText: request.amountText,
        method: request.method,
        payer: request.payee,
        termUrl3ds: null,
        notificationUrl: request.notificationUrl,
        customData: null,
        parameters: null,
        recurringInit: false,
        connector: route[0]!,
        ...(route.length > 1 ? { route } : {}),
        now,
      },
    },
    { exists: false },
  );
}

/** The order id and the payout, in one write; a taken order id is a repeat (or a duplicate) instead. */
async function reserveAndInitiate(
  deps: PayoutDeps,
  request: PayoutRequest,
  paymentId: string,
  initiated: PaymentEvent[],
  metadata: EventMetadata,
  now: string,
): Promise<{ replayed: false; version: bigint } | { replayed: true; payment: ExistingPayment }> {
  const reservation = orderReservation({ merchantId: request.merchantId, orderId: request.orderId, paymentId }, now, metadata);
  try {
    const results = await deps.store.appendMultiple([
      reservation,
      { streamId: paymentStreamId(paymentId), events: initiated.map((e) => toNewEvent(e, paymentDecider.schemaVersion, metadata)), expected: NO_STREAM },
    ]);
    return { replayed: false, version: results[results.length - 1]!.nextExpectedVersion };
  } catch (error) {
    if (!orderTaken(error, reservation)) throw error;
    return { replayed: true, payment: await replayOrReject(deps, request) };
  }
}

/** Holds the amount on the payout balance; a balance that cannot cover it is the payout's decline, as the provider's would be. */
async function holdOnBalance(
  deps: PayoutDeps,
  request: PayoutRequest,
  paymentId: string,
  metadata: EventMetadata,
  now: string,
): Promise<AuthorizationResult | null> {
  try {
    await deps.balances.handle(
      request.merchantId,
      request.currency,
      { type: 'HoldPayout', data: { merchantId: request.merchantId, currency: request.currency, paymentId, amount: request.amount, now } },
      metadata,
    );
    return null;
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'insufficient_payout_balance') throw error;
    return { outcome: 'declined', reason: INSUFFICIENT_PAYOUT_BALANCE };
  }
}

/** The provider's answer (or the balance's refusal) recorded, connector after connector while the route cascades. */
async function askProvider(
  deps: PayoutDeps,
  request: PayoutRequest,
  paymentId: string,
  start: { state: PaymentState; version: bigint },
  refusal: AuthorizationResult | null,
  metadata: EventMetadata,
): Promise<ExistingPayment> {
  const stream = paymentStream(deps.store);
  const ask = {
    paymentId,
    merchantId: request.merchantId,
    kind: 'credit' as const,
    amount: request.amount,
    currency: request.currency,
    instrument: { kind: 'method' as const, method: request.method.brand, parameters: request.method.parameters },
    ...(request.payee.email ? { payerEmail: request.payee.email } : {}),
    returnUrl: payerReturnUrl(deps.baseUrl, paymentId),
  };
  let { state, version } = start;
  for (;;) {
    const result = refusal ?? toAuthorizationResult(await callConnector(deps, connectorOf(existing(state)), request.correlationId, (connector) => connector.payout(ask)));
    const recorded = await stream.handle(
      paymentId,
      { type: 'RecordAuthorization', data: { result, now: deps.clock.now().toISOString() } },
      metadata,
      { state, version },
    );
    state = recorded.state;
    version = recorded.version!;
    // A soft decline goes on to the route's next connector, the money still held.
    if (!recorded.newEvents.some((e) => e.type === 'PaymentCascaded')) return existing(state);
  }
}

/**
 * The order id is taken. Within the duplicate window by a payout, the request is a repeat and gets
 * that payout's outcome (waiting while its provider is still being asked); anything else is a
 * duplicate, a SALE's order id too.
 */
async function replayOrReject(deps: PayoutDeps, request: PayoutRequest): Promise<ExistingPayment> {
  const verdict = await repeatOf(deps.store, request, 'payment', deps.clock.now());
  if (verdict.kind === 'duplicate') throw new DuplicatePaymentError();
  const deadline = Date.now() + (deps.replayWaitMs ?? DUPLICATE_WINDOW_MS);
  const stream = paymentStream(deps.store);
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    const { state } = await stream.load(verdict.owner);
    if (state.exists && state.kind !== 'credit') throw new DuplicatePaymentError();
    if (state.exists && state.phase !== 'initiated') return state;
    if (Date.now() > deadline) {
      if (state.exists) return state;
      throw new DuplicatePaymentError();
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
