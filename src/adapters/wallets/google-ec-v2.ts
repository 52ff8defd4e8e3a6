/**
 * Google Pay `ECv2` tokens: verify the intermediate signing key with the trusted root signing keys
 * (the `keys.json` shape), verify the message with the intermediate key, then open it with
 * ECIES-KEM.
 *
 * - Intermediate: ECDSA P-256/SHA-256 over `lp("Google") || lp("ECv2") || lp(signedKey)` by a root
 *   key of protocolVersion ECv2 whose `keyExpiration` is in the future; the intermediate's own
 *   `keyExpiration` in the future.
 * - Message: ECDSA over `lp("Google") || lp(recipientId) || lp("ECv2") || lp(signedMessage)`,
 *   where lp(x) is x's byte length as 4 bytes little-endian, then x.
 * - Decryption: ECDH of the ephemeral key (an uncompressed point) and the merchant's key; HKDF-SHA256
 *   over `ephemeralPublicKey || sharedSecret`, salt 32 zero bytes, info "Google", giving the AES-CTR
 *   key then the HMAC-SHA256 key (32 bytes each for ECv2); the tag checked in constant time; AES-CTR
 *   with a zero IV; `messageExpiration` in the future.
 *
 * Every failure is one WalletTokenRefused, whichever check it was.
 */
import { createDecipheriv, createHmac, createPublicKey, diffieHellman, hkdfSync, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import type { GoogleEcv2Token } from '../../domain/wallets/token-shape';
import { WalletTokenRefused } from '../../domain/wallets/refusals';

export const GOOGLE_SENDER_ID = 'Google';
/** SubjectPublicKeyInfo of a P-256 key, up to the 65-byte uncompressed point that follows it. */
const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/** One entry of Google's `keys.json`. */
export interface GoogleRootSigningKey {
  keyValue: string;
  protocolVersion: string;
  keyExpiration?: string;
}

export interface GoogleVerification {
  rootKeys: readonly GoogleRootSigningKey[];
  /** `gateway:<Gateway>` (or `merchant:<id>` for a merchant that decrypts itself). */
  recipientId: string;
  now: Date;
}

function refuse(reason: string): never {
  throw new WalletTokenRefused(reason);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string, what: string): Json {
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return value;
  } catch {
    // refused below
  }
  refuse(`${what} is not a JSON object`);
}

/** Each part's UTF-8 byte length as 4 bytes little-endian, then the part: Google's signed-bytes format. */
export function lengthPrefixed(parts: readonly string[]): Buffer {
  return Buffer.concat(
    parts.flatMap((part) => {
      const bytes = Buffer.from(part, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      return [length, bytes];
    }),
  );
}

/** ECDSA P-256/SHA-256 (DER signature) by a base64 SubjectPublicKeyInfo; false on any malformed input. */
export function verifyEcdsa(spkiBase64: string, signatureBase64: string, data: Buffer): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return false;
    return verify('sha256', data, { key, dsaEncoding: 'der' }, Buffer.from(signatureBase64, 'base64'));
  } catch {
    return false;
  }
}

function expiresAfter(expiration: unknown, now: Date): boolean {
  return typeof expiration === 'string' && /^\d{1,16}$/.test(expiration) && Number(expiration) > now.getTime();
}

/** Verifies both signatures and both expirations; resolves with the signed message's fields. */
export function verifyGoogleSignatures(token: GoogleEcv2Token, trust: GoogleVerification): Json {
  const roots = trust.rootKeys.filter((key) => key.protocolVersion === 'ECv2' && expiresAfter(key.keyExpiration, trust.now));
  if (roots.length === 0) refuse('no unexpired ECv2 root signing key is trusted here');
  const signedKey = parseJson(token.intermediateSigningKey.signedKey, 'signedKey');
  if (typeof signedKey.keyValue !== 'string') refuse('signedKey has no keyValue');
  if (!expiresAfter(signedKey.keyExpiration, trust.now)) refuse('the intermediate signing key has expired');
  const keyBytes = lengthPrefixed([GOOGLE_SENDER_ID, token.protocolVersion, token.intermediateSigningKey.signedKey]);
  const intermediateSigned = roots.some((root) =>
    token.intermediateSigningKey.signatures.some((signature) => verifyEcdsa(root.keyValue, signature, keyBytes)),
  );
  if (!intermediateSigned) refuse('no trusted root signed the intermediate signing key');
  const messageBytes = lengthPrefixed([GOOGLE_SENDER_ID, trust.recipientId, token.protocolVersion, token.signedMessage]);
  if (!verifyEcdsa(signedKey.keyValue, token.signature, messageBytes)) refuse('the message signature does not verify');
  return parseJson(token.signedMessage, 'signedMessage');
}

/**
 * ECIES-KEM as the payment method token uses it; `keyBytes` is 32 for ECv2 (AES-256) and 16 for
 * ECv1. Resolves with the plaintext, or null when the tag does not verify with this key.
 */
export function openEciesKem(
  message: { encryptedMessage: string; ephemeralPublicKey: string; tag: string },
  privateKey: KeyObject,
  keyBytes: 16 | 32,
): Buffer | null {
  const ephemeral = Buffer.from(message.ephemeralPublicKey, 'base64');
  if (ephemeral.length !== 65 || ephemeral[0] !== 0x04) return null;
  let shared: Buffer;
  try {
    const publicKey = createPublicKey({ key: Buffer.concat([P256_SPKI_PREFIX, ephemeral]), format: 'der', type: 'spki' });
    shared = diffieHellman({ privateKey, publicKey });
  } catch {
    return null;
  }
  const keys = Buffer.from(hkdfSync('sha256', Buffer.concat([ephemeral, shared]), Buffer.alloc(32), Buffer.from(GOOGLE_SENDER_ID), keyBytes * 2));
  const encrypted = Buffer.from(message.encryptedMessage, 'base64');
  const tag = Buffer.from(message.tag, 'base64');
  const expected = createHmac('sha256', keys.subarray(keyBytes)).update(encrypted).digest();
  if (tag.length !== expected.length || !timingSafeEqual(tag, expected)) return null;
  const decipher = createDecipheriv(keyBytes === 32 ? 'aes-256-ctr' : 'aes-128-ctr', keys.subarray(0, keyBytes), Buffer.alloc(16));
  return Buffer.concat([decipher.update(encrypted), decipher.final()]);
}

/** Verify and decrypt an ECv2 token; resolves with the decrypted message (`messageExpiration` checked). */
export function openGoogleToken(token: GoogleEcv2Token, trust: GoogleVerification, privateKeys: readonly KeyObject[]): Json {
  const message = verifyGoogleSignatures(token, trust);
  const { encryptedMessage, ephemeralPublicKey, tag } = message;
  if (typeof encryptedMessage !== 'string' || typeof ephemeralPublicKey !== 'string' || typeof tag !== 'string') {
    refuse('signedMessage lacks encryptedMessage, ephemeralPublicKey or tag');
  }
  let plaintext: Buffer | null = null;
  for (const key of privateKeys) {
    plaintext = openEciesKem({ encryptedMessage, ephemeralPublicKey, tag }, key, 32);
    if (plaintext) break;
  }
  if (!plaintext) refuse('the tag does not verify with any of the merchant keys');
  const decrypted = parseJson(plaintext.toString('utf8'), 'the decrypted message');
  if (!expiresAfter(decrypted.messageExpiration, trust.now)) refuse('the message has expired');
  return decrypted;
}
