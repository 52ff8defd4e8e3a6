/**
 * Encrypted card vault: the only place a full card number is persisted (decisions.md §5).
 * Each record is sealed with AES-256-GCM under its own random IV and bound to its token (as
 * additional authenticated data), so a ciphertext copied onto another token fails to open.
 * Error messages never include card data: they end up in logs.
 */

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import type { CardVault, StoredCard } from '../../application/ports/card-vault';
import { open, seal, assertKey } from './secret-box';

export class VaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VaultError';
  }
}

const TOKEN = /^ct_[0-9a-f]{32}$/;
const ALLOWED_FIELDS = new Set(['number', 'expMonth', 'expYear', 'holder']);

interface Row {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
}

/** What is sealed: short keys keep records small; the shape is private to this file. */
interface Plain {
  n: string;
  m: string;
  y: string;
  h?: string;
}

function checkCard(card: StoredCard): void {
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

export class EncryptedCardVault implements CardVault {
  private readonly key: Buffer;
  private readonly insert: Statement<[string, Buffer, Buffer, Buffer, string]>;
  private readonly select: Statement<[string], Row>;
  private readonly now: () => Date;

  constructor(options: { db: Database; key: Buffer; now?: () => Date }) {
    try {
      assertKey(options.key);
    } catch {
      throw new VaultError('Vault key must be exactly 32 bytes');
    }
    this.key = Buffer.from(options.key);
    this.now = options.now ?? (() => new Date());
    options.db.exec(`
      CREATE TABLE IF NOT EXISTS card_vault (
        token      TEXT PRIMARY KEY,
        ciphertext BLOB NOT NULL,
        iv         BLOB NOT NULL,
        tag        BLOB NOT NULL,
        created_at TEXT NOT NULL
      )
    `);
    this.insert = options.db.prepare<[string, Buffer, Buffer, Buffer, string]>(
      'INSERT INTO card_vault (token, ciphertext, iv, tag, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.select = options.db.prepare<[string], Row>(
      'SELECT ciphertext, iv, tag FROM card_vault WHERE token = ?',
    );
  }

  async store(card: StoredCard): Promise<string> {
    checkCard(card);
    const plain: Plain = { n: card.number, m: card.expMonth, y: card.expYear };
    if (card.holder !== undefined) plain.h = card.holder;
    // The token is pure randomness: nothing about the card can be learned from it.
    const token = `ct_${randomBytes(16).toString('hex')}`;
    const sealed = seal(this.key, Buffer.from(JSON.stringify(plain), 'utf8'), Buffer.from(token, 'utf8'));
    this.insert.run(token, sealed.ciphertext, sealed.iv, sealed.tag, this.now().toISOString());
    return token;
  }

  async retrieve(token: string): Promise<StoredCard | null> {
    if (typeof token !== 'string' || !TOKEN.test(token)) return null;
    const row = this.select.get(token);
    if (!row) return null;
    let plain: Plain;
    try {
      const bytes = open(this.key, { iv: row.iv, tag: row.tag, ciphertext: row.ciphertext }, Buffer.from(token, 'utf8'));
      plain = JSON.parse(bytes.toString('utf8')) as Plain;
    } catch {
      throw new VaultError('Vault record failed its integrity check (wrong key or altered data)');
    }
    const card: StoredCard = { number: plain.n, expMonth: plain.m, expYear: plain.y };
    if (plain.h !== undefined) card.holder = plain.h;
    return card;
  }
}

/**
 * Resolves the vault key, in order: the configured hex key; the key file; a new random key
 * written to the key file (mode 0600, directory created 0700).
 *
 * An existing key file readable or writable by group or others is refused with an error rather
 * than a warning: a warning scrolls past unnoticed, and a leaked vault key exposes every stored
 * card. The fix is one `chmod 600`. (Not checked on Windows, where mode bits mean nothing.)
 *
 * A null or empty `keyHex` counts as not configured, since an unset environment variable often arrives
 * as an empty string.
 */
export function loadOrCreateVaultKey(options: { keyHex?: string | null; keyFile: string }): Buffer {
  const { keyHex, keyFile } = options;
  if (keyHex !== undefined && keyHex !== null && keyHex !== '') {
    return parseHexKey(keyHex.trim(), 'The configured vault key');
  }
  const existing = readKeyFile(keyFile);
  if (existing) return existing;

  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // Written to a temporary file and then hard-linked into place: link fails if another process
  // created the key first, and the file it created is already complete, so both end up with one key.
  const temp = `${keyFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temp, keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = readKeyFile(keyFile);
    if (!theirs) throw new VaultError(`Vault key file ${keyFile} vanished while being created`);
    return theirs;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return key;
}

function readKeyFile(keyFile: string): Buffer | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!stat.isFile()) throw new VaultError(`Vault key file ${keyFile} is not a regular file`);
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new VaultError(
      `Vault key file ${keyFile} has permissions ${(stat.mode & 0o777).toString(8)}; ` +
        'it must be readable by its owner only (chmod 600)',
    );
  }
  return parseHexKey(fs.readFileSync(keyFile, 'utf8').trim(), `Vault key file ${keyFile}`);
}

function parseHexKey(text: string, source: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new VaultError(`${source} must be 64 hexadecimal characters (32 bytes)`);
  }
  return Buffer.from(text, 'hex');
}
