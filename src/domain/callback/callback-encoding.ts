/**
 * The wire form of a callback: an `application/x-www-form-urlencoded` body and the `X-Signature`
 * header (docs/reference/hashes.md#x-signature) that lets a merchant check the raw body and refuse replays.
 *
 *   X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the password>
 *
 * The signature covers the bytes on the wire, so a merchant verifies the body before parsing it;
 * the timestamp is inside the signed text, so an old callback cannot be replayed with a new one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FormFields } from './form-fields';

/**
 * Form encoding as browsers do it: UTF-8, space as `+`, brackets of nested names percent-encoded
 * (`custom_data%5Bkey%5D`), which every form decoder turns back into `custom_data[key]`.
 */
export function encodeCallbackBody(fields: FormFields): string {
  return new URLSearchParams(fields).toString();
}

function hmacHex(password: string, unixSeconds: number, rawBody: string): string {
  return createHmac('sha256', Buffer.from(password, 'utf8')).update(`${unixSeconds}.${rawBody}`, 'utf8').digest('hex');
}

export function callbackSignatureHeader(password: string, rawBody: string, unixSeconds: number): string {
  if (!Number.isSafeInteger(unixSeconds) || unixSeconds < 0) throw new RangeError('unixSeconds must be a non-negative integer');
  return `t=${unixSeconds},v1=${hmacHex(password, unixSeconds, rawBody)}`;
}

/**
 * What a merchant runs on receipt: true when one `v1` signature matches the raw body under the
 * password and `t` is within `toleranceSeconds` of now (either side, for clock skew). Comparison is
 * constant time; a malformed header is simply false.
 */
export function verifyCallbackSignature(
  password: string,
  rawBody: string,
  header: string,
  nowUnixSeconds: number,
  toleranceSeconds = 300,
): boolean {
  if (typeof header !== 'string' || typeof rawBody !== 'string') return false;
  let t: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return false;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,15}$/.test(value)) return false;
      t = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return false;
      signatures.push(Buffer.from(value.toLowerCase(), 'hex'));
    }
    // Other keys are ignored, so a later signature scheme can be added beside v1.
  }
  if (t === null || signatures.length === 0) return false;
  if (Math.abs(nowUnixSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(password, t, rawBody), 'hex');
  let matched = false;
  // Every candidate is compared, matched or not, so timing says nothing about which one was right.
  for (const candidate of signatures) matched = timingSafeEqual(candidate, expected) || matched;
  return matched;
}
