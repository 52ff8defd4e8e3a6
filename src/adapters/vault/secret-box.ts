/**
 * AES-256-GCM sealing for small secrets (merchant passwords kept in events, card vault records).
 * Every seal uses a fresh random 12-byte IV: with GCM, reusing an IV under one key leaks the
 * plaintexts' XOR and the authentication key, so IVs are never derived from the data.
 */

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretCipher } from '../../application/ports/secret-cipher';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== 32) {
    throw new SecretBoxError('Encryption key must be exactly 32 bytes');
  }
}

/** `aad` binds the ciphertext to its context (a token, a merchant id) so it cannot be moved. */
export function seal(key: Buffer, plaintext: Buffer, aad?: Buffer): Sealed {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  if (aad) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

/** Throws SecretBoxError when the tag does not verify (wrong key, altered data, wrong context). */
export function open(key: Buffer, sealed: Sealed, aad?: Buffer): Buffer {
  assertKey(key);
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) {
    throw new SecretBoxError('Sealed data is malformed');
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: TAG_BYTES });
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    throw new SecretBoxError('Sealed data failed its integrity check');
  }
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Seals a UTF-8 string into the self-describing text `v1:<iv>:<tag>:<ciphertext>` (standard
 * base64 parts). The version prefix lets a later format or key scheme coexist with old events.
 */
export function encryptSecret(key: Buffer, plaintext: string, context?: string): string {
  const sealed = seal(key, Buffer.from(plaintext, 'utf8'), context === undefined ? undefined : Buffer.from(context, 'utf8'));
  return [FORMAT, sealed.iv.toString('base64'), sealed.tag.toString('base64'), sealed.ciphertext.toString('base64')].join(':');
}

/** Reverses encryptSecret; `context` must be the one given when encrypting. */
export function decryptSecret(key: Buffer, text: string, context?: string): string {
  const parts = typeof text === 'string' ? text.split(':') : [];
  if (parts.length !== 4 || parts[0] !== FORMAT || !parts.slice(1).every((p) => B64.test(p))) {
    throw new SecretBoxError('Not a v1 sealed secret');
  }
  const [, iv, tag, ciphertext] = parts;
  const plain = open(
    key,
    {
      iv: Buffer.from(iv, 'base64'),
      tag: Buffer.from(tag, 'base64'),
      ciphertext: Buffer.from(ciphertext, 'base64'),
    },
    context === undefined ? undefined : Buffer.from(context, 'utf8'),
  );
  return plain.toString('utf8');
}

/** The SecretCipher port over encryptSecret/decryptSecret, holding its own copy of the key. */
export class SecretBoxCipher implements SecretCipher {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    assertKey(key);
    this.key = Buffer.from(key);
  }

  encrypt(plaintext: string): string {
    return encryptSecret(this.key, plaintext);
  }

  decrypt(ciphertext: string): string {
    return decryptSecret(this.key, ciphertext);
  }
}
