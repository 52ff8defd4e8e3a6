/**
 * Pending hosted-fields card data in SQLite (the vault's file): for the embedded gateway, and for
 * several processes that share one data directory. Rows are sealed by `pending-card-box.ts`; a take
 * is one `DELETE ... RETURNING`, so of two takes at once (two connections, even two processes) only
 * one gets the row.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { CardData } from '../../application/ports/connector';
import type { PendingCardData } from '../../application/ports/pending-card-data';
import { openPendingCard, pendingCardKey, sealPendingCard, type PendingCardDataOptions } from './pending-card-box';

interface Row {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
  expires_at: number;
}

export class SqlitePendingCardData implements PendingCardData {
  private readonly key: Buffer;
  private readonly upsert: Statement<[string, Buffer, Buffer, Buffer, number]>;
  private readonly remove: Statement<[string], Row>;
  private readonly expire: Statement<[number]>;

  constructor(
    db: Database,
    private readonly options: PendingCardDataOptions,
  ) {
    this.key = pendingCardKey(options.vaultKey);
    // Deleted rows are overwritten in the file rather than left in its free pages.
    db.pragma('secure_delete = ON');
    db.exec(`
      CREATE TABLE IF NOT EXISTS pending_card_data (
        session_id TEXT PRIMARY KEY,
        iv         BLOB NOT NULL,
        tag        BLOB NOT NULL,
        ciphertext BLOB NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS pending_card_data_expires_at ON pending_card_data (expires_at);
    `);
    this.upsert = db.prepare(`
      INSERT INTO pending_card_data (session_id, iv, tag, ciphertext, expires_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (session_id) DO UPDATE SET iv = excluded.iv, tag = excluded.tag, ciphertext = excluded.ciphertext, expires_at = excluded.expires_at
    `);
    this.remove = db.prepare('DELETE FROM pending_card_data WHERE session_id = ? RETURNING iv, tag, ciphertext, expires_at');
    this.expire = db.prepare('DELETE FROM pending_card_data WHERE expires_at < ?');
  }

  async hold(sessionId: string, card: CardData): Promise<void> {
    const now = this.options.now();
    this.expire.run(now);
    const sealed = sealPendingCard(this.key, sessionId, card);
    this.upsert.run(sessionId, sealed.iv, sealed.tag, sealed.ciphertext, now + this.options.ttlMs);
  }

  async take(sessionId: string): Promise<CardData | null> {
    const row = this.remove.get(sessionId);
    if (!row || row.expires_at < this.options.now()) return null;
    return openPendingCard(this.key, sessionId, row);
  }

  async sweep(): Promise<number> {
    return this.expire.run(this.options.now()).changes;
  }
}
