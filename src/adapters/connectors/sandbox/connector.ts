/**
 * The built-in sandbox acquirer. Outcomes are decided by the card's expiry date (scenarios.ts) so
 * merchants can script every path, including 3-D Secure and redirects, without a real issuer. Its
 * ACS and redirect pages are the gateway's sandbox simulator (src/api/sandbox-simulator), served
 * only where this connector is configured; `transformers.ts` holds what travels through them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorOutcome,
  FollowUpOutcome,
  FollowUpRequest,
  InboundNotification,
  PayerReturn,
  PayerReturnOutcome,
  PaymentRequest,
  StatusRequest,
} from '../../../application/ports/connector';
import { parseExpiry } from '../../../domain/card';
import type { PaymentKind } from '../../../domain/payment/events';
import {
  SANDBOX_DECLINE_REASONS,
  SANDBOX_DEFAULT_DESCRIPTOR,
  sandboxConversion,
  sandboxDeclinesStoredCharge,
  sandboxSupportsRecurring,
  scenarioOf,
  type Scenario,
} from './scenarios';
import {
  arn,
  authCode,
  challengeRedirect,
  newReference,
  providerRedirect,
  readPayerReturn,
  rrn,
  sandboxThreeDSResult,
  scenarioOfReference,
  signPaReq,
} from './transformers';

const MAX_DESCRIPTOR_LENGTH = 20;

export const SANDBOX_CAPABILITIES: ConnectorCapabilities = {
  methods: ['card'],
  currencies: 'any',
  dms: true,
  refundsViaApi: true,
  zeroAmount: true,
  cardOnFile: true,
  walletDecryption: true,
  payouts: true,
};

export interface SandboxConnectorOptions {
  /** Signs PaReq values and redirect links; at least 32 bytes. */
  secret: Buffer;
  /** Where the simulator's pages (ACS, provider redirect) are served: the gateway's public base URL. */
  simulatorBaseUrl: string;
  /** Soft descriptor on statements; at most 20 characters. */
  descriptor?: string;
  /** Simulated acquirer latency per call. */
  latencyMs?: number;
  /** Clock for the expiry check and PaReq timestamps. */
  now?: () => Date;
}

export class SandboxConnector implements Connector {
  readonly name = 'sandbox';
  readonly capabilities = SANDBOX_CAPABILITIES;
  private readonly secret: Buffer;
  private readonly simulatorBaseUrl: string;
  private readonly descriptor: string;
  private readonly latencyMs: number;
  private readonly now: () => Date;

  constructor(options: SandboxConnectorOptions) {
    if (!Buffer.isBuffer(options.secret) || options.secret.length < 32) {
      throw new RangeError('Sandbox secret must be at least 32 bytes');
    }
    const descriptor = options.descriptor ?? SANDBOX_DEFAULT_DESCRIPTOR;
    if (descriptor.length === 0 || descriptor.length > MAX_DESCRIPTOR_LENGTH) {
      throw new RangeError(`Descriptor must be 1 to ${MAX_DESCRIPTOR_LENGTH} characters`);
    }
    const latencyMs = options.latencyMs ?? 0;
    if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new RangeError('latencyMs must be >= 0');
    this.secret = Buffer.from(options.secret);
    this.simulatorBaseUrl = options.simulatorBaseUrl.replace(/\/+$/, '');
    this.descriptor = descriptor;
    this.latencyMs = latencyMs;
    this.now = options.now ?? (() => new Date());
  }

  /** With no latency configured no timer is created: this sits on the payment hot path. */
  private respond<T>(value: T): Promise<T> {
    if (this.latencyMs === 0) return Promise.resolve(value);
    return sleep(this.latencyMs).then(() => value);
  }

  /** A sale settles at once and so gets its ARN now; an authorization's comes with its capture. */
  private success(kind: PaymentKind, reference: string): ConnectorOutcome & { outcome: 'success' } {
    return {
      outcome: 'success',
      reference,
      descriptor: this.descriptor,
      authCode: authCode(),
      rrn: rrn(),
      ...(kind !== 'authorization' ? { arn: arn() } : {}),
    };
  }

  /** The 09/2038 card: settled in another currency at the sandbox's fixed rate (scenarios.ts). */
  private converted(request: PaymentRequest, reference: string): ConnectorOutcome & { outcome: 'success' } {
    return {
      ...this.success(request.kind, reference),
      conversion: sandboxConversion(request.amount, request.currency),
      extendedData: { fx_provider: 'SANDBOX-FX', fx_rate_date: this.now().toISOString().slice(0, 10) },
    };
  }

  private declined(reason: string, reference?: string): ConnectorOutcome {
    return { outcome: 'declined', reason, ...(reference ? { reference } : {}) };
  }

  /** The expiries that decline a payment (at once or after the payer's step) decline a payout. */
  payout(request: PaymentRequest): Promise<ConnectorOutcome> {
    if (request.instrument.kind !== 'card') return this.respond(this.declined('Payment method not supported by this acquirer'));
    const card = request.instrument.card;
    const expiry = parseExpiry(card.expMonth, card.expYear, this.now());
    if (!expiry.ok) return this.respond(this.declined(expiry.reason));
    const scenario = scenarioOf(card);
    const reference = newReference(scenario);
    switch (scenario) {
      case 'declined':
      case '3ds_declined':
      case 'redirect_declined':
        return this.respond(this.declined(SANDBOX_DECLINE_REASONS.issuer, reference));
      case 'converted':
        return this.respond(this.converted(request, reference));
      default:
        return this.respond(this.success('credit', reference));
    }
  }

  authorize(request: PaymentRequest): Promise<ConnectorOutcome> {
    if (request.instrument.kind !== 'card') return this.respond(this.declined('Payment method not supported by this acquirer'));
    const card = request.instrument.card;
    // The domain refuses past expiries before calling; this keeps the sandbox honest if it did not.
    const expiry = parseExpiry(card.expMonth, card.expYear, this.now());
    if (!expiry.ok) return this.respond(this.declined(expiry.reason));
    // The payer is here (their browser's attributes came along) but not their Accept header: refused
    // as the connectors that need it refuse it (spec Errors rule 3), before any scenario.
    if (request.browser && !request.browser.acceptHeaders?.trim()) return this.respond(this.declined(SANDBOX_DECLINE_REASONS.emptyAcceptHeader));
    const scenario = scenarioOf(card);
    const reference = newReference(scenario);
    const cof = request.cardOnFile;
    if (cof?.recurring && !sandboxSupportsRecurring(card)) {
      return this.respond(this.declined(SANDBOX_DECLINE_REASONS.notRecurring, reference));
    }
    // A merchant-initiated charge of a stored card is never challenged: the payer is not there.
    if (cof?.initiator === 'merchant') {
      if (sandboxDeclinesStoredCharge(request.amount)) return this.respond(this.declined(SANDBOX_DECLINE_REASONS.insufficientFunds, reference));
      return this.respond(this.withReference(this.success(request.kind, reference), cof));
    }
    // A wallet's device or network token carries its cryptogram: the payer authenticated on the
    // device, so the 3-D Secure expiries are decided without the ACS (a PAN_ONLY card takes its steps).
    if (card.wallet?.panType === 'DPAN' && (scenario === '3ds_success' || scenario === '3ds_declined')) {
      return this.respond(
        scenario === '3ds_success'
          ? this.withReference(this.success(request.kind, reference), cof)
          : this.declined(SANDBOX_DECLINE_REASONS.threeDsFailed, reference),
      );
    }
    switch (scenario) {
      case 'declined':
        return this.respond(this.declined(SANDBOX_DECLINE_REASONS.issuer, reference));
      case '3ds_success':
      case '3ds_declined': {
        const paReq = signPaReq(this.secret, {
          paymentId: request.paymentId,
          amount: request.amount,
          currency: request.currency,
          issuedAt: this.now().toISOString(),
          termUrl: request.returnUrl,
        });
        return this.respond({ outcome: 'redirect', reference, redirect: challengeRedirect(this.simulatorBaseUrl, paReq, request.paymentId, request.returnUrl) });
      }
      case 'redirect_success':
      case 'redirect_declined':
        return this.respond({
          outcome: 'redirect',
          reference,
          redirect: providerRedirect(this.secret, this.simulatorBaseUrl, request.paymentId, request.returnUrl),
        });
      case 'success':
      case 'capture_declined':
        return this.respond(this.withReference(this.success(request.kind, reference), cof));
      case 'converted':
        return this.respond(this.withReference(this.converted(request, reference), cof));
    }
  }

  /** The card-on-file reference a chain's later charges quote; it stays the chain's first one. */
  private withReference(outcome: ConnectorOutcome & { outcome: 'success' }, cof: PaymentRequest['cardOnFile']): ConnectorOutcome {
    if (!cof?.requestReference) return outcome;
    return { ...outcome, cardOnFileId: cof.reference ?? `cof_${outcome.reference.slice(-16)}` };
  }

  async completePayerAction(payerReturn: PayerReturn): Promise<PayerReturnOutcome> {
    const answer = readPayerReturn(this.secret, payerReturn.kind, payerReturn.paymentId, payerReturn.raw);
    if (!answer) return { verified: false };
    const reference = payerReturn.reference;
    const scenario: Scenario | null = scenarioOfReference(reference);
    const decided = (outcome: ConnectorOutcome): Promise<PayerReturnOutcome> => this.respond({ verified: true, outcome });
    if (payerReturn.kind === '3ds') {
      if (scenario !== '3ds_success' && scenario !== '3ds_declined') return decided(this.declined(SANDBOX_DECLINE_REASONS.mismatch, reference));
      // 06/2038 fails authentication whatever the payer pressed.
      const authenticated = scenario === '3ds_success' && answer.approved;
      const threeDS = sandboxThreeDSResult(authenticated, payerReturn.cardBrand);
      if (authenticated) return decided({ ...this.success(payerReturn.saleKind, reference), threeDS });
      const reason = scenario === '3ds_declined' ? SANDBOX_DECLINE_REASONS.threeDsFailed : SANDBOX_DECLINE_REASONS.threeDsRefused;
      return decided({ outcome: 'declined', reason, reference, threeDS });
    }
    if (scenario === 'redirect_declined') return decided(this.declined(SANDBOX_DECLINE_REASONS.redirectFailed, reference));
    if (scenario !== 'redirect_success') return decided(this.declined(SANDBOX_DECLINE_REASONS.mismatch, reference));
    return decided(answer.approved ? this.success(payerReturn.saleKind, reference) : this.declined(SANDBOX_DECLINE_REASONS.redirectCancelled, reference));
  }

  capture(request: FollowUpRequest): Promise<FollowUpOutcome> {
    if (scenarioOfReference(request.reference) === 'capture_declined') {
      return this.respond({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.capture });
    }
    return this.respond({ outcome: 'success', arn: arn() });
  }

  void(_request: FollowUpRequest): Promise<FollowUpOutcome> {
    return this.respond({ outcome: 'success' });
  }

  refund(_request: FollowUpRequest): Promise<FollowUpOutcome> {
    return this.respond({ outcome: 'success' });
  }

  reverse(_request: FollowUpRequest): Promise<FollowUpOutcome> {
    return this.respond({ outcome: 'success' });
  }

  /**
   * The sandbox keeps no records: it finds an unanswered transaction by what the gateway recorded
   * of the request, and its outcomes follow from the card's expiry, so the answer it would have
   * given is the answer it gives now.
   */
  status(request: StatusRequest): Promise<ConnectorOutcome> {
    if (!request.card) return this.respond({ outcome: 'unknown', detail: 'no such transaction' });
    const replay: PaymentRequest = {
      paymentId: request.paymentId,
      merchantId: '',
      kind: request.kind,
      amount: request.amount,
      currency: request.currency,
      instrument: {
        kind: 'card',
        card: {
          number: '',
          expMonth: request.card.expMonth,
          expYear: request.card.expYear,
          ...(request.card.panType ? { wallet: { wallet: '', panType: request.card.panType } } : {}),
        },
      },
      returnUrl: request.returnUrl,
    };
    return request.kind === 'credit' ? this.payout(replay) : this.authorize(replay);
  }

  followUpStatus(kind: 'capture' | 'void' | 'refund' | 'reversal', request: FollowUpRequest): Promise<FollowUpOutcome> {
    return kind === 'capture' ? this.capture(request) : this.respond({ outcome: 'success' });
  }

  /** The card sandbox decides every transaction while it is asked; it never notifies later. */
  async parseNotification(): Promise<InboundNotification> {
    return { verified: false };
  }
}
