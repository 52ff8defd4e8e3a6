/**
 * Payment use cases. Each acquirer call sits between two recorded commands: the intent is appended
 * first (so a crash or a concurrent request can never make the acquirer act twice unnoticed), then
 * the acquirer's answer is appended as data for the decider.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { maskPan, detectBrand } from '../domain/card';
import { DomainError } from '../domain/errors';
import {
  DUPLICATE_WINDOW_MS,
  ORDER_EVENT_SCHEMA_VERSION,
  judgeRepeat,
  orderStreamId,
  type OrderIdReserved,
} from '../domain/order/order-reservation';
import type { AuthorizationResult, FollowUpResult, InitiatePayment } from '../domain/payment/commands';
import {
  paymentStreamId,
  type BrowserAttributes,
  type CardSnapshot,
  type CardSource,
  type ChainSchedule,
  type CheckoutPaymentData,
  type PaymentChannel,
  type PaymentKind,
  type RecurringLink,
} from '../domain/payment/events';
import { anchorChain, type ScheduleRule } from '../domain/schedule/due-dates';
import type { ExistingPayment, PaymentState } from '../domain/payment/state';
import { handleCommand, loadState, toNewEvent, type HandleResult } from './command-handler';
import { paymentDecider } from './deciders';
import type { CardVault } from './ports/card-vault';
import type { Clock } from './ports/clock';
import type { ConnectorOutcome, Connector, FollowUpOutcome, CardData, CardOnFileRequest } from './ports/connector';
import {
  NO_STREAM,
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
} from './ports/event-store';
import type { Logger } from './ports/logger';
import type { PaymentEvent } from '../domain/payment/events';

export class DuplicatePaymentError extends Error {
  constructor() {
    super('order_id: Duplicate payment.');
    this.name = 'DuplicatePaymentError';
  }
}

export class CardTokenNotFoundError extends Error {
  constructor() {
    super('Card token is invalid or not found.');
    this.name = 'CardTokenNotFoundError';
  }
}

export type SaleCard =
  | { kind: 'number'; number: string; expMonth: string; expYear: string; cvv?: string; holder?: string }
  /** `holder`: a name given now (a credit's payee) in place of the one stored with the card. */
  | { kind: 'token'; token: string; holder?: string };

/** What a SALE asks for: the payment's order and payer data, with the card as the merchant sent it. */
export type SaleRequest = Omit<
  InitiatePayment['data'],
  'paymentId' | 'channel' | 'card' | 'cardSource' | 'checkout' | 'browser' | 'recurring' | 'now'
> & {
  card: SaleCard;
  /** Keep the card in the vault and hand back a token for later payments. */
  storeCard: boolean;
  correlationId: string;
  /** With `recurringInit`: the schedule the chain's automatic payments follow. */
  schedule?: ScheduleRequest;
  /** The merchant's card_on_file_support: ask the connector for a card-on-file reference. */
  cardOnFileSupport?: boolean;
};

/** A schedule attached to a payment that starts (or continues) a chain. */
export interface ScheduleRequest {
  scheduleId: string;
  rule: ScheduleRule;
  /** `schedule_start_date`: overrides the schedule's first-payment delay. */
  startDate?: string;
  /** `payment_schedule_amount`, when sent. */
  amount?: { minor: number; text: string };
}

/** A merchant-initiated charge of a chain (RECURRING_SALE, RECURRING_DEBIT, Checkout recurring). */
export interface RecurringRequest {
  merchantId: string;
  channel: PaymentChannel;
  kind: 'sale' | 'debit';
  orderId: string;
  orderDescription: string;
  amount: number;
  amountText: string;
  customData: Record<string, unknown> | null;
  correlationId: string;
  /** Checkout recurring with `schedule_id`: the schedule starts from this payment. */
  schedule?: ScheduleRequest;
}

/** What a chain's later charges inherit from its initial payment. */
export type RecurringChain = ExistingPayment & { recurring: RecurringLink; recurringToken: string };

/** An automatic payment of a schedule, claimed on the chain stream by the scheduler. */
export interface ScheduledPaymentRequest {
  paymentId: string;
  /** The chain's initial payment. */
  chain: RecurringChain;
  kind: 'sale' | 'debit';
  orderId: string;
  orderDescription: string;
  amount: number;
  amountText: string;
  scheduleId: string;
  sequence: number;
  dueDate: string;
  notificationUrl: string | null;
  correlationId: string;
}

export interface SaleResult {
  payment: ExistingPayment;
  /** True when this request repeated an order id within the duplicate window. */
  replayed: boolean;
}

export interface PaymentServiceDeps {
  store: EventStore;
  connector: Connector;
  vault: CardVault;
  clock: Clock;
  logger: Logger;
  /** Public base URL, for the acquirer's payer-facing pages and return addresses. */
  baseUrl: string;
  /** How long a repeat waits for the original request of the same order to finish. */
  replayWaitMs?: number;
}

type PaymentHandleResult = HandleResult<PaymentState, PaymentEvent>;

export class PaymentService {
  constructor(private readonly deps: PaymentServiceDeps) {}

  async sale(request: InternalSale): Promise<SaleResult> {
    const paymentId = randomUUID();
    const metadata: EventMetadata = { correlationId: request.correlationId, causationId: request.correlationId };
    const now = this.deps.clock.now().toISOString();
    const reservation: OrderIdReserved = {
      type: 'OrderIdReserved',
      data: { merchantId: request.merchantId, orderId: request.orderId, paymentId, reservedAt: now },
    };
    const orderStream = orderStreamId(request.merchantId, request.orderId);
    try {
      const payment = await this.begin(
        request,
        paymentId,
        {
          streamId: orderStream,
          events: [toNewEvent(reservation, ORDER_EVENT_SCHEMA_VERSION, metadata)],
          expected: NO_STREAM,
        },
        request.channel ?? 's2s_card',
      );
      return { payment, replayed: false };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || error.streamId !== orderStream) throw error;
      return { payment: await this.replayOrReject(request), replayed: true };
    }
  }

  /**
   * A Checkout payment attempt. `claim` is the session's record of the attempt, appended together
   * with the payment (where the store can) at the session version the caller decided on, so two
   * submits of one session never both reach the acquirer: the loser gets WrongExpectedVersionError.
   */
  async startCheckoutPayment(
    request: SaleRequest & { paymentId: string; checkout: CheckoutPaymentData; browser?: BrowserAttributes },
    claim: { streamId: string; events: NewEvent[]; expected: ExpectedVersion },
  ): Promise<ExistingPayment> {
    return this.begin(request, request.paymentId, claim, 'checkout');
  }

  /**
   * Records the claim (order reservation or session attempt) and PaymentInitiated, then asks the
   * acquirer and records its answer.
   */
  /**
   * The chain a merchant-initiated charge refers to: the merchant's own initial payment, succeeded,
   * whose token matches (compared in constant time). Anything else is `Incorrect transaction`, so
   * a guessed or borrowed pair tells nothing about which part was wrong.
   */
  async recurringChain(
    merchantId: string,
    initPaymentId: string,
    token: string,
    /** `any` on Checkout, whose one recurring operation serves sale and debit chains. */
    kind: 'sale' | 'debit' | 'any',
  ): Promise<RecurringChain> {
    const incorrect = () => new DomainError('incorrect_transaction', 'Incorrect transaction');
    const { state } = await loadState(this.deps.store, paymentStreamId(initPaymentId), paymentDecider);
    if (!state.exists || state.merchantId !== merchantId) throw incorrect();
    if (state.recurring?.role !== 'initial' || !state.recurringToken || !state.card.token) throw incorrect();
    if (!sameText(state.recurringToken, token)) throw incorrect();
    // A debit chain is charged by debits, a sale chain by sales.
    if (kind !== 'any' && (state.kind === 'debit') !== (kind === 'debit')) throw incorrect();
    return state as RecurringChain;
  }

  /** RECURRING_SALE, RECURRING_DEBIT and Checkout recurring: a new payment of the stored card, without the payer. */
  async recurringPayment(chain: RecurringChain, request: RecurringRequest): Promise<SaleResult> {
    return this.sale({
      ...chainCharge(chain, request),
      channel: request.channel,
      notificationUrl: chain.notificationUrl,
      customData: request.customData,
      link: { role: 'recurring', initPaymentId: chain.paymentId },
      ...(request.schedule ? { schedule: request.schedule } : {}),
      chain,
    });
  }

  /**
   * An automatic payment. `claim` is the chain's ScheduledPaymentStarted at the version the
   * scheduler read; it commits with the payment (where the store can), so a due date is charged
   * once whichever scheduler gets there first.
   */
  async startScheduledPayment(
    request: ScheduledPaymentRequest,
    /** Null when the claim is already recorded and only its payment is missing. */
    claim: { streamId: string; events: NewEvent[]; expected: ExpectedVersion } | null,
  ): Promise<ExistingPayment> {
    const { chain } = request;
    return this.begin(
      {
        ...chainCharge(chain, request),
        notificationUrl: request.notificationUrl,
        customData: null,
        link: {
          role: 'scheduled',
          initPaymentId: chain.paymentId,
          scheduleId: request.scheduleId,
          sequence: request.sequence,
          dueDate: request.dueDate,
        },
        chain,
      },
      request.paymentId,
      claim,
      chain.channel === 'checkout' ? 'checkout' : 's2s_card',
    );
  }

  /** Finishes a scheduled payment whose claim was written without it (an interrupted EventStoreDB append). */
  async paymentExists(paymentId: string): Promise<boolean> {
    return (await this.deps.store.streamVersion(paymentStreamId(paymentId))) !== null;
  }

  private async begin(
    request: InternalSale & { checkout?: CheckoutPaymentData; browser?: BrowserAttributes },
    paymentId: string,
    claim: { streamId: string; events: NewEvent[]; expected: ExpectedVersion } | null,
    channel: PaymentChannel = 's2s_card',
  ): Promise<ExistingPayment> {
    const { store, clock } = this.deps;
    // Resolve the card before anything is recorded: an unknown token must not burn the order id.
    const card = await this.resolveCard(request.card, request.merchantId);
    const metadata: EventMetadata = { correlationId: request.correlationId, causationId: request.correlationId };

    let token = request.card.kind === 'token' ? request.card.token : null;
    if (!token && request.storeCard) token = await this.deps.vault.store(card, request.merchantId);
    const snapshot: CardSnapshot = {
      mask: maskPan(card.number),
      brand: detectBrand(card.number),
      expMonth: card.expMonth,
      expYear: card.expYear,
      token,
    };
    const now = clock.now().toISOString();
    const recurring = this.recurringLinkOf(request, paymentId, now);
    const initiatedEvents = paymentDecider.decide(
      {
        type: 'InitiatePayment',
        data: {
          paymentId,
          merchantId: request.merchantId,
          channel,
          kind: request.kind,
          orderId: request.orderId,
          orderDescription: request.orderDescription,
          currency: request.currency,
          amount: request.amount,
          amountText: request.amountText,
          card: snapshot,
          payer: request.payer,
          termUrl3ds: request.termUrl3ds,
          notificationUrl: request.notificationUrl,
          customData: request.customData,
          parameters: request.parameters,
          recurringInit: request.recurringInit,
          cardSource: request.cardSource ?? (request.card.kind === 'token' ? 'card_token' : 'card_number'),
          ...(request.checkout ? { checkout: request.checkout } : {}),
          ...(request.browser ? { browser: request.browser } : {}),
          ...(recurring ? { recurring } : {}),
          ...(request.payerPresent === false ? { payerPresent: false } : {}),
          now,
        },
      },
      { exists: false },
    );
    const streamId = paymentStreamId(paymentId);
    // The claim comes first and, where the store can, commits together with the payment: the
    // order id (or session attempt) and the intent to charge are recorded before the acquirer is asked.
    const paymentWrite = {
      streamId,
      events: initiatedEvents.map((e) => toNewEvent(e, paymentDecider.schemaVersion, metadata)),
      expected: NO_STREAM,
    };
    const results = await store.appendMultiple(claim ? [claim, paymentWrite] : [paymentWrite]);
    const written = results[results.length - 1];
    const initiated = {
      state: initiatedEvents.reduce(paymentDecider.evolve, paymentDecider.initialState()),
      version: written!.nextExpectedVersion,
    };

    const authorizeRequest = {
      paymentId,
      merchantId: request.merchantId,
      kind: request.kind,
      amount: request.amount,
      currency: request.currency,
      card: { ...card, cvv: request.card.kind === 'number' ? request.card.cvv : undefined },
      payerIp: request.payer.ip,
      ...(request.browser ? { browser: request.browser } : {}),
      gatewayBaseUrl: this.deps.baseUrl,
      ...cardOnFileRequest(request, recurring),
    };
    const outcome = await this.callAcquirer(() =>
      request.kind === 'credit' ? this.deps.connector.payout(authorizeRequest) : this.deps.connector.authorize(authorizeRequest),
    );
    const recorded = await handleCommand(
      store,
      streamId,
      paymentDecider,
      { type: 'RecordAuthorization', data: { result: toAuthorizationResult(outcome), now: clock.now().toISOString() } },
      metadata,
      { state: initiated.state, version: initiated.version },
    );
    return existing(recorded.state);
  }

  /**
   * The payer came back from the ACS or the redirect page. `browser` is what the payer's browser
   * told that page; it is recorded with the decision, as is the ACS's 3-D Secure result.
   */
  async completePayerAction(
    paymentId: string,
    approved: boolean,
    correlationId: string,
    browser?: BrowserAttributes,
  ): Promise<ExistingPayment> {
    const { state, version } = await loadState(this.deps.store, paymentStreamId(paymentId), paymentDecider);
    if (!state.exists) throw new DomainError('payment_not_found', 'Payment not found.');
    if (state.phase !== 'awaiting_3ds' && state.phase !== 'awaiting_redirect') return state;
    const outcome = await this.callAcquirer(() =>
      this.deps.connector.completePayerAction({
        paymentId,
        kind: state.phase === 'awaiting_3ds' ? '3ds' : 'redirect',
        approved,
        card: { expMonth: state.card.expMonth, expYear: state.card.expYear, brand: state.card.brand },
        amount: state.amount,
        currency: state.currency,
        saleKind: state.kind,
      }),
    );
    try {
      const result = await handleCommand(
        this.deps.store,
        paymentStreamId(paymentId),
        paymentDecider,
        {
          type: 'CompletePayerAction',
          data: {
            result: toAuthorizationResult(outcome),
            now: this.deps.clock.now().toISOString(),
            ...(outcome.outcome !== 'pending' && outcome.outcome !== 'unknown' && outcome.threeDS ? { threeDS: outcome.threeDS } : {}),
            ...(browser ? { browser } : {}),
          },
        },
        { correlationId, causationId: correlationId },
        { state, version },
      );
      return existing(result.state);
    } catch (error) {
      // A double submit from the payer's browser: the first one decided; show its result.
      if (error instanceof DomainError && error.code === 'unexpected_outcome') return this.current(paymentId);
      throw error;
    }
  }

  async expirePayerAction(paymentId: string, reason: string): Promise<void> {
    try {
      await handleCommand(this.deps.store, paymentStreamId(paymentId), paymentDecider, {
        type: 'ExpirePayerAction',
        data: { now: this.deps.clock.now().toISOString(), reason },
      });
    } catch (error) {
      // The payer came back just before the timeout: nothing to expire.
      if (error instanceof DomainError && error.code === 'unexpected_outcome') return;
      throw error;
    }
  }

  async capture(merchantId: string, paymentId: string, amount: { minor: number; text: string } | null, correlationId: string) {
    const operationId = randomUUID();
    const requested = await this.command(merchantId, paymentId, correlationId, {
      type: 'RequestCapture',
      data: { operationId, amount: amount?.minor, amountText: amount?.text, now: this.now() },
    });
    const s = existing(requested.state);
    const outcome = await this.callFollowUp(() =>
      this.deps.connector.capture({ paymentId, operationId, amount: s.pendingOperation!.amount, currency: s.currency, card: s.card }),
    );
    const recorded = await this.command(merchantId, paymentId, correlationId, {
      type: 'RecordCapture',
      data: { operationId, result: outcome, now: this.now() },
    }, requested);
    return { payment: existing(recorded.state), operationId, outcome, amountText: s.pendingOperation!.amountText };
  }

  async void(merchantId: string, paymentId: string, correlationId: string) {
    const operationId = randomUUID();
    const requested = await this.command(merchantId, paymentId, correlationId, {
      type: 'RequestVoid',
      data: { operationId, now: this.now() },
    });
    const s = existing(requested.state);
    const outcome = await this.callFollowUp(() =>
      this.deps.connector.void({ paymentId, operationId, amount: s.pendingOperation!.amount, currency: s.currency, card: s.card }),
    );
    const recorded = await this.command(merchantId, paymentId, correlationId, {
      type: 'RecordVoid',
      data: { operationId, result: outcome, now: this.now() },
    }, requested);
    return { payment: existing(recorded.state), operationId, outcome };
  }

  /**
   * CREDITVOID: a refund of a settled payment or the release of a hold, by the state it finds. With
   * `refundOnly` (Checkout refund), settled money only: a hold is never "refunded".
   */
  async creditVoid(
    merchantId: string,
    paymentId: string,
    amount: { minor: number; text: string },
    refundsEnabled: boolean,
    correlationId: string,
    { refundOnly = false }: { refundOnly?: boolean } = {},
  ) {
    const operationId = randomUUID();
    const data = { operationId, amount: amount.minor, amountText: amount.text, refundsEnabled, now: this.now() };
    const requested = await this.command(
      merchantId,
      paymentId,
      correlationId,
      refundOnly ? { type: 'RequestRefund', data } : { type: 'RequestCreditVoid', data },
    );
    const s = existing(requested.state);
    const op = s.pendingOperation!;
    const request = { paymentId, operationId, amount: op.amount, currency: s.currency, card: s.card };
    const outcome = await this.callFollowUp(() =>
      op.kind === 'refund' ? this.deps.connector.refund(request) : this.deps.connector.reverse(request),
    );
    const recorded = await this.command(merchantId, paymentId, correlationId, {
      type: 'RecordCreditVoid',
      data: { operationId, result: outcome, now: this.now() },
    }, requested);
    return { payment: existing(recorded.state), operationId, kind: op.kind, outcome };
  }

  /** Checkout refund: settled money only (a hold is voided instead), full or partial. */
  refund(merchantId: string, paymentId: string, amount: { minor: number; text: string }, refundsEnabled: boolean, correlationId: string) {
    return this.creditVoid(merchantId, paymentId, amount, refundsEnabled, correlationId, { refundOnly: true });
  }

  /**
   * Settles what a lost acquirer answer left open: an authorization still `initiated` (the process
   * stopped before recording the answer) or `outcome_unknown`, or a requested capture, void, refund
   * or reversal with no recorded outcome. The acquirer is asked what happened; nothing is re-sent.
   */
  async reconcile(paymentId: string): Promise<'authorization' | 'operation' | 'nothing'> {
    const streamId = paymentStreamId(paymentId);
    const { state, version } = await loadState(this.deps.store, streamId, paymentDecider);
    if (!state.exists) return 'nothing';
    const metadata = { correlationId: `reconcile-${paymentId}`, causationId: `reconcile-${paymentId}` };
    if (state.phase === 'initiated' || state.phase === 'outcome_unknown') {
      const outcome = await this.callAcquirer(() =>
        this.deps.connector.authorizationStatus({
          paymentId,
          kind: state.kind,
          amount: state.amount,
          currency: state.currency,
          card: { expMonth: state.card.expMonth, expYear: state.card.expYear },
          gatewayBaseUrl: this.deps.baseUrl,
        }),
      );
      await handleCommand(
        this.deps.store,
        streamId,
        paymentDecider,
        { type: 'RecordAuthorization', data: { result: toAuthorizationResult(outcome), now: this.now() } },
        metadata,
        { state, version },
      );
      return 'authorization';
    }
    const op = state.pendingOperation;
    if (!op) return 'nothing';
    const result = await this.callFollowUp(() =>
      this.deps.connector.followUpStatus(op.kind, {
        paymentId,
        operationId: op.operationId,
        amount: op.amount,
        currency: state.currency,
        card: state.card,
      }),
    );
    const data = { operationId: op.operationId, result, now: this.now() };
    const command =
      op.kind === 'capture'
        ? ({ type: 'RecordCapture', data } as const)
        : op.kind === 'void'
          ? ({ type: 'RecordVoid', data } as const)
          : ({ type: 'RecordCreditVoid', data } as const);
    await handleCommand(this.deps.store, streamId, paymentDecider, command, metadata, { state, version });
    return 'operation';
  }

  /** Current state straight from the stream (the source of truth), for the payer-facing pages. */
  async current(paymentId: string): Promise<ExistingPayment> {
    const { state } = await loadState(this.deps.store, paymentStreamId(paymentId), paymentDecider);
    if (!state.exists) throw new DomainError('payment_not_found', 'Payment not found.');
    return state;
  }

  private async command(
    merchantId: string,
    paymentId: string,
    correlationId: string,
    command: Parameters<typeof paymentDecider.decide>[0],
    known?: PaymentHandleResult,
  ): Promise<PaymentHandleResult> {
    const streamId = paymentStreamId(paymentId);
    const loaded = known ? { state: known.state, version: known.version } : await loadState(this.deps.store, streamId, paymentDecider);
    // Another merchant's payment is indistinguishable from a missing one.
    if (!loaded.state.exists || loaded.state.merchantId !== merchantId) {
      throw new DomainError('payment_not_found', 'Payment not found.');
    }
    return handleCommand(this.deps.store, streamId, paymentDecider, command, { correlationId, causationId: correlationId }, loaded);
  }

  /** The chain link PaymentInitiated records: an initial payment gets its token and schedule anchor here. */
  private recurringLinkOf(request: InternalSale, paymentId: string, now: string): RecurringLink | undefined {
    const schedule = request.schedule ? chainSchedule(request.schedule, request, now) : undefined;
    if (request.link) return { ...request.link, ...(schedule ? { schedule } : {}) };
    if (!request.recurringInit) return undefined;
    return {
      role: 'initial',
      initPaymentId: paymentId,
      token: randomBytes(24).toString('hex'),
      ...(schedule ? { schedule } : {}),
    };
  }

  /** A token stored by another merchant is answered as one that does not exist. */
  private async resolveCard(card: SaleCard, merchantId: string): Promise<CardData> {
    if (card.kind === 'number') {
      return { number: card.number, expMonth: card.expMonth, expYear: card.expYear, holder: card.holder };
    }
    const stored = await this.deps.vault.retrieve(card.token, merchantId);
    if (!stored) throw new CardTokenNotFoundError();
    return { number: stored.number, expMonth: stored.expMonth, expYear: stored.expYear, holder: card.holder ?? stored.holder };
  }

  private async replayOrReject(request: SaleRequest): Promise<ExistingPayment> {
    const { store, clock } = this.deps;
    const events = await store.readStream(orderStreamId(request.merchantId, request.orderId));
    const reserved = events.find((e) => e.type === 'OrderIdReserved');
    // An order number of a Checkout session is never a SALE's to replay.
    if (!reserved || (reserved.data as OrderIdReserved['data']).sessionId) throw new DuplicatePaymentError();
    const verdict = judgeRepeat(reserved.data as OrderIdReserved['data'], clock.now());
    if (verdict.kind === 'duplicate') throw new DuplicatePaymentError();
    // The original request may still be talking to the acquirer: wait for its outcome.
    const deadline = Date.now() + (this.deps.replayWaitMs ?? DUPLICATE_WINDOW_MS);
    for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
      const { state } = await loadState(store, paymentStreamId(verdict.paymentId), paymentDecider);
      if (state.exists && state.phase !== 'initiated') return state;
      if (Date.now() > deadline) {
        if (state.exists) return state;
        throw new DuplicatePaymentError();
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  private async callAcquirer(call: () => Promise<ConnectorOutcome>): Promise<ConnectorOutcome> {
    try {
      return await call();
    } catch (error) {
      this.deps.logger.error('acquirer call failed', { error: String((error as Error)?.message ?? error) });
      return { outcome: 'unknown', detail: 'acquirer call failed' };
    }
  }

  private async callFollowUp(call: () => Promise<FollowUpOutcome>): Promise<FollowUpResult> {
    try {
      return await call();
    } catch (error) {
      this.deps.logger.error('acquirer call failed', { error: String((error as Error)?.message ?? error) });
      return { outcome: 'unknown', detail: 'acquirer call failed' };
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** What sale() and begin() take beyond a merchant's SALE: the chain context of a recurring charge. */
type InternalSale = SaleRequest & {
  channel?: PaymentChannel;
  cardSource?: CardSource;
  payerPresent?: boolean;
  link?: RecurringLink;
  /** The chain's initial payment, for recurring and scheduled charges. */
  chain?: RecurringChain;
};

function chainSchedule(schedule: ScheduleRequest, request: { amount: number; amountText: string }, now: string): ChainSchedule {
  const anchor = anchorChain(schedule.rule, now.slice(0, 10), schedule.startDate ?? null);
  return {
    scheduleId: schedule.scheduleId,
    firstDueDate: anchor.firstDueDate,
    anchorDay: anchor.anchorDay,
    ...(schedule.startDate ? { startDate: schedule.startDate } : {}),
    amount: schedule.amount?.minor ?? request.amount,
    amountText: schedule.amount?.text ?? request.amountText,
    amountSent: schedule.amount !== undefined,
  };
}

/**
 * What every later charge of a chain shares: the chain's stored card, payer and currency, no payer
 * present, and callbacks signed the way the chain's first payment's were.
 */
function chainCharge(
  chain: RecurringChain,
  request: { kind: PaymentKind; orderId: string; orderDescription: string; amount: number; amountText: string; correlationId: string },
) {
  return {
    merchantId: chain.merchantId,
    kind: request.kind,
    orderId: request.orderId,
    orderDescription: request.orderDescription,
    currency: chain.currency,
    amount: request.amount,
    amountText: request.amountText,
    card: { kind: 'token' as const, token: chain.card.token! },
    payer: chain.payer,
    termUrl3ds: null,
    parameters: null,
    recurringInit: false,
    storeCard: false,
    correlationId: request.correlationId,
    cardSource: chain.cardSource ?? ('card_number' as CardSource),
    payerPresent: false,
    chain,
  };
}

/** What the connector is told about stored-card use (card-on-file discriminators). */
function cardOnFileRequest(request: InternalSale, link: RecurringLink | undefined): { cardOnFile?: CardOnFileRequest } {
  if (link?.role === 'initial') {
    return { cardOnFile: { sequence: 'initial', initiator: 'cardholder', recurring: true, requestReference: request.cardOnFileSupport === true } };
  }
  if (link) {
    const chain = request.chain;
    // The chain's reference, when its first payment got one from the connector.
    const reference = chain && chain.recurringToken !== chain.recurring.token ? chain.recurringToken : undefined;
    return {
      cardOnFile: {
        sequence: 'subsequent',
        initiator: 'merchant',
        recurring: true,
        requestReference: false,
        ...(reference ? { reference } : {}),
      },
    };
  }
  if (request.card.kind === 'token') {
    const initiator = request.payerPresent === false ? 'merchant' : 'cardholder';
    return { cardOnFile: { sequence: 'subsequent', initiator, recurring: false, requestReference: false } };
  }
  if (request.storeCard) return { cardOnFile: { sequence: 'initial', initiator: 'cardholder', recurring: false, requestReference: false } };
  return {};
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function existing(state: PaymentState): ExistingPayment {
  if (!state.exists) throw new DomainError('payment_not_found', 'Payment not found.');
  return state;
}

export function toAuthorizationResult(outcome: ConnectorOutcome): AuthorizationResult {
  switch (outcome.outcome) {
    case 'success':
      return {
        outcome: 'success',
        descriptor: outcome.descriptor,
        ...(outcome.rrn !== undefined ? { rrn: outcome.rrn } : {}),
        ...(outcome.arn !== undefined ? { arn: outcome.arn } : {}),
        ...(outcome.cardOnFileId !== undefined ? { cardOnFileId: outcome.cardOnFileId } : {}),
      };
    case 'declined':
      return { outcome: 'declined', reason: outcome.reason };
    case 'unknown':
      return { outcome: 'unknown', detail: outcome.detail };
    case 'pending':
      return outcome.action.kind === '3ds'
        ? {
            outcome: 'challenge',
            acsUrl: outcome.action.acsUrl,
            params: { PaReq: outcome.action.paReq, MD: outcome.action.md, TermUrl: outcome.action.termUrl },
          }
        : { outcome: 'redirect', redirectUrl: outcome.action.redirectUrl };
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}
