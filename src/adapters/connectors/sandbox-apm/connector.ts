/**
 * The sandbox's alternative-method provider ("sandbox-apm"): every method kind of the catalogue as
 * a sandbox method (catalogue.ts), so merchants can try S2S APM end to end. Outcomes
 * (docs/apm.md#how-the-sandbox-decides) follow the payer's email, else the SALE's `identifier`: `success@gmail.com` settles at once
 * (an authorization is held), `fail@gmail.com` is declined; anyone else goes through the method's
 * flow on the simulated provider page (`/sandbox/provider/{trans_id}`), whose decision reaches the
 * gateway as this provider's signed notification. Stateless like the card sandboxes: its references
 * remember the flow, its links and notifications carry their own signatures (transformers.ts).
 */
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorOutcome,
  FollowUpOutcome,
  FollowUpRequest,
  InboundNotification,
  PayerReturn,
  PayerReturnOutcome,
  PayerRedirect,
  PaymentRequest,
  StatusRequest,
} from '../../../application/ports/connector';
import { timingSafeEqual } from 'node:crypto';
import { formatMinor } from '../../../domain/money';
import type { MethodDescription } from '../../../domain/payment/method-fields';
import { SANDBOX_METHOD_IDS, SANDBOX_OTP, sandboxMethod } from './catalogue';
import type { SandboxMethod } from './sandbox-method';
import {
  SANDBOX_APM_DECLINE_REASON,
  cryptoDeposit,
  newReference,
  outcomeOfStatus,
  pageRedirect,
  providerPageUrl,
  qrCodeValue,
  qrPayload,
  readNotification,
  readPayerReturn,
} from './transformers';

export const SANDBOX_APM_NAME = 'sandbox-apm';
export const SANDBOX_APM_DESCRIPTOR = 'SANDBOX*APM';
/** docs/apm.md#how-the-sandbox-decides and the spec's Limits: a QR code lives one minute by default. */
export const DEFAULT_QR_LIFETIME_SECONDS = 60;
/** The account a bank transfer of the sandbox's payment-details method goes to. */
export const SANDBOX_BENEFICIARY = 'SANDBOX PROVIDER';
export const SANDBOX_IBAN = 'XX00 SBOX 0000 0000 0000 00';

/** The payer emails (or identifiers) that decide at once. */
export const SANDBOX_APM_SUCCESS = 'success@gmail.com';
export const SANDBOX_APM_FAIL = 'fail@gmail.com';

export const SANDBOX_APM_CAPABILITIES: ConnectorCapabilities = {
  methods: SANDBOX_METHOD_IDS,
  currencies: 'any',
  // None of its methods holds funds: S2S APM holds are for wallets (docs/apm.md#after-the-sale).
  dms: false,
  refundsViaApi: true,
  zeroAmount: false,
  cardOnFile: false,
  walletDecryption: false,
  payouts: false,
};

export interface SandboxApmConnectorOptions {
  /** Signs page links, the payer's returns and notifications; at least 32 bytes. */
  secret: Buffer;
  /** Where the simulated provider page is served: the gateway's public base URL. */
  simulatorBaseUrl: string;
  now?: () => Date;
  qrLifetimeSeconds?: number;
}

/** A one-time code as typed, against the one sent, in constant time. */
function sameCode(typed: string, sent: string): boolean {
  const a = Buffer.from(typed.trim(), 'utf8');
  const b = Buffer.from(sent, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What the provider's page shows or takes beside Approve / Decline, for a page of the gateway's own
 * standing in for it: the one-time code's entry (where it went, and the sandbox's code), or the
 * payment details to transfer to.
 */
function pageStep(method: SandboxMethod, request: PaymentRequest): Pick<PayerRedirect, 'instructions' | 'collects'> {
  const instrument = request.instrument.kind === 'method' ? request.instrument : null;
  const parameters = instrument?.parameters ?? {};
  if (method.page === 'otp') {
    const phone = typeof parameters.phone === 'string' && parameters.phone ? parameters.phone : request.payerPhone;
    return { collects: 'otp', instructions: { ...(phone ? { phone } : {}), test_code: SANDBOX_OTP } };
  }
  if (method.page === 'details') {
    return { instructions: { beneficiary: SANDBOX_BENEFICIARY, iban: SANDBOX_IBAN, reference: request.paymentId, amount: `${formatMinor(request.amount, request.currency)} ${request.currency}` } };
  }
  if (method.vocabulary === 'bank' && method.flow === 'redirect') {
    // The account the provider collects from, as the merchant named it, and the transfer's reference.
    return { instructions: { bank_code: String(parameters.bank_code ?? ''), bank_account_number: String(parameters.bank_account_number ?? ''), reference: request.paymentId } };
  }
  return {};
}

export class SandboxApmConnector implements Connector {
  readonly name = SANDBOX_APM_NAME;
  readonly capabilities = SANDBOX_APM_CAPABILITIES;
  private readonly secret: Buffer;
  private readonly baseUrl: string;
  private readonly now: () => Date;
  private readonly qrLifetimeMs: number;

  constructor(options: SandboxApmConnectorOptions) {
    if (!Buffer.isBuffer(options.secret) || options.secret.length < 32) throw new RangeError('Sandbox APM secret must be at least 32 bytes');
    this.secret = Buffer.from(options.secret);
    this.baseUrl = options.simulatorBaseUrl.replace(/\/+$/, '');
    this.now = options.now ?? (() => new Date());
    this.qrLifetimeMs = (options.qrLifetimeSeconds ?? DEFAULT_QR_LIFETIME_SECONDS) * 1000;
  }

  describeMethod(method: string): MethodDescription | null {
    return sandboxMethod(method);
  }

  async authorize(request: PaymentRequest): Promise<ConnectorOutcome> {
    const instrument = request.instrument;
    const method = instrument.kind === 'method' ? sandboxMethod(instrument.method) : null;
    if (instrument.kind !== 'method' || !method) return { outcome: 'declined', reason: 'Payment method not supported by this provider' };
    const reference = newReference(method.flow);
    const decided = this.decidedAtOnce(request.payerEmail ?? instrument.identifier, reference);
    if (decided) return decided;
    switch (method.flow) {
      case 'redirect':
        return {
          outcome: 'redirect',
          reference,
          redirect: { ...pageRedirect(providerPageUrl(this.secret, this.baseUrl, request.paymentId, request.returnUrl)), ...pageStep(method, request) },
        };
      case 'qr': {
        const payload = qrPayload({
          reference,
          paymentId: request.paymentId,
          amountText: formatMinor(request.amount, request.currency),
          currency: request.currency,
          merchantName: 'SANDBOX MERCHANT',
        });
        const expiresAt = new Date(this.now().getTime() + this.qrLifetimeMs).toISOString();
        return {
          outcome: 'redirect',
          reference,
          redirect: pageRedirect(providerPageUrl(this.secret, this.baseUrl, request.paymentId, request.returnUrl), { code: qrCodeValue(payload), expiresAt }),
        };
      }
      case 'app':
        return { outcome: 'pending', reference, ...this.instructionsOf(method, request.paymentId, instrument.parameters) };
      default: {
        const unreachable: never = method.flow;
        return unreachable;
      }
    }
  }

  /** `success@gmail.com` and `fail@gmail.com` decide at once; anyone else goes through the method's flow. */
  private decidedAtOnce(who: string | undefined, reference: string): ConnectorOutcome | null {
    const payer = (who ?? '').trim().toLowerCase();
    if (payer === SANDBOX_APM_SUCCESS) return { outcome: 'success', reference, descriptor: SANDBOX_APM_DESCRIPTOR };
    if (payer === SANDBOX_APM_FAIL) return { outcome: 'declined', reason: SANDBOX_APM_DECLINE_REASON, reference };
    return null;
  }

  private instructionsOf(method: SandboxMethod, paymentId: string, parameters: Record<string, unknown>): { instructions?: Record<string, string> } {
    return method.page === 'crypto' ? { instructions: cryptoDeposit(paymentId, parameters) } : {};
  }

  async payout(): Promise<ConnectorOutcome> {
    return { outcome: 'declined', reason: 'Payouts are not supported by this provider' };
  }

  /**
   * The payer came back from the provider page: its signed decision for this payment, or nothing.
   * For a method whose page takes a one-time code, the code itself, typed on a page of the
   * gateway's (Checkout's hosted page): the right one approves, any other decides nothing.
   */
  async completePayerAction(payerReturn: PayerReturn): Promise<PayerReturnOutcome> {
    const otp = payerReturn.raw.body.otp;
    const method = payerReturn.method ? sandboxMethod(payerReturn.method) : null;
    if (otp !== undefined && method?.page === 'otp' && payerReturn.raw.body.decision === undefined) {
      if (!sameCode(otp, SANDBOX_OTP)) return { verified: false };
      return { verified: true, outcome: { outcome: 'success', reference: payerReturn.reference, descriptor: SANDBOX_APM_DESCRIPTOR } };
    }
    const decision = readPayerReturn(this.secret, payerReturn.paymentId, payerReturn.raw);
    if (!decision) return { verified: false };
    const reference = payerReturn.reference;
    return {
      verified: true,
      outcome: decision === 'approve' ? { outcome: 'success', reference, descriptor: SANDBOX_APM_DESCRIPTOR } : { outcome: 'declined', reason: SANDBOX_APM_DECLINE_REASON, reference },
    };
  }

  async capture(): Promise<FollowUpOutcome> {
    return { outcome: 'success' };
  }

  async void(): Promise<FollowUpOutcome> {
    return { outcome: 'success' };
  }

  async refund(): Promise<FollowUpOutcome> {
    return { outcome: 'success' };
  }

  async reverse(): Promise<FollowUpOutcome> {
    return { outcome: 'success' };
  }

  /**
   * What it decided, found by what the gateway recorded: the payers who decide at once decide the
   * same again; anyone else is still with the provider (pending), whose notification decides.
   */
  async status(request: StatusRequest): Promise<ConnectorOutcome> {
    const method = request.method ? sandboxMethod(request.method.method) : null;
    if (!request.method || !method) return { outcome: 'unknown', detail: 'no such transaction' };
    const reference = request.reference ?? newReference(method.flow);
    return this.decidedAtOnce(request.payerEmail ?? request.method.identifier, reference) ?? { outcome: 'pending', reference };
  }

  async followUpStatus(_kind: 'capture' | 'void' | 'refund' | 'reversal', _request: FollowUpRequest): Promise<FollowUpOutcome> {
    return { outcome: 'success' };
  }

  /** Its own signed notifications only; a status it does not know is no decision. */
  async parseNotification(raw: { body: string; headers: Record<string, string> }): Promise<InboundNotification> {
    const notification = readNotification(this.secret, raw);
    if (!notification) return { verified: false };
    const outcome = outcomeOfStatus(notification.status, notification.reference, SANDBOX_APM_DESCRIPTOR) ?? {
      outcome: 'unknown' as const,
      detail: `unknown status ${notification.status}`,
    };
    return { verified: true, paymentId: notification.paymentId, outcome };
  }
}
