/**
 * The HTTP side of the limits on failed authentication (application/auth-throttle): who the
 * client is (koa's `ctx.ip`: the socket's address, or X-Forwarded-For's with TRUST_PROXY=true),
 * the 429 with Retry-After, and which refusals are failed authentications.
 */
import type Koa from 'koa';
import type { AuthSubject, AuthThrottle, ThrottleRefusal } from '../application/auth-throttle/auth-throttle';
import { ApiError, errors } from './errors';

export type { AuthSubject, AuthThrottle } from '../application/auth-throttle/auth-throttle';

/** The subject of a merchant's hashes: one count whichever of its keys (S2S or Checkout) named it, as they share a password. */
export function merchantSubject(merchant: { merchantId: string }): AuthSubject {
  return { kind: 'merchant', merchantId: merchant.merchantId };
}

/** Sets Retry-After for a refusal; the caller answers it in its own shape. */
export function setRetryAfter(ctx: Koa.Context, refusal: ThrottleRefusal): void {
  ctx.set('Retry-After', String(refusal.retryAfterSeconds));
}

/** Throws the spec-shaped 429 (with Retry-After) when the throttle will not hear this client for `subject`. */
export function admitOrRefuse(ctx: Koa.Context, throttle: AuthThrottle | undefined, subject: AuthSubject | null): void {
  const refusal = throttle?.admit(ctx.ip, subject);
  if (!refusal) return;
  setRetryAfter(ctx, refusal);
  throw errors.tooManyAuthFailures();
}

const HASH_ERROR = errors.hash();

/** Whether an error is the API's `Hash is not valid` refusal. */
export function isHashFailure(error: unknown): boolean {
  return error instanceof ApiError && error.code === HASH_ERROR.code && error.message === HASH_ERROR.message;
}

/**
 * Runs a merchant-authenticated handler: a wrong hash is a failure for `subject`, an answer in the
 * 2xx range a success (every such answer comes after the hash was checked), anything else neither.
 */
export async function countingHashFailures<T>(ctx: Koa.Context, throttle: AuthThrottle | undefined, subject: AuthSubject, run: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (error) {
    if (isHashFailure(error)) throttle?.failed(ctx.ip, subject, ctx.state.requestId);
    throw error;
  }
  throttle?.succeeded(ctx.ip, subject);
  return result;
}
