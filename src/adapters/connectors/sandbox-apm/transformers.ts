/**
 * The sandbox APM provider's wire: its transaction references, the link to its page, the signed
 * way back to the gateway after the payer decided there, the QR code's payload, the crypto address
 * it hands out, and its signed notifications. Whatever comes back through a browser or over the
 * network is untrusted: the payer's return and every notification carry an HMAC under the sandbox
 * APM secret (derived from the vault key), each with a purpose prefix so one can never pass for
 * another.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ConnectorOutcome, PayerRedirect } from '../../../application/ports/connector';
import type { NotificationVocabulary, SandboxFlow } from './sandbox-method';

// ---------------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------------

/** `sbapm_<flow>_<random>`: like an acquirer's records, the reference remembers how it was decided. */
export function newReference(flow: SandboxFlow): string {
  return `sbapm_${flow}_${randomBytes(8).toString('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// MACs
// ---------------------------------------------------------------------------------------------

type Purpose = 'page' | 'return' | 'notification';

function mac(secret: Buffer, purpose: Purpose, data: string): Buffer {
  return createHmac('sha256', secret).update(`sandbox-apm:${purpose}:${data}`).digest();
}

function sameMac(sent: string, expected: Buffer, encoding: 'base64url' | 'hex'): boolean {
  const pattern = encoding === 'hex' ? /^[0-9a-f]+$/i : /^[A-Za-z0-9_-]+$/;
  if (typeof sent !== 'string' || !pattern.test(sent)) return false;
  const bytes = Buffer.from(sent, encoding);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

// ---------------------------------------------------------------------------------------------
// The provider's page and the payer's way back
// ---------------------------------------------------------------------------------------------

/** The provider's page for a payment: `{s2s_url}/sandbox/provider/{trans_id}`, naming (signed) where the payer goes back to. */
export function providerPageUrl(secret: Buffer, simulatorBaseUrl: string, paymentId: string, returnUrl: string): string {
  const query = new URLSearchParams({ return: returnUrl, sig: mac(secret, 'page', `${paymentId}\n${returnUrl}`).toString('base64url') });
  return `${simulatorBaseUrl}/sandbox/provider/${encodeURIComponent(paymentId)}?${query}`;
}

/** The return address a page link names, when its signature holds; null otherwise. */
export function verifiedPageReturn(secret: Buffer, paymentId: string, returnUrl: string | undefined, sig: string | undefined): string | null {
  if (!returnUrl || !sig) return null;
  return sameMac(sig, mac(secret, 'page', `${paymentId}\n${returnUrl}`), 'base64url') ? returnUrl : null;
}

export function pageRedirect(url: string, qr?: { code: string; expiresAt: string }): PayerRedirect {
  return {
    kind: 'redirect',
    url,
    method: 'GET',
    params: {},
    ...(qr ? { display: 'qr' as const, qrCode: qr.code, expiresAt: qr.expiresAt } : {}),
  };
}

export type PayerDecision = 'approve' | 'decline';

/** Where the provider's page sends the payer once they decided: the gateway's return address, signed. */
export function payerReturnUrl(secret: Buffer, returnUrl: string, paymentId: string, decision: PayerDecision): string {
  const query = new URLSearchParams({ decision, sig: mac(secret, 'return', `${paymentId}\n${decision}`).toString('base64url') });
  return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}${query}`;
}

/** The payer's decision the return carries, when its signature holds for this payment; null otherwise. */
export function readPayerReturn(secret: Buffer, paymentId: string, raw: { query: Record<string, string>; body: Record<string, string> }): PayerDecision | null {
  const field = (name: string): string | undefined => raw.body[name] ?? raw.query[name];
  const decision = field('decision');
  if (decision !== 'approve' && decision !== 'decline') return null;
  return sameMac(field('sig') ?? '', mac(secret, 'return', `${paymentId}\n${decision}`), 'base64url') ? decision : null;
}

// ---------------------------------------------------------------------------------------------
// The QR code (EMVCo merchant-presented style)
// ---------------------------------------------------------------------------------------------

/** ISO 4217 numeric codes of the currencies the sandbox names in its QR codes; others are 999 ("no currency"). */
const NUMERIC_CURRENCY: Readonly<Record<string, string>> = {
  AED: '784', ARS: '032', AUD: '036', BDT: '050', BRL: '986', CAD: '124', CHF: '756', CLP: '152', CNY: '156', COP: '170',
  CZK: '203', DKK: '208', EGP: '818', EUR: '978', GBP: '826', GHS: '936', HKD: '344', HUF: '348', IDR: '360', ILS: '376',
  INR: '356', JPY: '392', KES: '404', KRW: '410', MXN: '484', MYR: '458', NGN: '566', NOK: '578', NZD: '554', PEN: '604',
  PHP: '608', PKR: '586', PLN: '985', SAR: '682', SEK: '752', SGD: '702', THB: '764', TRY: '949', TZS: '834', UAH: '980',
  USD: '840', VND: '704', XAF: '950', XOF: '952', ZAR: '710',
};

const tlv = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as EMVCo QR codes end with. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The QR's payload text: payload format 01, dynamic (12), the provider's account with the
 * transaction reference, merchant category 0000, currency, amount, merchant name and city, the
 * gateway's payment id as the bill number, and the CRC.
 */
export function qrPayload(input: { reference: string; paymentId: string; amountText: string; currency: string; merchantName: string }): string {
  const body = [
    tlv('00', '01'),
    tlv('01', '12'),
    tlv('26', tlv('00', 'SANDBOX.APM') + tlv('01', input.reference)),
    tlv('52', '0000'),
    tlv('53', NUMERIC_CURRENCY[input.currency] ?? '999'),
    tlv('54', input.amountText),
    tlv('58', 'XX'),
    tlv('59', input.merchantName.slice(0, 25)),
    tlv('60', 'SANDBOX'),
    tlv('62', tlv('01', input.paymentId.replace(/-/g, '').slice(0, 25))),
  ].join('');
  return `${body}6304${crc16(`${body}6304`)}`;
}

export const qrCodeValue = (payload: string): string => Buffer.from(payload, 'utf8').toString('base64');

// ---------------------------------------------------------------------------------------------
// Crypto deposits
// ---------------------------------------------------------------------------------------------

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Of(bytes: Buffer, length: number): string {
  return [...bytes].slice(0, length).map((b) => BASE58[b % BASE58.length]).join('');
}

/** The address and network a crypto deposit is paid to: the same for the same payment, in the coin's own shape. */
export function cryptoDeposit(paymentId: string, parameters: Record<string, unknown>): { crypto_address: string; crypto_network: string } {
  const type = String(parameters.crypto_type ?? '').toUpperCase();
  const seed = createHash('sha512').update(`sandbox-apm:crypto:${paymentId}`).digest();
  if (type === 'BTC') {
    const bech32 = parameters.bech32 === 'true';
    return { crypto_address: bech32 ? `bc1q${seed.toString('hex').slice(0, 38)}` : `1${base58Of(seed, 33)}`, crypto_network: 'btc' };
  }
  const network = type === 'USDT' ? String(parameters.network_type ?? 'eth') : type === 'TRX' ? 'tron' : type === 'ETH' ? 'eth' : type.toLowerCase();
  if (network === 'tron') return { crypto_address: `T${base58Of(seed, 33)}`, crypto_network: 'tron' };
  return { crypto_address: `0x${seed.toString('hex').slice(0, 40)}`, crypto_network: network };
}

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

/** What the provider tells the gateway: the transaction and its status, in the method's vocabulary. */
export interface SandboxNotification {
  paymentId: string;
  reference: string;
  status: string;
}

export const SIGNATURE_HEADER = 'x-sandbox-apm-signature';

/** The status word a decision is told in, by the method's vocabulary (spec, States: QR and bank words). */
export function notificationStatus(vocabulary: NotificationVocabulary, decision: PayerDecision): string {
  const approved = decision === 'approve';
  switch (vocabulary) {
    case 'qr':
      return approved ? 'executed' : 'rejected';
    case 'bank':
      return approved ? 'ACSC' : 'RJCT';
    case 'plain':
      return approved ? 'approved' : 'declined';
    default: {
      const unreachable: never = vocabulary;
      return unreachable;
    }
  }
}

/** A notification as the provider sends it: a JSON body and its signature header (`t=<unix seconds>,v1=<hex HMAC>`). */
export function signNotification(secret: Buffer, notification: SandboxNotification, unixSeconds: number): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ payment_id: notification.paymentId, reference: notification.reference, status: notification.status });
  const signature = mac(secret, 'notification', `${unixSeconds}.${body}`).toString('hex');
  return { body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: `t=${unixSeconds},v1=${signature}` } };
}

/** The notification, when its signature holds over the raw body; null for anything else. */
export function readNotification(secret: Buffer, raw: { body: string; headers: Record<string, string> }): SandboxNotification | null {
  const header = Object.entries(raw.headers).find(([name]) => name.toLowerCase() === SIGNATURE_HEADER)?.[1];
  if (typeof header !== 'string' || typeof raw.body !== 'string') return null;
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  if (!/^\d{1,15}$/.test(parts.t ?? '') || !sameMac(parts.v1 ?? '', mac(secret, 'notification', `${parts.t}.${raw.body}`), 'hex')) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw.body);
  } catch {
    return null;
  }
  const d = data as Record<string, unknown> | null;
  if (!d || typeof d.payment_id !== 'string' || typeof d.reference !== 'string' || typeof d.status !== 'string') return null;
  return { paymentId: d.payment_id, reference: d.reference, status: d.status };
}

export const SANDBOX_APM_DECLINE_REASON = 'Declined by the payment provider';

/** A notified status as an outcome: executed / ACSC / approved settle, rejected / RJCT / declined decline, pending waits. */
export function outcomeOfStatus(status: string, reference: string, descriptor: string): ConnectorOutcome | null {
  switch (status) {
    case 'executed':
    case 'ACSC':
    case 'approved':
      return { outcome: 'success', reference, descriptor };
    case 'rejected':
    case 'RJCT':
    case 'declined':
      return { outcome: 'declined', reason: SANDBOX_APM_DECLINE_REASON, reference };
    case 'pending':
      return { outcome: 'pending', reference };
    default:
      return null;
  }
}
