/**
 * The built-in sandbox acquirer (decisions.md §4). Outcomes are decided by the card's expiry date
 * so merchants can script every path, including 3-D Secure and redirects, without a real issuer.
 *
 * The 3DS and redirect steps send the payer to the gateway's own simulator pages. Whatever comes
 * back from the browser is untrusted, so the PaReq and the redirect link carry HMACs under a
 * sandbox secret; the pages and the return endpoint verify them with `verifyPaReq` and
 * `verifyRedirectSig` before acting.
 */

import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  AuthorizationStatusRequest,
  AuthorizeRequest,
  Connector,
  ConnectorOutcome,
  FollowUpOutcome,
  FollowUpRequest,
  PayerActionResult,
} from '../../application/ports/connector';
import { parseExpiry } from '../../domain/card';
import type { PaymentKind, ThreeDSAttributes } from '../../domain/payment/events';

export const SANDBOX_DEFAULT_DESCRIPTOR = 'SANDBOX*GATEWAY';
const MAX_DESCRIPTOR_LENGTH = 20;

export const SANDBOX_DECLINE_REASONS = {
  issuer: 'Declined by issuer',
  capture: 'Capture declined by acquirer',
  threeDsFailed: '3-D Secure authentication failed',
  threeDsRefused: '3-D Secure authentication declined by payer',
  redirectFailed: 'Declined by payment provider after redirect',
  redirectCancelled: 'Payment cancelled by payer',
  mismatch: 'Payer action does not match the payment',
  notRecurring: 'Card is not enabled for recurring payments',
  insufficientFunds: 'Insufficient funds',
} as const;

/**
 * A merchant-initiated charge (recurring or scheduled) of an amount whose minor units end in 402
 * (4.02, 14.02, 1,004.02 EUR ...) is declined, so merchants can test a failed charge in a chain
 * whose card (01/2038) otherwise always pays.
 */
export const sandboxDeclinesStoredCharge = (amountMinor: number): boolean => amountMinor % 1000 === 402;

export interface SandboxConnectorOptions {
  /** Signs PaReq values and redirect links; at least 32 bytes. */
  secret: Buffer;
  /** Soft descriptor on statements; at most 20 characters. */
  descriptor?: string;
  /** Simulated acquirer latency per call. */
  latencyMs?: number;
  /** Clock for the expiry check and PaReq timestamps. */
  now?: () => Date;
}

type Scenario =
  | 'success'
  | 'declined'
  | 'capture_declined'
  | '3ds_success'
  | '3ds_declined'
  | 'redirect_success'
  | 'redirect_declined';

const SCENARIOS: Readonly<Record<string, Scenario>> = {
  '01/2038': 'success',
  '02/2038': 'declined',
  '03/2038': 'capture_declined',
  '05/2038': '3ds_success',
  '06/2038': '3ds_declined',
  '12/2038': 'redirect_success',
  '12/2039': 'redirect_declined',
};

function expiryKey(card: { expMonth: string; expYear: string }): string {
  return `${card.expMonth.padStart(2, '0')}/${card.expYear}`;
}

function scenarioOf(card: { expMonth: string; expYear: string }): Scenario {
  return Object.prototype.hasOwnProperty.call(SCENARIOS, expiryKey(card)) ? SCENARIOS[expiryKey(card)] : 'success';
}

/** Only the 01/2038 card may start a recurring chain in the sandbox (decisions.md §4). */
export function sandboxSupportsRecurring(card: { expMonth: string; expYear: string }): boolean {
  return expiryKey(card) === '01/2038';
}

export interface PaReqPayload {
  paymentId: string;
  amount: number;
  currency: string;
  issuedAt: string;
}

// Domain-separation prefixes: a PaReq signature can never be replayed as a redirect signature.
function mac(secret: Buffer, purpose: 'pareq' | 'redirect', data: string): Buffer {
  return createHmac('sha256', secret).update(`${purpose}:${data}`).digest();
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `base64url(JSON payload) + '.' + base64url(HMAC-SHA256)`. */
export function signPaReq(secret: Buffer, payload: PaReqPayload): string {
  const body = Buffer.from(
    JSON.stringify({
      paymentId: payload.paymentId,
      amount: payload.amount,
      currency: payload.currency,
      issuedAt: payload.issuedAt,
    }),
    'utf8',
  ).toString('base64url');
  return `${body}.${mac(secret, 'pareq', body).toString('base64url')}`;
}

/**
 * Returns the payload when the signature holds, else null. With `maxAgeMs`, a PaReq older than
 * that (by `issuedAt`) is also refused.
 */
export function verifyPaReq(
  secret: Buffer,
  paReq: string,
  options: { now?: Date; maxAgeMs?: number } = {},
): PaReqPayload | null {
  if (typeof paReq !== 'string') return null;
  const parts = paReq.split('.');
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) {
    return null;
  }
  if (!sameBytes(Buffer.from(parts[1], 'base64url'), mac(secret, 'pareq', parts[0]))) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const p = payload as Partial<PaReqPayload> | null;
  if (
    !p ||
    typeof p.paymentId !== 'string' ||
    typeof p.amount !== 'number' ||
    typeof p.currency !== 'string' ||
    typeof p.issuedAt !== 'string'
  ) {
    return null;
  }
  if (options.maxAgeMs !== undefined) {
    const issued = Date.parse(p.issuedAt);
    const now = (options.now ?? new Date()).getTime();
    if (Number.isNaN(issued) || now - issued > options.maxAgeMs) return null;
  }
  return { paymentId: p.paymentId, amount: p.amount, currency: p.currency, issuedAt: p.issuedAt };
}

export function signRedirect(secret: Buffer, paymentId: string): string {
  return mac(secret, 'redirect', paymentId).toString('base64url');
}

export function verifyRedirectSig(secret: Buffer, paymentId: string, sig: string): boolean {
  if (typeof sig !== 'string' || !/^[A-Za-z0-9_-]+$/.test(sig)) return false;
  return sameBytes(Buffer.from(sig, 'base64url'), mac(secret, 'redirect', paymentId));
}

function digits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(randomInt(0, 10));
  return out;
}

/** ECI the card schemes use for an authenticated (or failed) 3-D Secure cardholder. */
function eciFor(brand: string | undefined, authenticated: boolean): string {
  if (brand === 'MASTERCARD' || brand === 'MAESTRO') return authenticated ? '02' : '00';
  return authenticated ? '05' : '07';
}

/**
 * What the sandbox's ACS reports after the payer answered its challenge page: the sandbox ACS
 * always challenges, and '01' (card authentication failed) is its only failure reason.
 */
export function sandboxThreeDSResult(authenticated: boolean, brand?: string): ThreeDSAttributes {
  return {
    threeDSServerTransID: randomUUID(),
    dsTransID: randomUUID(),
    acsTransID: randomUUID(),
    xid: randomBytes(20).toString('base64'),
    transStatus: authenticated ? 'Y' : 'N',
    transStatusReason: authenticated ? '' : '01',
    eci: eciFor(brand, authenticated),
    protocolVersion: '2.2.0',
    authenticationFlow: 'Challenge',
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export class SandboxConnector implements Connector {
  readonly name = 'sandbox';
  private readonly secret: Buffer;
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
  private success(kind: PaymentKind): ConnectorOutcome & { outcome: 'success' } {
    return {
      outcome: 'success',
      descriptor: this.descriptor,
      authCode: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      rrn: digits(12),
      ...(kind !== 'authorization' ? { arn: digits(23) } : {}),
    };
  }

  /** The expiries that decline a payment (at once or after the payer's step) decline a payout. */
  payout(request: AuthorizeRequest): Promise<ConnectorOutcome> {
    const expiry = parseExpiry(request.card.expMonth, request.card.expYear, this.now());
    if (!expiry.ok) return this.respond({ outcome: 'declined', reason: expiry.reason });
    switch (scenarioOf(request.card)) {
      case 'declined':
      case '3ds_declined':
      case 'redirect_declined':
        return this.respond({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.issuer });
      default:
        return this.respond(this.success('credit'));
    }
  }

  authorize(request: AuthorizeRequest): Promise<ConnectorOutcome> {
    // The domain refuses past expiries before calling; this keeps the sandbox honest if it did not.
    const expiry = parseExpiry(request.card.expMonth, request.card.expYear, this.now());
    if (!expiry.ok) return this.respond({ outcome: 'declined', reason: expiry.reason });
    const base = trimSlash(request.gatewayBaseUrl);
    const id = encodeURIComponent(request.paymentId);
    const cof = request.cardOnFile;
    if (cof?.recurring && !sandboxSupportsRecurring(request.card)) {
      return this.respond({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.notRecurring });
    }
    // A merchant-initiated charge of a stored card is never challenged: the payer is not there.
    if (cof?.initiator === 'merchant') {
      if (sandboxDeclinesStoredCharge(request.amount)) return this.respond({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.insufficientFunds });
      return this.respond(this.withReference(this.success(request.kind), cof));
    }
    switch (scenarioOf(request.card)) {
      case 'declined':
        return this.respond({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.issuer });
      case '3ds_success':
      case '3ds_declined': {
        const paReq = signPaReq(this.secret, {
          paymentId: request.paymentId,
          amount: request.amount,
          currency: request.currency,
          issuedAt: this.now().toISOString(),
        });
        return this.respond({
          outcome: 'pending',
          action: {
            kind: '3ds',
            acsUrl: `${base}/sandbox/acs`,
            paReq,
            md: request.paymentId,
            termUrl: `${base}/payments/${id}/3ds-return`,
          },
        });
      }
      case 'redirect_success':
      case 'redirect_declined':
        return this.respond({
          outcome: 'pending',
          action: {
            kind: 'redirect',
            redirectUrl: `${base}/sandbox/redirect/${id}?sig=${signRedirect(this.secret, request.paymentId)}`,
          },
        });
      case 'success':
      case 'capture_declined':
        return this.respond(this.withReference(this.success(request.kind), cof));
    }
  }

  /** The card-on-file reference a chain's later charges quote; it stays the chain's first one. */
  private withReference(
    outcome: ConnectorOutcome & { outcome: 'success' },
    cof: AuthorizeRequest['cardOnFile'],
  ): ConnectorOutcome {
    if (!cof?.requestReference) return outcome;
    return { ...outcome, cardOnFileId: cof.reference ?? `cof_${randomBytes(12).toString('hex')}` };
  }

  completePayerAction(result: PayerActionResult): Promise<ConnectorOutcome> {
    const scenario = scenarioOf(result.card);
    const declined = (reason: string, threeDS?: ThreeDSAttributes) =>
      this.respond<ConnectorOutcome>({ outcome: 'declined', reason, ...(threeDS ? { threeDS } : {}) });
    if (result.kind === '3ds') {
      if (scenario !== '3ds_success' && scenario !== '3ds_declined') return declined(SANDBOX_DECLINE_REASONS.mismatch);
      // 06/2038 fails authentication whatever the payer pressed.
      const authenticated = scenario === '3ds_success' && result.approved;
      const threeDS = sandboxThreeDSResult(authenticated, result.card.brand);
      if (authenticated) return this.respond({ ...this.success(result.saleKind), threeDS });
      return declined(
        scenario === '3ds_declined' ? SANDBOX_DECLINE_REASONS.threeDsFailed : SANDBOX_DECLINE_REASONS.threeDsRefused,
        threeDS,
      );
    }
    if (scenario === 'redirect_declined') return declined(SANDBOX_DECLINE_REASONS.redirectFailed);
    if (scenario !== 'redirect_success') return declined(SANDBOX_DECLINE_REASONS.mismatch);
    return result.approved ? this.respond(this.success(result.saleKind)) : declined(SANDBOX_DECLINE_REASONS.redirectCancelled);
  }

  capture(request: FollowUpRequest): Promise<FollowUpOutcome> {
    if (scenarioOf(request.card) === 'capture_declined') {
      return this.respond({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.capture });
    }
    return this.respond({ outcome: 'success', arn: digits(23) });
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
   * The sandbox keeps no state: its outcomes follow from the card's expiry, so the answer it would
   * have given is the answer it gives now.
   */
  authorizationStatus(request: AuthorizationStatusRequest): Promise<ConnectorOutcome> {
    return (request.kind === 'credit' ? this.payout : this.authorize).call(this, {
      paymentId: request.paymentId,
      merchantId: '',
      kind: request.kind,
      amount: request.amount,
      currency: request.currency,
      card: { number: '', expMonth: request.card.expMonth, expYear: request.card.expYear },
      gatewayBaseUrl: request.gatewayBaseUrl,
    });
  }

  followUpStatus(kind: 'capture' | 'void' | 'refund' | 'reversal', request: FollowUpRequest): Promise<FollowUpOutcome> {
    return kind === 'capture' ? this.capture(request) : this.respond({ outcome: 'success' });
  }
}
