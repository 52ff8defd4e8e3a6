/**
 * Encrypted card vault on SQLite: the only place a full card number is persisted (docs/reference/README.md#cards).
 * Records are sealed by `vault-record.ts`, bound to their token and their merchant. Error messages
 * never include card data: they end up in logs.
 */

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import type { CardVault, StoredCard, UnownedCardTokens } from '../../application/ports/card-vault';
import { assertKey } from './secret-box';
import { CARD_TOKEN, VaultError, checkOwner, newCardToken, openCard, sealCard } from './vault-record';

export { VaultError } from './vault-record';

interface Row {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
}

export class EncryptedCardVault implements CardVault, UnownedCardTokens {
  private readonly key: Buffer;
  private readonly db: Database;
  private readonly insert: Statement<[string, string, Buffer, Buffer, Buffer, string]>;
  private readonly select: Statement<[string, string], Row>;
  private readonly now: () => Date;

  constructor(options: { db: Database; key: Buffer; now?: () => Date }) {
    try {
      assertKey(options.key);
    } catch {
      throw new VaultError('Vault key must be exactly 32 bytes');
    }
    this.key = Buffer.from(options.key);
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    options.db.exec(`
      CREATE TABLE IF NOT EXISTS card_vault (
        token       TEXT PRIMARY KEY,
        ciphertext  BLOB NOT NULL,
        iv          BLOB NOT NULL,
        tag         BLOB NOT NULL,
        created_at  TEXT NOT NULL,
        merchant_id TEXT
      )
    `);
    const columns = options.db.prepare('PRAGMA table_info(card_vault)').all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'merchant_id')) options.db.exec('ALTER TABLE card_vault ADD COLUMN merchant_id TEXT');
    this.insert = options.db.prepare(
      'INSERT INTO card_vault (token, merchant_id, ciphertext, iv, tag, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    // One indexed lookup by token whichever way it misses: unknown and not-yours take the same path.
    this.select = options.db.prepare('SELECT ciphertext, iv, tag FROM card_vault WHERE token = ? AND merchant_id = ?');
  }

  async store(card: StoredCard, merchantId: string): Promise<string> {
    checkOwner(merchantId);
    const token = newCardToken();
    const sealed = sealCard(this.key, token, merchantId, card);
    this.insert.run(token, merchantId, sealed.ciphertext, sealed.iv, sealed.tag, this.now().toISOString());
    return token;
  }

  async retrieve(token: string, merchantId: string): Promise<StoredCard | null> {
    if (typeof token !== 'string' || !CARD_TOKEN.test(token) || typeof merchantId !== 'string') return null;
    const row = this.select.get(token, merchantId);
    return row ? openCard(this.key, token, merchantId, row) : null;
  }

  async unownedTokens(): Promise<string[]> {
    return (this.db.prepare('SELECT token FROM card_vault WHERE merchant_id IS NULL').all() as Array<{ token: string }>).map((r) => r.token);
  }

  async claim(token: string, merchantId: string): Promise<void> {
    checkOwner(merchantId);
    this.db.transaction(() => {
      const row = this.db.prepare('SELECT ciphertext, iv, tag FROM card_vault WHERE token = ? AND merchant_id IS NULL').get(token) as Row | undefined;
      if (!row) return;
      const sealed = sealCard(this.key, token, merchantId, openCard(this.key, token, null, row));
      this.db
        .prepare('UPDATE card_vault SET merchant_id = ?, ciphertext = ?, iv = ?, tag = ? WHERE token = ? AND merchant_id IS NULL')
        .run(merchantId, sealed.ciphertext, sealed.iv, sealed.tag, token);
    })();
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
