/**
 * Checkout use cases: sessions, the payer's attempts on the hosted page or through hosted payment
 * fields, and where the payer goes next. Each attempt is a payment of its own, started by
 * PaymentService with the session's record of the attempt as its claim, so a double submit can
 * never reach the acquirer twice.
 */
import { merchantConnectors } from '../../domain/merchant/connectors';
import { WALLET_METHODS, isWalletMethod, methodEnabled } from '../../domain/merchant/methods';
import { WalletNotConfigured, WalletTokenMalformed, WalletTokenRefused } from '../../domain/wallets/refusals';
import { WALLETS, isWallet, type Wallet } from '../../domain/wallets/token-shape';
import { availableWalletBrands } from '../../domain/wallets/available-brands';
import { CARD_METHOD, type AvailableMethod } from '../../domain/checkout/session-methods';
import { fieldsToCollect, methodParameterIssues, type MethodDescription, type MethodField } from '../../domain/payment/method-fields';
import { payerTimeoutReason } from '../../domain/payment/payer-timeout';
import { randomUUID } from 'node:crypto';
import { newId } from '../new-id';
import { detectBrand, parseExpiry, validateCvv, validatePan } from '../../domain/card';
import { DomainError } from '../../domain/errors';
import { parseAmount } from '../../domain/money';
import { checkoutCallbackHash } from '../../domain/signatures';
import { returnParameters, withQueryParameters } from '../../domain/callback/return-url';
import type { FormFields } from '../../domain/callback/form-fields';
import { ORDER_EVENT_SCHEMA_VERSION, judgeRepeat, orderStreamId, type OrderIdReserved } from '../../domain/order/order-reservation';
import { decideSession, isExpired, MAX_ATTEMPTS, offeredMethods, paymentRefusal, sessionPaymentKind } from '../../domain/checkout/session-decide';
import { retryRefusal, type RetryRefusal } from '../../domain/checkout/retry';
import { storesCard } from '../../domain/payment/policy';
import {
  CHECKOUT_SESSION_EVENT_SCHEMA_VERSION,
  checkoutSessionStreamId,
  type CheckoutSessionCreated,
  type LinkTarget,
} from '../../domain/checkout/session-events';
import { evolveSession, initialSessionState, latestAttempt, type ExistingSession, type SessionState } from '../../domain/checkout/session-state';
import { sessionIdOfToken, sessionTokenFor } from '../../domain/checkout/session-token';
import type { BrowserAttributes, MethodSnapshot, PayerSnapshot } from '../../domain/payment/events';
import type { ExistingPayment, PayerAction, PaymentPhase } from '../../domain/payment/state';
import { handleCommand, loadState, toNewEvent } from '../command-handler';
import { sessionDecider } from '../../domain/checkout/session-decider';
import type { MerchantAccount } from '../merchant-service';
import { CardTokenNotFoundError, DuplicatePaymentError, type PaymentService, type SaleCard, type ScheduleRequest } from '../payments';
import type { CardVault } from '../ports/card-vault';
import type { Clock } from '../ports/clock';
import type { CardData } from '../ports/connector';
import { NO_STREAM, WrongExpectedVersionError, exactly, type EventMetadata, type EventStore } from '../ports/event-store';
import type { ScheduleService } from '../schedules/schedule-service';
import type { PendingCardData } from '../ports/pending-card-data';
import type { CheckoutSessionEvent } from '../../domain/checkout/session-events';
import type { CardDataAnswer, FieldProblem, HostedFieldsRefusal, MethodFieldProblem, SessionEnding } from './problems';

export type { CardDataAnswer, FieldName, FieldProblem, HostedFieldsRefusal, MethodFieldProblem, SessionEnding, SessionRefusal } from './problems';

/** Billing state is asked for (and checked) only for these countries (spec, Customer and addresses). */
export const STATE_COUNTRIES: readonly string[] = ['CA', 'US', 'JP', 'AU', 'IN'];

export const needsBillingState = (country: string | undefined): boolean =>
  !!country && STATE_COUNTRIES.includes(country.toUpperCase());

export type NewSession = Omit<CheckoutSessionCreated['data'], 'sessionId' | 'expiresAt' | 'createdAt'> & {
  /** `session_expiry`, minutes. */
  expiryMinutes: number;
};

export interface CreatedSession {
  session: ExistingSession;
  redirectUrl: string;
  /** Hosted payment fields token (`Token` header of the processing request). */
  token: string;
  /** True when this request repeated an order number within the duplicate window. */
  replayed: boolean;
}

/** Where the payer's browser goes next. */
export type PayerDestination =
  /** Back to the merchant (success, cancel, error, expiry or return URL) with the return parameters. */
  | { kind: 'merchant'; url: string; target: LinkTarget | null }
  /** The hosted page again (a decline to retry, a payment being confirmed). */
  | { kind: 'page'; url: string }
  /** The 3DS ACS (auto-posted form) or the redirect page of the acquirer. */
  | { kind: 'payer_action'; action: PayerAction }
  /** Nothing to go back to: the merchant gave no URL for this ending. */
  | ({ kind: 'closed' } & SessionEnding);

export interface CardInput {
  /** Absent when the session credits a stored card (`card_token`). */
  number?: string;
  expMonth: string;
  /** Two or four digits. */
  expYear: string;
  /** Absent for a credit: a payout never asks for the CVV. */
  cvv?: string;
  holder?: string;
}

export interface PayInput {
  /** The method the payer chose on the page (one of the session's); absent: the card. */
  method?: string;
  /** The card's fields; absent when an alternative method is chosen. */
  card?: CardInput;
  /** What the page collected for an alternative method, by the method's field names (`phone`, `bankDetails[cbu]`). */
  methodFields?: Record<string, string>;
  billing?: { country?: string; state?: string };
  email?: string;
  browser?: BrowserAttributes;
  /** The payer's address as the gateway saw it (used when the session has no `customer.ip`). */
  payerIp: string;
}

/** How paying with a wallet on the page went: as any attempt, or refused (the spec's code and message) before one started. */
export type WalletPayOutcome = PayOutcome | { kind: 'wallet_refused'; code: number; message: string };

/** What the page calls each wallet. */
export const WALLET_LABELS: Readonly<Record<Wallet, string>> = { applepay: 'Apple Pay', googlepay: 'Google Pay' };

export type PayOutcome =
  | { kind: 'invalid'; problems: FieldProblem[] }
  /** An alternative method's fields the payer left out or got wrong, or a method that cannot be chosen (now). */
  | { kind: 'invalid_method'; method: string; problems: MethodFieldProblem[] }
  | { kind: 'done'; payment: ExistingPayment | null; next: PayerDestination };

/** A method the page offers: its identifier, what it is called, and what the page asks the payer for it. */
export interface PageMethod {
  method: string;
  /** The catalogue's kind of method in words (`QR code`); `Card` for the card. */
  label: string;
  /** Fields collected from the payer because the merchant did not send them. */
  collect: MethodField[];
}

/**
 * The step of an alternative method the hosted page shows itself while its provider decides:
 * - `qr`: the QR code (its payload, Base64) to scan, and when it expires;
 * - `otp`: the one-time code's entry (where the code went; the sandbox tells its code);
 * - `details`: payment details to transfer to, and the provider's page should the payer want it;
 * - `confirm`: the payer confirms elsewhere (an app, a bank); a crypto deposit's address and network.
 */
export type MethodStep =
  | { kind: 'qr'; method: PageMethod; qrCode: string; expiresAt: string | null }
  | { kind: 'otp'; method: PageMethod; phone: string | null; testCode: string | null }
  | { kind: 'details'; method: PageMethod; details: Record<string, string>; providerUrl: string }
  | { kind: 'confirm'; method: PageMethod; instructions: Record<string, string> | null; expiresAt: string | null };

/** What the hosted page's poll is told: whether the payer still waits here, and for how long a QR code lasts. */
export interface PageStatus {
  waiting: boolean;
  /** Seconds until the provider gives up on the payer (a QR code), while waiting for it. */
  expiresIn?: number;
}

/** The payer's one-time code, as the connector took it. */
export type OtpOutcome = { kind: 'wrong_code'; step: MethodStep } | { kind: 'done'; next: PayerDestination };

export interface CheckoutPageModel {
  session: ExistingSession;
  merchantName: string;
  /**
   * `form`: collect card data or a method's fields (again, after a decline); `processing`: an
   * attempt awaits the acquirer; `method_step`: the page shows an alternative method's step
   * (`step`) while its provider decides; otherwise `next` says where the payer goes.
   */
  view: 'form' | 'processing' | 'method_step' | 'elsewhere';
  next?: PayerDestination;
  /** What the payer may choose from, in the session's order. */
  methods: PageMethod[];
  /** The method of the latest attempt (`card` for a card), null before the first: the page offers it again first. */
  lastMethod?: string | null;
  step?: MethodStep;
  /** The latest attempt was declined: the acquirer's reason, when it gave one, is shown above the form. */
  lastDecline: { reason: string | null } | null;
  attemptsLeft: number;
  /** What the form asks for. */
  needs: { cardNumber: boolean; cvv: boolean; billingState: boolean };
  /** A `credit` of a stored card: its mask (the payer confirms the expiry). */
  storedCardMask: string | null;
  /** Prefilled cardholder / payee name. */
  holderName: string;
}

/** A hosted payment fields processing request that cannot be processed; the API words the refusal. */
export class HostedFieldsError extends Error {
  constructor(readonly refusal: HostedFieldsRefusal) {
    super(`Hosted payment fields request refused: ${refusal.problem}`);
    this.name = 'HostedFieldsError';
  }
}

export interface CheckoutServiceDeps {
  store: EventStore;
  payments: PaymentService;
  merchants: { accountById(merchantId: string): Promise<MerchantAccount | undefined> };
  vault: CardVault;
  clock: Clock;
  baseUrl: string;
  /** Key of the hosted payment fields tokens. */
  tokenSecret: Buffer;
  pendingCards: PendingCardData;
  /** The rule a `recurring_init` session's schedule_id names, read when the payer pays. */
  schedules: Pick<ScheduleService, 'info'>;
}


export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceDeps) {}

  pageUrl(sessionId: string): string {
    return `${this.deps.baseUrl}/checkout/${sessionId}`;
  }

  tokenOf(sessionId: string): string {
    return sessionTokenFor(this.deps.tokenSecret, sessionId);
  }

  async createSession(input: NewSession, correlationId: string): Promise<CreatedSession> {
    const { store, clock } = this.deps;
    if (input.cardToken && !(await this.deps.vault.retrieve(input.cardToken, input.merchantId))) throw new CardTokenNotFoundError();
    // `schedule_not_found` for a schedule the merchant does not have (or deleted).
    if (input.schedule) await this.deps.schedules.info(input.merchantId, input.schedule.scheduleId);
    // A session none of the merchant's connectors could pay is refused now, not on the payer's page.
    const merchant = await this.merchant(input.merchantId);
    if (input.methods.length === 0) throw new DomainError('no_capable_connector', 'Payment action not supported');
    if (input.methods.includes(CARD_METHOD)) this.deps.payments.assertRoutable(merchantConnectors(merchant), this.requirements(input, CARD_METHOD));
    const sessionId = randomUUID();
    const now = clock.now();
    const metadata: EventMetadata = { correlationId, causationId: correlationId };
    const { expiryMinutes, ...data } = input;
    const events = decideSession(
      {
        type: 'CreateSession',
        data: {
          ...data,
          sessionId,
          expiresAt: new Date(now.getTime() + expiryMinutes * 60_000).toISOString(),
          now: now.toISOString(),
          merchantPaymentMode: merchant.paymentMode,
        },
      },
      initialSessionState(),
    );
    const reservation: OrderIdReserved = {
      type: 'OrderIdReserved',
      data: { merchantId: input.merchantId, orderId: input.order.number, paymentId: sessionId, sessionId, reservedAt: now.toISOString() },
    };
    const orderStream = orderStreamId(input.merchantId, input.order.number);
    try {
      await store.appendMultiple([
        { streamId: orderStream, events: [toNewEvent(reservation, ORDER_EVENT_SCHEMA_VERSION, metadata)], expected: NO_STREAM },
        {
          streamId: checkoutSessionStreamId(sessionId),
          events: events.map((e) => toNewEvent(e, CHECKOUT_SESSION_EVENT_SCHEMA_VERSION, metadata)),
          expected: NO_STREAM,
        },
      ]);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || error.streamId !== orderStream) throw error;
      return this.replayOrReject(input.merchantId, input.order.number);
    }
    const session = events.reduce(evolveSession, initialSessionState()) as ExistingSession;
    return { session, redirectUrl: this.pageUrl(sessionId), token: this.tokenOf(sessionId), replayed: false };
  }

  /**
   * What a session of this merchant could be paid with now: the card, then each alternative method
   * the merchant takes, each only where one of its connectors can take such a payment (currency,
   * kind, amount, chain), then the wallets it takes (offered only where the session names them:
   * session-methods.ts). Card first, then the connectors' order.
   */
  availableMethods(merchant: MerchantAccount, session: MethodRequirements): AvailableMethod[] {
    const connectors = merchantConnectors(merchant);
    const routable = (method: string): boolean => {
      try {
        this.deps.payments.assertRoutable(connectors, this.requirements(session, method));
        return true;
      } catch (error) {
        if (error instanceof DomainError && error.code === 'no_capable_connector') return false;
        throw error;
      }
    };
    const methods = this.deps.payments.offeredMethods().filter((m) => !isWalletMethod(m) && methodEnabled(merchant, m) && routable(m));
    // A wallet: its virtual flow (a connector offering it) or its card flow (a connector taking
    // cards the gateway decrypted; the keys are looked at when the payer pays). The merchant sends
    // nothing for it: the token comes from the payer's wallet.
    const cardFlow = (): boolean => {
      try {
        this.deps.payments.assertRoutable(connectors, { ...this.requirements(session, CARD_METHOD), walletDecryption: true });
        return true;
      } catch (error) {
        if (error instanceof DomainError && error.code === 'no_capable_connector') return false;
        throw error;
      }
    };
    const wallets = WALLET_METHODS.filter((w) => methodEnabled(merchant, w) && (routable(w) || cardFlow()));
    return [
      ...(routable(CARD_METHOD) ? [{ method: CARD_METHOD, description: null }] : []),
      ...methods.map((method) => ({ method, description: this.deps.payments.describeMethod(connectors, method)! })),
      ...wallets.map((method) => ({ method, description: null })),
    ];
  }

  private requirements(session: MethodRequirements, method: string) {
    return { method, currency: session.order.currency, kind: sessionPaymentKind(session), amount: session.order.amount, recurring: session.recurringInit };
  }

  /** A repeat of an order number within the window gets the original session back. */
  private async replayOrReject(merchantId: string, orderNumber: string): Promise<CreatedSession> {
    const events = await this.deps.store.readStream(orderStreamId(merchantId, orderNumber));
    const reserved = events.find((e) => e.type === 'OrderIdReserved')?.data as OrderIdReserved['data'] | undefined;
    if (!reserved?.sessionId || judgeRepeat(reserved, this.deps.clock.now()).kind === 'duplicate') {
      throw new DuplicatePaymentError();
    }
    const session = await this.session(reserved.sessionId);
    if (!session) throw new DuplicatePaymentError();
    return { session, redirectUrl: this.pageUrl(session.sessionId), token: this.tokenOf(session.sessionId), replayed: true };
  }

  async session(sessionId: string): Promise<ExistingSession | null> {
    const { state } = await loadState(this.deps.store, checkoutSessionStreamId(sessionId), sessionDecider);
    return state.exists ? state : null;
  }

  /** The session a hosted payment fields token was issued for; null for a token not of ours. */
  async sessionByToken(token: unknown): Promise<ExistingSession | null> {
    const sessionId = sessionIdOfToken(this.deps.tokenSecret, token);
    return sessionId ? this.session(sessionId) : null;
  }

  async pageModel(sessionId: string): Promise<CheckoutPageModel | null> {
    const loaded = await loadState(this.deps.store, checkoutSessionStreamId(sessionId), sessionDecider);
    if (!loaded.state.exists) return null;
    let session = loaded.state;
    const merchant = await this.merchant(session.merchantId);
    const latest = await this.expireDueStep(await this.latestPayment(session));
    const now = this.deps.clock.now().toISOString();
    const methods = this.pageMethods(session, merchant, await this.payableWallets(session, merchant));
    const stored = session.cardToken ? await this.deps.vault.retrieve(session.cardToken, session.merchantId) : null;
    const base = {
      merchantName: merchant.name,
      lastDecline: latest?.phase === 'declined' ? { reason: latest.declineReason ?? null } : null,
      attemptsLeft: Math.max(0, MAX_ATTEMPTS - session.attempts.length),
      needs: {
        cardNumber: !session.cardToken,
        cvv: session.operation !== 'credit',
        billingState: needsBillingState(session.billingAddress.country),
      },
      storedCardMask: stored ? `${stored.number.slice(0, 6)}******${stored.number.slice(-4)}` : null,
      // The request's payee names win over the name stored with the card (spec, card credit).
      holderName: this.holderNameOf(session) || stored?.holder || '',
      methods,
      lastMethod: latest ? (latest.method?.brand ?? CARD_METHOD) : null,
    };
    const refusal = paymentRefusal(session, latest?.phase ?? null, now);
    if (!refusal) return { ...base, session, view: 'form' };
    if (refusal.code === 'session_expired' && session.status === 'open') {
      session = await this.recordExpiry(session, loaded.version);
    }
    if (refusal.code === 'payment_in_progress' && latest && (latest.phase === 'initiated' || latest.phase === 'outcome_unknown')) {
      return { ...base, session, view: 'processing' };
    }
    const step = refusal.code === 'payment_in_progress' && latest ? this.stepOf(latest, methods) : null;
    if (step) return { ...base, session, view: 'method_step', step };
    return { ...base, session, view: 'elsewhere', next: await this.destination(session, latest, merchant) };
  }

  /** The payer submitted the hosted page's form. */
  async pay(sessionId: string, input: PayInput, correlationId: string): Promise<PayOutcome | null> {
    const loaded = await loadState(this.deps.store, checkoutSessionStreamId(sessionId), sessionDecider);
    if (!loaded.state.exists) return null;
    const session = loaded.state;
    const method = input.method ?? CARD_METHOD;
    if (method !== CARD_METHOD) return this.payWithMethod(session, loaded.version, method, input, correlationId);
    const problems: FieldProblem[] = [];
    const card = await this.cardOf(session, input.card ?? { expMonth: '', expYear: '' }, problems);
    const country = session.billingAddress.country ?? input.billing?.country;
    const billingState = needsBillingState(country) ? (session.billingAddress.state ?? input.billing?.state?.trim()) : undefined;
    if (needsBillingState(country) && !billingState) problems.push({ field: 'billing_state', problem: 'missing' });
    if (problems.length || !card) return { kind: 'invalid', problems };
    const payer = this.payerOf(session, { ip: input.payerIp, email: input.email, country, state: billingState });
    return this.attempt(session, loaded.version, { card }, payer, correlationId, input.browser);
  }

  /**
   * The payer chose an alternative method: what the page collected for it (the fields its provider
   * collects from the payer when the merchant did not send them) is checked with the method's own
   * rules, each now required, then added to the session's `parameters.<method_id>` for the payment.
   */
  private async payWithMethod(session: ExistingSession, version: bigint | null, method: string, input: PayInput, correlationId: string): Promise<PayOutcome> {
    const merchant = await this.merchant(session.merchantId);
    // A wallet pays with its token, from its own button (payWithWallet), never from a method form.
    const description = !isWalletMethod(method) && offeredMethods(session).includes(method) && methodEnabled(merchant, method)
      ? this.deps.payments.describeMethod(merchantConnectors(merchant), method)
      : null;
    if (!description) return { kind: 'invalid_method', method, problems: [{ field: null, problem: 'unavailable' }] };
    const payer = this.payerOf(session, { ip: input.payerIp, email: input.email });
    const sent = this.methodParametersOf(session, method);
    const collect = fieldsToCollect(description, sent, { phone: payer.phone, country: payer.country });
    const { values, problems } = collectedValues(description, collect, input.methodFields ?? {});
    if (problems.length) return { kind: 'invalid_method', method, problems };
    const parameters = { ...sent, ...values };
    // What the merchant sent passed this check when the session was created; the whole set is checked once more as the provider gets it.
    if (methodParameterIssues(description, parameters, { phone: payer.phone, country: payer.country }).length) {
      return { kind: 'invalid_method', method, problems: [{ field: null, problem: 'unavailable' }] };
    }
    return this.attempt(session, version, { method: { brand: method, parameters } }, payer, correlationId, input.browser);
  }

  /**
   * The payer paid with a wallet on this session's page (docs/wallets.md#checkout): the token pays in the
   * card flow where the merchant has the wallet's keys and a connector taking decrypted cards, else
   * in the virtual flow (Checkout falls back). A token refused, or a wallet no flow can pay, starts
   * no attempt: the payer is told and may pay another way.
   */
  async payWithWallet(
    sessionId: string,
    input: { wallet: Wallet; token: string; payerIp: string; browser?: BrowserAttributes },
    correlationId: string,
  ): Promise<WalletPayOutcome | null> {
    const loaded = await loadState(this.deps.store, checkoutSessionStreamId(sessionId), sessionDecider);
    if (!loaded.state.exists) return null;
    const session = loaded.state;
    const merchant = await this.merchant(session.merchantId);
    if (!offeredMethods(session).includes(input.wallet) || !methodEnabled(merchant, input.wallet)) {
      return { kind: 'wallet_refused', code: 204018, message: 'Payment digital wallet not supported' };
    }
    let paying: Awaited<ReturnType<PaymentService['walletInstrument']>>;
    try {
      paying = await this.deps.payments.walletInstrument({
        merchantId: session.merchantId,
        clientKey: merchant.clientKey,
        wallet: input.wallet,
        token: input.token,
        flows: 'card_or_virtual',
        connectors: merchantConnectors(merchant),
        currency: session.order.currency,
        kind: sessionPaymentKind(session),
        amount: session.order.amount,
        recurringInit: session.recurringInit,
        // The payment records the wallet as its method in either flow (checkout_payment_method).
        method: {},
        correlationId,
      });
    } catch (error) {
      if (error instanceof WalletTokenRefused || error instanceof WalletNotConfigured || error instanceof WalletTokenMalformed) {
        return { kind: 'wallet_refused', code: error.errorCode, message: error.errorMessage };
      }
      if (error instanceof DomainError && (error.code === 'no_capable_connector' || error.code === 'action_not_supported')) {
        return { kind: 'wallet_refused', code: 204005, message: 'Payment action not supported' };
      }
      throw error;
    }
    const payer = this.payerOf(session, { ip: input.payerIp });
    const instrument = paying.flow === 'card' ? { card: paying.card, ...(paying.method ? { method: paying.method } : {}) } : { method: paying.method, walletToken: paying.walletToken };
    return this.attempt(session, loaded.version, instrument, payer, correlationId, input.browser);
  }

  /**
   * The payer typed the one-time code the method's provider sent: it goes to the payment's
   * connector as the payer's return from the provider's step, for the connector to verify. A code
   * that does not verify decides nothing: the page asks again.
   */
  async submitOtp(sessionId: string, otp: string, correlationId: string, browser?: BrowserAttributes): Promise<OtpOutcome | null> {
    const session = await this.session(sessionId);
    if (!session) return null;
    const merchant = await this.merchant(session.merchantId);
    const latest = await this.latestPayment(session);
    const step = latest ? this.stepOf(latest, this.pageMethods(session, merchant)) : null;
    if (!latest || step?.kind !== 'otp') return { kind: 'done', next: await this.destination(session, latest, merchant) };
    let payment: ExistingPayment;
    try {
      payment = await this.deps.payments.completePayerAction(latest.paymentId, { query: {}, body: { otp } }, correlationId, browser);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'payer_return_invalid') return { kind: 'wrong_code', step };
      throw error;
    }
    return { kind: 'done', next: await this.destination(session, payment, merchant) };
  }

  /**
   * What the hosted page's poll is told (the session's id is its only credential, as for the page
   * itself): whether the payer still waits on this page for the latest attempt, which is the case
   * while the acquirer has not answered or an alternative method's step is shown here. A QR code
   * whose minute ran out is declined now rather than at the expiry worker's next pass.
   */
  async pageStatus(sessionId: string): Promise<PageStatus | null> {
    const session = await this.session(sessionId);
    if (!session) return null;
    const latest = await this.expireDueStep(await this.latestPayment(session));
    if (!latest) return { waiting: false };
    if (latest.phase === 'initiated' || latest.phase === 'outcome_unknown') return { waiting: true };
    const merchant = await this.merchant(session.merchantId);
    const step = this.stepOf(latest, this.pageMethods(session, merchant));
    if (!step) return { waiting: false };
    const expiresAt = latest.expiresAt ? Date.parse(latest.expiresAt) : null;
    return { waiting: true, ...(expiresAt !== null ? { expiresIn: Math.max(0, Math.ceil((expiresAt - this.deps.clock.now().getTime()) / 1000)) } : {}) };
  }

  /**
   * A payer's step whose provider deadline passed (a QR code's minute) is declined as the expiry
   * worker would decline it; the payment as it stands after that.
   */
  private async expireDueStep(latest: ExistingPayment | null): Promise<ExistingPayment | null> {
    if (!latest?.expiresAt || Date.parse(latest.expiresAt) > this.deps.clock.now().getTime()) return latest;
    if (latest.phase !== 'awaiting_3ds' && latest.phase !== 'awaiting_redirect' && latest.phase !== 'awaiting_provider') return latest;
    await this.deps.payments.expirePayerAction(latest.paymentId, payerTimeoutReason(latest.phase, latest.payerAction?.display === 'qr'));
    return this.deps.payments.current(latest.paymentId);
  }

  /**
   * The wallets of the session the merchant takes and some flow can pay now (its keys, its
   * connectors), in the session's order: the page's wallet buttons and the SDK's brands, alike.
   */
  private async payableWallets(session: ExistingSession, merchant: MerchantAccount): Promise<Wallet[]> {
    const payable = new Set<Wallet>();
    for (const wallet of WALLETS) {
      if (offeredMethods(session).includes(wallet) && (await this.deps.payments.walletPayable(merchant.merchantId, merchantConnectors(merchant), wallet))) payable.add(wallet);
    }
    return availableWalletBrands({ merchant, sessionMethods: offeredMethods(session), payable: (w) => payable.has(w) });
  }

  /**
   * What the Checkout SDK's `getAvailableBrands()` starts from (docs/wallets.md#the-checkout-sdk): the wallets the
   * session's page offers now, none once the session can no longer be paid (paid, in progress,
   * cancelled, expired, out of attempts), as its page then shows no form.
   */
  async walletBrands(session: ExistingSession): Promise<Wallet[]> {
    if (paymentRefusal(session, (await this.latestPayment(session))?.phase ?? null, this.now())) return [];
    return this.payableWallets(session, await this.merchant(session.merchantId));
  }

  /**
   * The session's methods the page can offer: each with its name and what the payer is asked for
   * it. A wallet only where `wallets` (the payable ones) has it; absent, where only the steps of
   * alternative methods are asked for, the wallets the merchant takes.
   */
  private pageMethods(session: ExistingSession, merchant: MerchantAccount, wallets?: readonly Wallet[]): PageMethod[] {
    const connectors = merchantConnectors(merchant);
    const phone = session.billingAddress.phone;
    const country = session.billingAddress.country;
    return offeredMethods(session).flatMap((method): PageMethod[] => {
      if (method === CARD_METHOD) return [{ method, label: 'Card', collect: [] }];
      if (isWallet(method)) return methodEnabled(merchant, method) && (wallets?.includes(method) ?? true) ? [{ method, label: WALLET_LABELS[method], collect: [] }] : [];
      const description = this.deps.payments.describeMethod(connectors, method);
      if (!description) return [];
      return [{ method, label: description.kind, collect: fieldsToCollect(description, this.methodParametersOf(session, method), { phone, country }) }];
    });
  }

  /** `parameters.<method_id>` of the session (an object, checked when the session was created). */
  private methodParametersOf(session: ExistingSession, method: string): Record<string, unknown> {
    const value = session.parameters?.[method];
    return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  }

  /** The step the hosted page shows itself for this payment, when it is an alternative method's step the page can show. */
  private stepOf(payment: ExistingPayment, methods: readonly PageMethod[]): MethodStep | null {
    if (!payment.method || !payment.checkout) return null;
    const method = methods.find((m) => m.method === payment.method!.brand) ?? { method: payment.method.brand, label: payment.method.brand, collect: [] };
    const instructions = payment.providerInstructions ?? null;
    if (payment.phase === 'awaiting_provider') return { kind: 'confirm', method, instructions, expiresAt: payment.expiresAt ?? null };
    if (payment.phase !== 'awaiting_redirect' || !payment.payerAction) return null;
    const action = payment.payerAction;
    if (action.display === 'qr' && action.params.qr_code) return { kind: 'qr', method, qrCode: action.params.qr_code, expiresAt: payment.expiresAt ?? null };
    if (action.collects === 'otp') return { kind: 'otp', method, phone: instructions?.phone ?? null, testCode: instructions?.test_code ?? null };
    if (instructions && Object.keys(instructions).length) return { kind: 'details', method, details: instructions, providerUrl: action.url };
    return null;
  }

  /** The payer pressed Cancel on the hosted page. */
  async cancel(sessionId: string, correlationId: string): Promise<PayerDestination | null> {
    const loaded = await loadState(this.deps.store, checkoutSessionStreamId(sessionId), sessionDecider);
    if (!loaded.state.exists) return null;
    const latest = await this.latestPayment(loaded.state);
    let session = loaded.state;
    try {
      const result = await handleCommand(
        this.deps.store,
        checkoutSessionStreamId(sessionId),
        sessionDecider,
        { type: 'CancelSession', data: { latestPhase: latest?.phase ?? null, now: this.now() } },
        { correlationId, causationId: correlationId },
        loaded,
      );
      session = result.state as ExistingSession;
    } catch (error) {
      if (!(error instanceof DomainError) && !(error instanceof WrongExpectedVersionError)) throw error;
      // Paid (or being paid) meanwhile: the payer goes where that payment says.
      session = (await this.session(sessionId)) ?? session;
    }
    return this.destination(session, await this.latestPayment(session), await this.merchant(session.merchantId));
  }

  /**
   * `POST /api/v1/payment/retry`: a declined attempt's card, stored when it was made, is charged
   * again without the payer, as the session's next attempt (retry.ts says when it may be). Null for
   * a payment that is not this merchant's (or none at all).
   */
  async retry(merchantId: string, paymentId: string, correlationId: string): Promise<{ refusal: RetryRefusal | null } | null> {
    let payment: ExistingPayment;
    try {
      payment = await this.deps.payments.current(paymentId);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'payment_not_found') return null;
      throw error;
    }
    if (payment.merchantId !== merchantId) return null;
    const loaded = payment.checkout ? await loadState(this.deps.store, checkoutSessionStreamId(payment.checkout.sessionId), sessionDecider) : null;
    const session = loaded?.state.exists ? loaded.state : null;
    const latest = session ? await this.latestPayment(session) : null;
    const refusal = retryRefusal(payment, session, latest?.phase ?? null, this.now());
    if (refusal || !session) return { refusal };
    const card: SaleCard = { kind: 'token', token: payment.card!.token! };
    const outcome = await this.attempt(session, loaded!.version, { card }, payment.payer, correlationId, undefined, false);
    // No new attempt (the session changed since it was read, e.g. the payer paid meanwhile): say why.
    const started = outcome.kind === 'done' && outcome.payment && !session.attempts.includes(outcome.payment.paymentId);
    if (!started) {
      const current = (await this.session(session.sessionId)) ?? session;
      const refusal = retryRefusal(payment, current, (await this.latestPayment(current))?.phase ?? null, this.now());
      return { refusal: refusal ?? retryRefusal(payment, current, 'initiated', this.now()) };
    }
    return { refusal: null };
  }

  /** Where the payer goes once the ACS or redirect page decided a Checkout payment. */
  async afterPayerAction(payment: ExistingPayment): Promise<PayerDestination> {
    const session = payment.checkout ? await this.session(payment.checkout.sessionId) : null;
    if (!session) return { kind: 'closed', ending: 'finished' };
    return this.destination(session, payment, await this.merchant(session.merchantId));
  }

  /** Hosted payment fields: the gateway's iframes hand over what the payer typed. */
  async holdCardData(token: unknown, input: CardInput): Promise<CardDataAnswer> {
    const session = await this.sessionByToken(token);
    if (!session || !session.hostedFields) return { held: false, refusal: 'invalid_token' };
    const refusal = paymentRefusal(session, (await this.latestPayment(session))?.phase ?? null, this.now());
    if (refusal) return { held: false, refusal: 'session', code: refusal.code };
    const problems: FieldProblem[] = [];
    // The cardholder's name arrives later, as `name` of the merchant's processing request.
    const card = await this.cardOf(session, input, problems, { holderRequired: false });
    if (!card || card.kind !== 'number' || problems.length) return { held: false, refusal: 'invalid_card', problems };
    await this.deps.pendingCards.hold(session.sessionId, {
      number: card.number,
      expMonth: card.expMonth,
      expYear: card.expYear,
      cvv: card.cvv,
      holder: card.holder,
    });
    return { held: true };
  }

  /**
   * `POST /api/v1/processing/{purchase,debit}/card`: pays with the card the iframes handed over, and
   * answers with the attempt's payment (null: none was started). Throws HostedFieldsError for a
   * request that cannot be processed (bad token, wrong endpoint, no card data).
   */
  async processHostedFields(
    token: unknown,
    operation: 'purchase' | 'debit',
    input: {
      name: string;
      email?: string;
      birthDay?: string;
      billing?: ExistingSession['billingAddress'];
      browser?: BrowserAttributes;
      callerIp: string;
    },
    correlationId: string,
  ): Promise<ExistingPayment | null> {
    const sessionId = sessionIdOfToken(this.deps.tokenSecret, token);
    const loaded = sessionId ? await loadState(this.deps.store, checkoutSessionStreamId(sessionId), sessionDecider) : null;
    if (!loaded?.state.exists || !loaded.state.hostedFields) throw new HostedFieldsError({ problem: 'invalid_token' });
    const session = loaded.state;
    if (session.operation !== operation) throw new HostedFieldsError({ problem: 'wrong_operation', operation: session.operation });
    const refusal = paymentRefusal(session, (await this.latestPayment(session))?.phase ?? null, this.now());
    if (refusal) throw new HostedFieldsError({ problem: 'session', code: refusal.code });
    const held: CardData | null = await this.deps.pendingCards.take(session.sessionId);
    if (!held) throw new HostedFieldsError({ problem: 'no_card_data' });
    const card: SaleCard = { kind: 'number', number: held.number, expMonth: held.expMonth, expYear: held.expYear, cvv: held.cvv, holder: input.name };
    const billing = { ...session.billingAddress, ...(input.billing ?? {}) };
    const payer = this.payerOf(
      { ...session, billingAddress: billing },
      { ip: input.callerIp, email: input.email, birthDate: input.birthDay, country: billing.country, state: needsBillingState(billing.country) ? billing.state : undefined },
    );
    const outcome = await this.attempt(session, loaded.version, { card }, payer, correlationId, input.browser);
    return outcome.kind === 'done' ? outcome.payment : null;
  }

  private async attempt(
    session: ExistingSession,
    version: bigint | null,
    /** A card (a wallet's decrypted one with the wallet as its method), or a method (a wallet's token in the virtual flow). */
    paying: { card: SaleCard; method?: MethodSnapshot } | { method: MethodSnapshot; walletToken?: string },
    payer: PayerSnapshot,
    correlationId: string,
    browser?: BrowserAttributes,
    /** False for the merchant's retry: the stored card is charged without the payer. */
    payerPresent = true,
  ): Promise<PayOutcome> {
    const merchant = await this.merchant(session.merchantId);
    const latest = await this.latestPayment(session);
    const paymentId = newId();
    let events: CheckoutSessionEvent[];
    try {
      const method = paying.method ? paying.method.brand : CARD_METHOD;
      events = decideSession({ type: 'StartPayment', data: { paymentId, latestPhase: latest?.phase ?? null, now: this.now(), method } }, session);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      let current = session;
      if (error.code === 'session_expired' && session.status === 'open') current = await this.recordExpiry(session, version);
      return { kind: 'done', payment: latest, next: await this.destination(current, latest, merchant) };
    }
    const started = events[0];
    const attempt = started.type === 'CheckoutPaymentStarted' ? started.data.attempt : session.attempts.length + 1;
    const metadata: EventMetadata = { correlationId, causationId: correlationId };
    const kind = sessionPaymentKind(session);
    const schedule = await this.chainScheduleOf(session);
    let payment: ExistingPayment;
    try {
      payment = await this.deps.payments.startCheckoutPayment(
        {
          paymentId,
          merchantId: session.merchantId,
          kind,
          orderId: session.order.number,
          orderDescription: session.order.description,
          currency: session.order.currency,
          amount: session.order.amount,
          amountText: session.order.amountText,
          ...paying,
          payer,
          termUrl3ds: null,
          notificationUrl: session.notificationUrl,
          customData: session.customData,
          // The session's parameters go with the card; a method's own set travels with the method.
          parameters: 'card' in paying ? session.parameters : null,
          recurringInit: session.recurringInit,
          ...(schedule ? { schedule } : {}),
          cardOnFileSupport: merchant.cardOnFileSupport === true,
          connectors: merchantConnectors(merchant),
          // A wallet's decrypted card is vaulted (the card flow); its token in the virtual flow keeps nothing.
          storeCard:
            'card' in paying &&
            (paying.card.kind === 'wallet' ||
              storesCard({ cardSource: paying.card.kind === 'number' ? 'card_number' : 'card_token', kind, reqToken: session.reqToken, recurringInit: session.recurringInit })),
          correlationId,
          ...(browser ? { browser } : {}),
          ...(payerPresent ? {} : { payerPresent: false }),
          checkout: {
            sessionId: session.sessionId,
            operation: session.operation,
            attempt,
            hostedFields: session.hostedFields,
            ...(session.customer.name ? { customerName: session.customer.name } : {}),
          },
        },
        {
          streamId: checkoutSessionStreamId(session.sessionId),
          events: events.map((e) => toNewEvent(e, CHECKOUT_SESSION_EVENT_SCHEMA_VERSION, metadata)),
          expected: version === null ? NO_STREAM : exactly(version),
        },
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      // Another submit of this session won the race: the payer sees where that one stands.
      const current = (await this.session(session.sessionId)) ?? session;
      const other = await this.latestPayment(current);
      return { kind: 'done', payment: other, next: this.pageOrOn(current, other) };
    }
    // The session as appended with the attempt: no need to read it back.
    const after = events.reduce(evolveSession, session as SessionState) as ExistingSession;
    return { kind: 'done', payment, next: await this.destination(after, payment, merchant) };
  }

  /**
   * The schedule a `recurring_init` session's chain follows, with the rule as it stands now. A
   * schedule deleted since the session was created leaves a chain without one (the payer still
   * pays), and a `schedule_start_date` that passed while the payer took their time gives way to
   * the rule's own first-payment delay rather than a charge due at once.
   */
  private async chainScheduleOf(session: ExistingSession): Promise<ScheduleRequest | undefined> {
    const wanted = session.schedule;
    if (!session.recurringInit || !wanted) return undefined;
    let rule: ScheduleRequest['rule'];
    try {
      rule = (await this.deps.schedules.info(session.merchantId, wanted.scheduleId)).rule;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'schedule_not_found') return undefined;
      throw error;
    }
    const today = this.now().slice(0, 10);
    const amount = wanted.paymentAmountText === undefined ? null : parseAmount(wanted.paymentAmountText, session.order.currency);
    return {
      scheduleId: wanted.scheduleId,
      rule,
      ...(wanted.startDate && wanted.startDate > today ? { startDate: wanted.startDate } : {}),
      ...(amount?.ok ? { amount: { minor: amount.minor, text: wanted.paymentAmountText! } } : {}),
    };
  }

  private pageOrOn(session: ExistingSession, payment: ExistingPayment | null): PayerDestination {
    if (payment && (payment.phase === 'awaiting_3ds' || payment.phase === 'awaiting_redirect') && payment.payerAction && !shownOnPage(payment)) {
      return { kind: 'payer_action', action: payment.payerAction };
    }
    return { kind: 'page', url: this.pageUrl(session.sessionId) };
  }

  /** Where a payer of this session goes, given how its latest attempt stands. */
  private async destination(session: ExistingSession, latest: ExistingPayment | null, merchant: MerchantAccount): Promise<PayerDestination> {
    const now = this.now();
    const urls = session.urls;
    const back = (url: string | null, payment: ExistingPayment | null, closed: SessionEnding): PayerDestination =>
      url
        ? { kind: 'merchant', url: this.withReturnParameters(url, session, payment, merchant), target: merchant.overrideLinkTarget ?? session.urlTarget }
        : { kind: 'closed', ...closed };
    const phase = latest?.phase ?? null;
    // An alternative method's step the hosted page shows itself (a QR code, a one-time code, payment details, a wait).
    if (latest && shownOnPage(latest)) return { kind: 'page', url: this.pageUrl(session.sessionId) };
    if (phase === 'awaiting_3ds' || phase === 'awaiting_redirect') return { kind: 'payer_action', action: latest!.payerAction! };
    if (phase === 'initiated' || phase === 'outcome_unknown') return { kind: 'page', url: this.pageUrl(session.sessionId) };
    if (phase !== null && phase !== 'declined') {
      return back(session.hostedFields ? (urls.return ?? urls.success) : urls.success, latest, { ending: 'paid' });
    }
    if (session.hostedFields && latest) {
      // Hosted payment fields: the merchant's page shows the decline (it also has the callback).
      return back(urls.return ?? urls.error ?? urls.cancel, latest, { ending: 'declined', declineReason: latest.declineReason ?? null });
    }
    if (session.status === 'cancelled') {
      return back(urls.cancel, latest, { ending: 'cancelled' });
    }
    if (session.status === 'expired' || isExpired(session, now)) {
      return back(urls.expiry ?? urls.cancel, latest, { ending: 'expired' });
    }
    if (session.attempts.length >= MAX_ATTEMPTS) {
      return back(urls.error ?? urls.cancel, latest, { ending: 'not_completed' });
    }
    return { kind: 'page', url: this.pageUrl(session.sessionId) };
  }

  /**
   * `payment_id`, `trans_id`, `order_id` and `hash` (spec Events item 8: always appended), then the
   * merchant's return parameters. Before any attempt (a cancel, an expiry) there is no payment: the
   * two ids are appended empty, and the `hash` is computed over those very values (the empty id,
   * then the session's order), so the merchant checks it as for any return; the return parameters
   * describe a payment and are left out with it.
   */
  private withReturnParameters(url: string, session: ExistingSession, payment: ExistingPayment | null, merchant: MerchantAccount): string {
    const order = payment
      ? { number: payment.orderId, amountText: payment.amountText, currency: payment.currency, description: payment.orderDescription }
      : session.order;
    const hash = checkoutCallbackHash({
      id: payment?.paymentId ?? '',
      orderNumber: order.number,
      orderAmount: order.amountText,
      orderCurrency: order.currency,
      orderDescription: order.description,
      password: merchant.password,
    });
    const params: FormFields = payment
      ? [
          ['payment_id', payment.paymentId],
          ['trans_id', payment.paymentId],
          ['order_id', payment.orderId],
          ['hash', hash],
          ...returnParameters(payment, merchant.protocolMapping),
        ]
      : [
          ['payment_id', ''],
          ['trans_id', ''],
          ['order_id', session.order.number],
          ['hash', hash],
        ];
    return withQueryParameters(url, params);
  }

  private async cardOf(
    session: ExistingSession,
    input: CardInput,
    problems: FieldProblem[],
    { holderRequired = true }: { holderRequired?: boolean } = {},
  ): Promise<SaleCard | null> {
    const now = this.deps.clock.now();
    const year = /^\d{2}$/.test(input.expYear ?? '') ? `20${input.expYear}` : input.expYear;
    const expiry = parseExpiry(String(input.expMonth ?? ''), String(year ?? ''), now);
    if (!expiry.ok) problems.push({ field: 'card_expiry', problem: 'invalid' });
    const holder = input.holder?.trim() || this.holderNameOf(session) || undefined;
    if (session.cardToken) {
      const stored = await this.deps.vault.retrieve(session.cardToken, session.merchantId);
      if (!stored) {
        problems.push({ field: 'card_number', problem: 'stored_card_unavailable' });
        return null;
      }
      if (expiry.ok && (stored.expMonth !== expiry.expMonth || stored.expYear !== expiry.expYear)) {
        problems.push({ field: 'card_expiry', problem: 'not_the_stored_cards' });
      }
      return expiry.ok && !problems.length ? { kind: 'token', token: session.cardToken, ...(holder ? { holder } : {}) } : null;
    }
    const number = (input.number ?? '').replace(/[\s-]/g, '');
    if (!validatePan(number).ok) problems.push({ field: 'card_number', problem: 'invalid' });
    const needsCvv = session.operation !== 'credit';
    const brand = detectBrand(number);
    if (needsCvv && !validateCvv(input.cvv ?? '', brand).ok) {
      problems.push({ field: 'card_cvv', problem: 'invalid', digits: brand === 'AMEX' ? 4 : brand === 'UNKNOWN' ? null : 3 });
    }
    if (!holder && holderRequired) problems.push({ field: 'card_holder', problem: 'missing' });
    if (problems.length || !expiry.ok) return null;
    return { kind: 'number', number, expMonth: expiry.expMonth, expYear: expiry.expYear, cvv: needsCvv ? input.cvv : undefined, holder };
  }

  private payerOf(
    session: ExistingSession,
    seen: { ip: string; email?: string; birthDate?: string; country?: string; state?: string },
  ): PayerSnapshot {
    const b = session.billingAddress;
    const c = session.customer;
    const payer: PayerSnapshot = {
      email: c.email ?? seen.email,
      birthDate: c.birthDate ?? seen.birthDate,
      country: seen.country ?? b.country,
      state: seen.state,
      city: b.city,
      address: b.address,
      zip: b.zip,
      phone: b.phone,
      houseNumber: b.houseNumber,
      district: b.district,
      // customer.ip wins; else the address the gateway saw (spec, customer.ip).
      ip: c.ip ?? seen.ip,
    };
    for (const key of Object.keys(payer) as (keyof PayerSnapshot)[]) if (payer[key] === undefined || payer[key] === '') delete payer[key];
    return payer;
  }

  /** For a credit, the payee; else the customer. Empty when the merchant sent neither. */
  private holderNameOf(session: ExistingSession): string {
    const p = session.payee;
    const payee = p ? (p.name ?? [p.firstName, p.lastName].filter(Boolean).join(' ')) : '';
    return payee || (session.operation === 'credit' && session.cardToken ? '' : session.customer.name || '');
  }

  private async latestPayment(session: ExistingSession): Promise<ExistingPayment | null> {
    const id = latestAttempt(session);
    if (!id) return null;
    try {
      return await this.deps.payments.current(id);
    } catch (error) {
      // Where the store cannot append the attempt and its payment in one transaction, a crash between
      // them leaves an attempt without a payment: it never reached the acquirer, so the payer may retry.
      if (error instanceof DomainError && error.code === 'payment_not_found') return null;
      throw error;
    }
  }

  private async recordExpiry(session: ExistingSession, version: bigint | null): Promise<ExistingSession> {
    try {
      const result = await handleCommand(
        this.deps.store,
        checkoutSessionStreamId(session.sessionId),
        sessionDecider,
        { type: 'ExpireSession', data: { now: this.now() } },
        { correlationId: `expire-${session.sessionId}`, causationId: `expire-${session.sessionId}` },
        { state: session, version },
      );
      return result.state as ExistingSession;
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) return (await this.session(session.sessionId)) ?? session;
      throw error;
    }
  }

  private async merchant(merchantId: string): Promise<MerchantAccount> {
    const merchant = await this.deps.merchants.accountById(merchantId);
    if (!merchant) throw new DomainError('merchant_not_found', `Merchant ${merchantId} not found`);
    return merchant;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** What a Checkout session's methods depend on: its kind of payment, its money, whether it starts a chain. */
export type MethodRequirements = Pick<ExistingSession, 'operation' | 'auth' | 'recurringInit'> & { order: Pick<ExistingSession['order'], 'currency' | 'amount'> };

/**
 * Whether the hosted page shows a Checkout payment's current step itself rather than sending the
 * payer to the provider: a method payment waiting on its provider (the payer confirms elsewhere),
 * or on a provider page showing a QR code, taking a one-time code or showing payment details.
 */
function shownOnPage(p: ExistingPayment): boolean {
  if (!p.method || !p.checkout) return false;
  if (p.phase === 'awaiting_provider') return true;
  if (p.phase !== 'awaiting_redirect' || !p.payerAction) return false;
  const a = p.payerAction;
  return (a.display === 'qr' && !!a.params.qr_code) || a.collects === 'otp' || Object.keys(p.providerInstructions ?? {}).length > 0;
}

/**
 * The payer's values of the fields the page collected for a method (`bankDetails[cbu]` goes into
 * the nested set), checked with the method's rules, each collected field now required.
 */
function collectedValues(
  description: MethodDescription,
  collect: readonly MethodField[],
  typed: Record<string, string>,
): { values: Record<string, unknown>; problems: MethodFieldProblem[] } {
  const values: Record<string, unknown> = {};
  for (const field of collect) {
    const value = typed[field.name]?.trim();
    if (!value) continue;
    const nested = /^([^[]+)\[([^\]]+)\]$/.exec(field.name);
    if (nested) values[nested[1]] = { ...((values[nested[1]] as Record<string, string>) ?? {}), [nested[2]]: value };
    else values[field.name] = value;
  }
  const asked = new Set(collect.map((f) => f.name.split('[')[0]));
  const rules = { ...description, fields: description.fields.filter((f) => asked.has(f.name)).map((f) => ({ ...f, presence: 'required' as const })) };
  const labelOf = (path: readonly string[]): string => {
    const top = description.fields.find((f) => f.name === path[0]);
    const member = path.length > 1 ? top?.fields?.find((f) => f.name === path[1]) : undefined;
    return member?.label ?? top?.label ?? path.join(' ');
  };
  const problems = methodParameterIssues(rules, values).map((issue): MethodFieldProblem => ({
    field: issue.path.length > 1 ? `${issue.path[0]}[${issue.path[1]}]` : issue.path[0]!,
    label: labelOf(issue.path),
    problem: issue.message === 'This value should not be blank.' ? 'missing' : 'invalid',
    detail: issue.message,
  }));
  return { values, problems };
}

