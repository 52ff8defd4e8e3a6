/**
 * Hosted payment fields tokens. A token names its session and carries a MAC over it, so any API
 * process sharing the key can verify it without a lookup, and nobody can forge one for a session
 * whose id they learned.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../ids';

const mac = (secret: Buffer, sessionId: string): Buffer =>
  createHmac('sha256', secret).update(`hosted-fields-token:${sessionId}`).digest();

export function sessionTokenFor(secret: Buffer, sessionId: string): string {
  return `${sessionId}.${mac(secret, sessionId).toString('base64url')}`;
}

/** The session id the token was issued for, or null when it is not a token of ours. */
export function sessionIdOfToken(secret: Buffer, token: unknown): string | null {
  if (typeof token !== 'string') return null;
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const sessionId = token.slice(0, dot);
  const sig = token.slice(dot + 1);
  if (!isUuid(sessionId) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return null;
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(secret, sessionId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? sessionId : null;
}
