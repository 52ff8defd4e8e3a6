/**
 * How a card becomes a vault record and back, for every vault adapter. A record is sealed with
 * AES-256-GCM and bound (as additional authenticated data) to its token and to the merchant that
 * stored it: a ciphertext copied onto another token, or a row whose owner column was rewritten,
 * fails to open. Records written before cards had owners are bound to the token alone until
 * `claimUnownedCardTokens` gives them their owner.
 */
import { randomBytes } from 'node:crypto';
import type { StoredCard } from '../../application/ports/card-vault';
import { open, seal, type Sealed } from './secret-box';

export class VaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VaultError';
  }
}

export const CARD_TOKEN = /^ct_[0-9a-f]{32}$/;
const ALLOWED_FIELDS = new Set(['number', 'expMonth', 'expYear', 'holder']);

/** What is sealed: short keys keep records small; the shape is private to the vault. */
interface Plain {
  n: string;
  m: string;
  y: string;
  h?: string;
}

export function checkCard(card: StoredCard): void {
  if (card === null || typeof card !== 'object') throw new VaultError('Card must be an object');
  for (const field of Object.keys(card)) {
    // Whitelisting rather than looking for "cvv" catches every spelling of it.
    if (!ALLOWED_FIELDS.has(field)) throw new VaultError(`Card field "${field}" cannot be stored`);
  }
  if (typeof card.number !== 'string' || !/^[0-9]{12,19}$/.test(card.number)) {
    throw new VaultError('Card number must be 12 to 19 digits');
  }
  if (typeof card.expMonth !== 'string' || !/^(0[1-9]|1[0-2])$/.test(card.expMonth)) {
    throw new VaultError('Expiry month must be MM');
  }
  if (typeof card.expYear !== 'string' || !/^[0-9]{4}$/.test(card.expYear)) {
    throw new VaultError('Expiry year must be YYYY');
  }
  if (card.holder !== undefined && typeof card.holder !== 'string') {
    throw new VaultError('Card holder must be a string');
  }
}

export function checkOwner(owner: string): void {
  if (typeof owner !== 'string' || owner.length === 0 || owner.includes('\u0000')) throw new VaultError('A stored card needs its merchant');
}

/** The token is pure randomness: nothing about the card can be learned from it. */
export function newCardToken(): string {
  return `ct_${randomBytes(16).toString('hex')}`;
}

function context(token: string, owner: string | null): Buffer {
  return Buffer.from(owner === null ? token : `${token}\u0000${owner}`, 'utf8');
}

export function sealCard(key: Buffer, token: string, owner: string, card: StoredCard): Sealed {
  checkCard(card);
  checkOwner(owner);
  const plain: Plain = { n: card.number, m: card.expMonth, y: card.expYear };
  if (card.holder !== undefined) plain.h = card.holder;
  return seal(key, Buffer.from(JSON.stringify(plain), 'utf8'), context(token, owner));
}

/** `owner` null opens a record written before cards had owners. */
export function openCard(key: Buffer, token: string, owner: string | null, sealed: Sealed): StoredCard {
  let plain: Plain;
  try {
    plain = JSON.parse(open(key, sealed, context(token, owner)).toString('utf8')) as Plain;
  } catch {
    throw new VaultError('Vault record failed its integrity check (wrong key or altered data)');
  }
  const card: StoredCard = { number: plain.n, expMonth: plain.m, expYear: plain.y };
  if (plain.h !== undefined) card.holder = plain.h;
  return card;
}
