/** The acquirer's answers and the payer's browser as the sandbox gives them, for seeded payments. */
import { randomBytes } from 'node:crypto';
import type { AuthorizationResult } from '../../domain/payment/commands';
import type { PaymentKind } from '../../domain/payment/events';
import type { SeededPayment } from './seeded-payment';

const DESCRIPTOR = 'SANDBOX*GATEWAY';
export const BASE_URL = 'http://127.0.0.1:8080';

export const digits = (n: number): string => Array.from(randomBytes(n), (b) => String(b % 10)).join('');

export function success(kind: PaymentKind): AuthorizationResult {
  return { outcome: 'success', descriptor: DESCRIPTOR, rrn: digits(12), ...(kind === 'sale' ? { arn: digits(23) } : {}) };
}

/** A 3-D Secure challenge sending the payer to the sandbox's ACS. */
export const challenge = (p: SeededPayment): AuthorizationResult => ({
  outcome: 'challenge',
  acsUrl: `${BASE_URL}/sandbox/acs`,
  params: { PaReq: `${randomBytes(48).toString('base64url')}.${randomBytes(32).toString('base64url')}`, MD: p.id, TermUrl: `${BASE_URL}/payments/${p.id}/3ds-return` },
});

/** A redirect to the sandbox's payer page. */
export const redirect = (paymentId: string): AuthorizationResult => ({
  outcome: 'redirect',
  redirectUrl: `${BASE_URL}/sandbox/redirect/${paymentId}?sig=${randomBytes(32).toString('base64url')}`,
});

export const BROWSER = {
  colorDepth: 24,
  screenHeight: 1080,
  screenWidth: 1920,
  javaEnabled: false,
  javascriptEnabled: true,
  language: 'en-US',
  timezoneOffset: -60,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  acceptHeaders: 'text/html,application/xhtml+xml',
};
