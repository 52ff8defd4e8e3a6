/**
 * Signed Checkout requests for tests, built the way a merchant's code builds them: JSON bodies,
 * hashes per the spec (session: order.number + order.amount + order.currency + order.description)
 * and docs/reference/checkout.md#endpoints (operations).
 */
import { randomUUID } from 'node:crypto';
import { checkoutHash } from '../../src/domain/signatures';
import type { HttpResult, TestGateway, TestMerchant } from './gateway-harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** A purchase session body that settles with the sandbox card 01/2038; `overrides` are merged on top. */
export function sessionBody(merchant: TestMerchant, overrides: Json = {}): Json {
  const order = { number: `co-${randomUUID()}`, amount: '10.50', currency: 'USD', description: 'Checkout test order', ...(overrides.order ?? {}) };
  const body: Json = {
    merchant_key: merchant.merchant_key,
    operation: 'purchase',
    methods: ['card'],
    success_url: 'https://shop.example/success',
    cancel_url: 'https://shop.example/cancel',
    customer: { name: 'John Doe', email: 'doe@example.com' },
    billing_address: { country: 'GB', city: 'London', address: '1 High St', zip: 'N1 1AA' },
    ...overrides,
    order,
  };
  if (!('hash' in overrides)) body.hash = sessionHash(body, merchant.password);
  return body;
}

export function sessionHash(body: Json, password: string): string {
  const o = body.order ?? {};
  return checkoutHash([String(o.number ?? ''), String(o.amount ?? ''), String(o.currency ?? ''), String(o.description ?? '')], password);
}

export async function postJson(t: TestGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  return t.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** POST /api/v1/session; throws unless it answers 200 with a redirect_url. */
export async function createSession(t: TestGateway, merchant: TestMerchant, overrides: Json = {}): Promise<{ body: Json; redirectUrl: string; sessionId: string }> {
  const body = sessionBody(merchant, overrides);
  const res = await postJson(t, '/api/v1/session', body);
  if (res.status !== 200 || typeof res.body?.redirect_url !== 'string') {
    throw new Error(`session creation failed: ${res.status} ${res.text}`);
  }
  const redirectUrl: string = res.body.redirect_url;
  return { body, redirectUrl, sessionId: redirectUrl.split('/').pop()! };
}

/** POST /api/v1/session/token; throws unless it answers 200 with a token. */
export async function createSessionToken(t: TestGateway, merchant: TestMerchant, overrides: Json = {}): Promise<{ body: Json; token: string }> {
  const body = sessionBody(merchant, { return_url: 'https://shop.example/return', ...overrides });
  const res = await postJson(t, '/api/v1/session/token', body);
  if (res.status !== 200 || typeof res.body?.token !== 'string') throw new Error(`session token failed: ${res.status} ${res.text}`);
  return { body, token: res.body.token };
}

/** Operation hash: sha1(md5(upper(parts + password))). */
export const operationHash = (parts: string[], password: string): string => checkoutHash(parts, password);
