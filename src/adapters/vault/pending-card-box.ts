/**
 * How pending hosted-fields card data is sealed at rest: AES-256-GCM (secret-box.ts, a random IV per
 * seal) under a key of its own derived from the vault key, with the session id as associated data,
 * so a row copied under another session's id fails to open. Every process sharing the vault key
 * derives the same key, which is what lets one process open what another held.
 */
import { createHmac } from 'node:crypto';
import type { CardData } from '../../application/ports/connector';
import { assertKey, open, seal, type Sealed } from './secret-box';

export interface PendingCardDataOptions {
  vaultKey: Buffer;
  /** How long a holding stays usable after the payer typed it. */
  ttlMs: number;
  /** Milliseconds since the epoch; the gateway's clock (the sandbox's can be moved ahead). */
  now: () => number;
}

export class PendingCardDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PendingCardDataError';
  }
}

/** The key of pending card data only: a leak of it exposes no stored card and no merchant password. */
export function pendingCardKey(vaultKey: Buffer): Buffer {
  assertKey(vaultKey);
  return createHmac('sha256', vaultKey).update('pending-card-data').digest();
}

export function sealPendingCard(key: Buffer, sessionId: string, card: CardData): Sealed {
  const plaintext = Buffer.from(
    JSON.stringify({ number: card.number, expMonth: card.expMonth, expYear: card.expYear, cvv: card.cvv, holder: card.holder }),
    'utf8',
  );
  try {
    return seal(key, plaintext, Buffer.from(sessionId, 'utf8'));
  } finally {
    plaintext.fill(0);
  }
}

/** Throws (without any of the data in the message) when the row does not open for this session. */
export function openPendingCard(key: Buffer, sessionId: string, sealed: Sealed): CardData {
  const plaintext = open(key, sealed, Buffer.from(sessionId, 'utf8'));
  try {
    const card = parse(plaintext);
    if (typeof card.number !== 'string' || typeof card.expMonth !== 'string' || typeof card.expYear !== 'string') {
      throw new PendingCardDataError('Pending card data is malformed');
    }
    return {
      number: card.number,
      expMonth: card.expMonth,
      expYear: card.expYear,
      ...(typeof card.cvv === 'string' ? { cvv: card.cvv } : {}),
      ...(typeof card.holder === 'string' ? { holder: card.holder } : {}),
    };
  } finally {
    plaintext.fill(0);
  }
}

function parse(plaintext: Buffer): Partial<CardData> {
  try {
    const value: unknown = JSON.parse(plaintext.toString('utf8'));
    if (value && typeof value === 'object') return value as Partial<CardData>;
  } catch {
    // JSON.parse quotes the text it failed on in its message: never let that reach a log.
  }
  throw new PendingCardDataError('Pending card data is malformed');
}
