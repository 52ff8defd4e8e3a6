/**
 * The payment use cases in one handle for the API, the scheduler and the workers. Each use case
 * lives in a folder of its own (start-payment, sale, recurring, follow-ups, payer-action,
 * reconcile); this class only binds them to the gateway's dependencies.
 */
import type { BrowserAttributes, CheckoutPaymentData } from '../../domain/payment/events';
import type { ExistingPayment } from '../../domain/payment/state';
import type { PaymentDeps } from './deps';
import { routeOf } from './start-payment/route';
import type { RouteRequirements } from '../../domain/routing/route';
import { existing } from './existing';
import { capture, creditVoid, voidPayment } from './follow-ups/handler';
import { completePayerAction, expirePayerAction, type RawPayerReturn } from './payer-action/handler';
import { connectorsOffering, describeMethod, offeredMethods } from './methods';
import { acceptNotification, type NotificationResult, type RawNotification } from './notification/handler';
import type { MethodDescription } from '../../domain/payment/method-fields';
import type { Wallet } from '../../domain/wallets/token-shape';
import { paymentStream } from './payment-stream';
import { reconcile } from './reconcile/handler';
import { recurringChain, recurringPayment, startScheduledPayment } from './recurring/handler';
import { cardSale } from './sale/card-sale';
import type { SaleChecks } from './sale/checks';
import type { CardSaleCommand, MethodSaleCommand, Parsed } from './sale/command';
import type { SaleForm } from './sale/form-fields';
import { sale } from './sale/handler';
import type { MerchantTerms } from './sale/merchant-terms';
import { methodSale } from './sale/method-sale';
import { parseMethodSale } from './sale/parse-method-sale';
import { startPayment, type Claim } from './start-payment/handler';
import { walletInstrument, walletPayable, walletSale, type WalletInstrument, type WalletPaymentRequest, type WalletSaleRequest } from './wallet/handler';
import type { InternalSale, RecurringChain, RecurringRequest, SaleRequest, SaleResult, ScheduledPaymentRequest } from './types';

type Money = { minor: number; text: string };

export class PaymentService {
  constructor(private readonly deps: PaymentDeps) {}

  /** Refuses (`no_capable_connector`) a payment none of these connectors could take, before anything is recorded. */
  assertRoutable(connectors: readonly string[], requirements: RouteRequirements): void {
    routeOf(this.deps.connectors, connectors, requirements);
  }

  /** An S2S CARD SALE, parsed (parseCardSale) and its hash checked. */
  cardSale(command: CardSaleCommand, checks: SaleChecks): Promise<SaleResult> {
    return cardSale(this.deps, command, checks);
  }

  /** The one parse of an S2S APM SALE: its brand is looked up among this deployment's connectors. */
  parseMethodSale(form: SaleForm, terms: MerchantTerms, correlationId: string): Parsed<MethodSaleCommand> {
    return parseMethodSale(this.deps.connectors, form, terms, correlationId);
  }

  /** An S2S APM SALE, parsed (parseMethodSale) and its hash checked. */
  methodSale(command: MethodSaleCommand, checks: SaleChecks): Promise<SaleResult> {
    return methodSale(this.deps, command, checks);
  }

  /** A SALE with a card or an alternative method (S2S APM: `method` and channel `s2s_apm`). */
  sale(request: InternalSale): Promise<SaleResult> {
    return sale(this.deps, request);
  }

  /**
   * An S2S wallet SALE (docs/wallets.md#paying-with-a-wallet): S2S CARD's `digital_wallet` + `payment_token` (card flow
   * only), S2S APM's wallet brand (card flow, else the virtual flow).
   */
  walletSale(request: WalletSaleRequest): Promise<SaleResult> {
    return walletSale(this.deps, request);
  }

  /**
   * How a wallet token would pay (card flow with the card opened, or virtual flow), for a caller
   * that starts the payment itself: Checkout spreads it into startCheckoutPayment's request, whose
   * session claim then commits together with the token's one-time record.
   */
  walletInstrument(request: WalletPaymentRequest): Promise<WalletInstrument> {
    return walletInstrument(this.deps, request);
  }

  /** Whether either wallet flow could pay `wallet` for this merchant (its route `connectors`). */
  walletPayable(merchantId: string, connectors: readonly string[], wallet: Wallet): Promise<boolean> {
    return walletPayable(this.deps, merchantId, connectors, wallet);
  }

  /** Every alternative method identifier the deployment's connectors offer. */
  offeredMethods(): string[] {
    return offeredMethods(this.deps.connectors);
  }

  /** Which of `connectors` (a merchant's, in order) offer `method`. */
  connectorsOffering(connectors: readonly string[], method: string): string[] {
    return connectorsOffering(this.deps.connectors, connectors, method);
  }

  /** The parameters `method` takes with the first of `connectors` offering it; null when none does. */
  describeMethod(connectors: readonly string[], method: string): MethodDescription | null {
    return describeMethod(this.deps.connectors, connectors, method);
  }

  /** A provider's later notification, as it arrived, for the named connector to authenticate. */
  acceptNotification(connector: string, raw: RawNotification, correlationId: string): Promise<NotificationResult> {
    return acceptNotification(this.deps, connector, raw, correlationId);
  }

  /**
   * A Checkout payment attempt. `claim` is the session's record of the attempt, appended together
   * with the payment (where the store can) at the session version the caller decided on, so two
   * submits of one session never both reach the connector: the loser gets WrongExpectedVersionError.
   */
  startCheckoutPayment(request: SaleRequest & { paymentId: string; checkout: CheckoutPaymentData; browser?: BrowserAttributes }, claim: Claim): Promise<ExistingPayment> {
    return startPayment(this.deps, request, request.paymentId, claim, 'checkout');
  }

  recurringChain(merchantId: string, initPaymentId: string, token: string, kind: 'sale' | 'debit' | 'any'): Promise<RecurringChain> {
    return recurringChain(this.deps, merchantId, initPaymentId, token, kind);
  }

  recurringPayment(chain: RecurringChain, request: RecurringRequest): Promise<SaleResult> {
    return recurringPayment(this.deps, chain, request);
  }

  startScheduledPayment(request: ScheduledPaymentRequest, claim: Claim | null): Promise<ExistingPayment> {
    return startScheduledPayment(this.deps, request, claim);
  }

  /** Finishes a scheduled payment whose claim was written without it (an interrupted EventStoreDB append). */
  async paymentExists(paymentId: string): Promise<boolean> {
    return (await this.deps.store.streamVersion(paymentStream(this.deps.store).streamId(paymentId))) !== null;
  }

  completePayerAction(paymentId: string, raw: RawPayerReturn, correlationId: string, browser?: BrowserAttributes): Promise<ExistingPayment> {
    return completePayerAction(this.deps, paymentId, raw, correlationId, browser);
  }

  expirePayerAction(paymentId: string, reason: string): Promise<void> {
    return expirePayerAction(this.deps, paymentId, reason);
  }

  capture(merchantId: string, paymentId: string, amount: Money | null, correlationId: string) {
    return capture(this.deps, merchantId, paymentId, amount, correlationId);
  }

  void(merchantId: string, paymentId: string, correlationId: string) {
    return voidPayment(this.deps, merchantId, paymentId, correlationId);
  }

  creditVoid(merchantId: string, paymentId: string, amount: Money, refundsEnabled: boolean, correlationId: string, options: { refundOnly?: boolean } = {}) {
    return creditVoid(this.deps, merchantId, paymentId, amount, refundsEnabled, correlationId, options);
  }

  /** Checkout refund: settled money only (a hold is voided instead), full or partial. */
  refund(merchantId: string, paymentId: string, amount: Money, refundsEnabled: boolean, correlationId: string) {
    return creditVoid(this.deps, merchantId, paymentId, amount, refundsEnabled, correlationId, { refundOnly: true });
  }

  reconcile(paymentId: string): Promise<'authorization' | 'operation' | 'nothing'> {
    return reconcile(this.deps, paymentId);
  }

  /** Current state straight from the stream (the source of truth), for the payer-facing pages. */
  async current(paymentId: string): Promise<ExistingPayment> {
    return existing((await paymentStream(this.deps.store).load(paymentId)).state);
  }
}
