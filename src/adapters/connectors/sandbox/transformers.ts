/**
 * The sandbox acquirer's wire: how its transaction references, its 3-D Secure PaReq, its redirect
 * links and the payer's returns look, and how they are read back. Whatever comes back from a
 * browser is untrusted, so the PaReq and the redirect link carry HMACs under the sandbox secret.
 */
import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { PayerRedirect } from '../../../application/ports/connector';
import type { ThreeDSAttributes } from '../../../domain/payment/events';
import { SCENARIOS, scenarioOf, type Scenario } from './scenarios';

/**
 * A reference names the sandbox's transaction and remembers what it decided, the way an acquirer's
 * own records would: `sbx_<scenario>_<random>`. Payments recorded before connectors kept references
 * carry `card-expiry:MM/YYYY` instead (upcast), which the sandbox reads the way it decided then.
 */
export function newReference(scenario: Scenario): string {
  // 64 random bits: randomUUID's first and last groups (no version or variant digits in them). It
  // draws from entropy fetched in bulk; randomBytes(8) asked the generator anew for every SALE.
  const id = randomUUID();
  return `sbx_${scenario}_${id.slice(0, 8)}${id.slice(28, 36)}`;
}

const KNOWN = new Set<string>(Object.values(SCENARIOS).concat('success'));

export function scenarioOfReference(reference: string): Scenario | null {
  const current = /^sbx_([a-z0-9_]+)_[0-9a-f]{16}$/.exec(reference);
  if (current && KNOWN.has(current[1])) return current[1] as Scenario;
  const legacy = /^card-expiry:(\d{2})\/(\d{4})$/.exec(reference);
  return legacy ? scenarioOf({ expMonth: legacy[1], expYear: legacy[2] }) : null;
}

export interface PaReqPayload {
  paymentId: string;
  amount: number;
  currency: string;
  issuedAt: string;
  /** Where the ACS posts the payer's answer; absent on PaReqs issued before it was signed in. */
  termUrl?: string;
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
      ...(payload.termUrl !== undefined ? { termUrl: payload.termUrl } : {}),
    }),
    'utf8',
  ).toString('base64url');
  return `${body}.${mac(secret, 'pareq', body).toString('base64url')}`;
}

/**
 * Returns the payload when the signature holds, else null. With `maxAgeMs`, a PaReq older than
 * that (by `issuedAt`) is also refused.
 */
export function verifyPaReq(secret: Buffer, paReq: string, options: { now?: Date; maxAgeMs?: number } = {}): PaReqPayload | null {
  if (typeof paReq !== 'string') return null;
  const parts = paReq.split('.');
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return null;
  if (!sameBytes(Buffer.from(parts[1], 'base64url'), mac(secret, 'pareq', parts[0]))) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const p = payload as Partial<PaReqPayload> | null;
  if (!p || typeof p.paymentId !== 'string' || typeof p.amount !== 'number' || typeof p.currency !== 'string' || typeof p.issuedAt !== 'string') {
    return null;
  }
  if (p.termUrl !== undefined && typeof p.termUrl !== 'string') return null;
  if (options.maxAgeMs !== undefined) {
    const issued = Date.parse(p.issuedAt);
    const now = (options.now ?? new Date()).getTime();
    if (Number.isNaN(issued) || now - issued > options.maxAgeMs) return null;
  }
  return {
    paymentId: p.paymentId,
    amount: p.amount,
    currency: p.currency,
    issuedAt: p.issuedAt,
    ...(p.termUrl !== undefined ? { termUrl: p.termUrl } : {}),
  };
}

/** Redirect links are signed over the payment and the return address, so neither can be swapped. */
function redirectData(paymentId: string, returnUrl: string | null): string {
  return returnUrl === null ? paymentId : `${paymentId}\n${returnUrl}`;
}

export function signRedirect(secret: Buffer, paymentId: string, returnUrl: string | null): string {
  return mac(secret, 'redirect', redirectData(paymentId, returnUrl)).toString('base64url');
}

/** `returnUrl` null: a link issued before links named their return address. */
export function verifyRedirectSig(secret: Buffer, paymentId: string, returnUrl: string | null, sig: string): boolean {
  if (typeof sig !== 'string' || !/^[A-Za-z0-9_-]+$/.test(sig)) return false;
  return sameBytes(Buffer.from(sig, 'base64url'), mac(secret, 'redirect', redirectData(paymentId, returnUrl)));
}

/**
 * The ACS step: the issuer's page, posted to with the 3-D Secure v1 fields. The address carries the
 * same fields as its query, so a person trying the sandbox can simply open it as a link; fields
 * posted to it win over the query, so merchants who post them see no difference.
 */
export function challengeRedirect(simulatorBaseUrl: string, paReq: string, paymentId: string, returnUrl: string): PayerRedirect {
  const params = { PaReq: paReq, MD: paymentId, TermUrl: returnUrl };
  return { kind: '3ds', url: `${simulatorBaseUrl}/sandbox/acs?${new URLSearchParams(params)}`, method: 'POST', params };
}

/** The provider page of a non-3DS redirect: a plain link that carries its own signature. */
export function providerRedirect(secret: Buffer, simulatorBaseUrl: string, paymentId: string, returnUrl: string): PayerRedirect {
  const query = new URLSearchParams({ sig: signRedirect(secret, paymentId, returnUrl), return: returnUrl });
  return { kind: 'redirect', url: `${simulatorBaseUrl}/sandbox/redirect/${encodeURIComponent(paymentId)}?${query}`, method: 'GET', params: {} };
}

/**
 * What the payer's return says, once verified: the ACS's `PaRes` with the signed PaReq that names
 * this payment (and `MD`, when sent, naming it too), or the provider page's `decision` with the
 * link's signature. null when anything does not verify.
 */
export function readPayerReturn(
  secret: Buffer,
  kind: '3ds' | 'redirect',
  paymentId: string,
  raw: { query: Record<string, string>; body: Record<string, string> },
): { approved: boolean } | null {
  const field = (name: string): string | undefined => raw.body[name] ?? raw.query[name];
  if (kind === '3ds') {
    const payload = verifyPaReq(secret, field('PaReq') ?? '');
    // MD is optional (the signed PaReq names the payment); an empty one is one not sent.
    const md = field('MD') || undefined;
    if (!payload || payload.paymentId !== paymentId || (md !== undefined && md !== paymentId)) return null;
    return { approved: field('PaRes') === 'approve' };
  }
  const sig = field('sig') ?? '';
  const returnUrl = field('return');
  if (!verifyRedirectSig(secret, paymentId, returnUrl ?? null, sig)) return null;
  return { approved: field('decision') === 'continue' };
}

function digits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(randomInt(0, 10));
  return out;
}

export const authCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');
export const rrn = (): string => digits(12);
export const arn = (): string => digits(23);

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
