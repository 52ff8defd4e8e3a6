/**
 * The Checkout use cases in one handle for the API and the composition root. Each use case lives
 * in a folder of its own (create-session, page-view, page-attempt, hosted-fields, cancel, retry,
 * ...); this class only binds them to the gateway's dependencies and the session stream.
 */
import type { AvailableMethod } from '../../domain/checkout/session-methods';
import type { ExistingSession } from '../../domain/checkout/session-state';
import type { BrowserAttributes } from '../../domain/payment/events';
import type { ExistingPayment } from '../../domain/payment/state';
import type { Wallet } from '../../domain/wallets/token-shape';
import type { MerchantAccount } from '../merchant-service';
import type { PayOutcome } from './attempt/command';
import { availableMethods } from './available-methods/handler';
import { cancel } from './cancel/handler';
import type { CardInput } from './card-input';
import type { CreatedSession, NewSession } from './create-session/command';
import { createSession } from './create-session/handler';
import type { CheckoutDeps, CheckoutServiceDeps } from './deps';
import { holdCardData } from './hosted-fields/card-data';
import type { ProcessingRequest } from './hosted-fields/command';
import { processHostedFields } from './hosted-fields/handler';
import type { MethodRequirements } from './method-requirements';
import type { OtpOutcome } from './one-time-code/command';
import { submitOtp } from './one-time-code/handler';
import type { PayInput, WalletPayInput, WalletPayOutcome } from './page-attempt/command';
import { pay } from './page-attempt/handler';
import { payWithWallet } from './page-attempt/wallet';
import { pageStatus, type PageStatus } from './page-status/handler';
import { pageModel } from './page-view/handler';
import type { CheckoutPageModel } from './page-view/model';
import type { PayerDestination } from './payer-destination';
import { afterPayerAction } from './payer-return/handler';
import type { CardDataAnswer } from './problems';
import type { RetryOutcome } from './retry/command';
import { retry } from './retry/handler';
import { pageUrl, tokenOf } from './session-links';
import { findSession, sessionByToken } from './session-lookup';
import { sessionStream } from './session-stream';
import { walletBrands } from './wallet-brands/handler';

export type { CheckoutServiceDeps } from './deps';
export type { PayOutcome } from './attempt/command';
export type { CardInput } from './card-input';
export type { CreatedSession, NewSession } from './create-session/command';
export { HostedFieldsError } from './hosted-fields/command';
export type { MethodRequirements } from './method-requirements';
export type { MethodStep } from './method-step';
export type { OtpOutcome } from './one-time-code/command';
export type { PayInput, WalletPayOutcome } from './page-attempt/command';
export { WALLET_LABELS, type PageMethod } from './page-methods';
export type { PageStatus } from './page-status/handler';
export type { CheckoutPageModel } from './page-view/model';
export type { PayerDestination } from './payer-destination';
export { STATE_COUNTRIES, needsBillingState } from './billing-state';
export type { CardDataAnswer, FieldName, FieldProblem, HostedFieldsRefusal, MethodFieldProblem, SessionEnding, SessionRefusal } from './problems';

export class CheckoutService {
  private readonly use: CheckoutDeps;

  constructor(private readonly deps: CheckoutServiceDeps) {
    this.use = { ...deps, sessions: sessionStream(deps.store) };
  }

  pageUrl(sessionId: string): string {
    return pageUrl(this.deps, sessionId);
  }

  tokenOf(sessionId: string): string {
    return tokenOf(this.deps, sessionId);
  }

  createSession(input: NewSession, correlationId: string): Promise<CreatedSession> {
    return createSession(this.use, input, correlationId);
  }

  availableMethods(merchant: MerchantAccount, session: MethodRequirements): AvailableMethod[] {
    return availableMethods(this.use, merchant, session);
  }

  session(sessionId: string): Promise<ExistingSession | null> {
    return findSession(this.use, sessionId);
  }

  /** The session a hosted payment fields token was issued for; null for a token not of ours. */
  sessionByToken(token: unknown): Promise<ExistingSession | null> {
    return sessionByToken(this.use, token);
  }

  pageModel(sessionId: string): Promise<CheckoutPageModel | null> {
    return pageModel(this.use, sessionId);
  }

  /** The payer submitted the hosted page's form. */
  pay(sessionId: string, input: PayInput, correlationId: string): Promise<PayOutcome | null> {
    return pay(this.use, sessionId, input, correlationId);
  }

  payWithWallet(sessionId: string, input: WalletPayInput, correlationId: string): Promise<WalletPayOutcome | null> {
    return payWithWallet(this.use, sessionId, input, correlationId);
  }

  submitOtp(sessionId: string, otp: string, correlationId: string, browser?: BrowserAttributes): Promise<OtpOutcome | null> {
    return submitOtp(this.use, sessionId, otp, correlationId, browser);
  }

  pageStatus(sessionId: string): Promise<PageStatus | null> {
    return pageStatus(this.use, sessionId);
  }

  walletBrands(session: ExistingSession): Promise<Wallet[]> {
    return walletBrands(this.use, session);
  }

  /** The payer pressed Cancel on the hosted page. */
  cancel(sessionId: string, correlationId: string): Promise<PayerDestination | null> {
    return cancel(this.use, sessionId, correlationId);
  }

  retry(merchantId: string, paymentId: string, correlationId: string): Promise<RetryOutcome> {
    return retry(this.use, { merchantId, paymentId, correlationId });
  }

  /** Where the payer goes once the ACS or redirect page decided a Checkout payment. */
  afterPayerAction(payment: ExistingPayment): Promise<PayerDestination> {
    return afterPayerAction(this.use, payment);
  }

  holdCardData(token: unknown, input: CardInput): Promise<CardDataAnswer> {
    return holdCardData(this.use, token, input);
  }

  processHostedFields(token: unknown, operation: 'purchase' | 'debit', input: ProcessingRequest, correlationId: string): Promise<ExistingPayment | null> {
    return processHostedFields(this.use, token, operation, input, correlationId);
  }
}
