/**
 * Pending hosted-fields card data in PostgreSQL, for a deployment of several API processes: the
 * card frame's request and the merchant's processing request may reach different processes. Rows
 * are sealed by `pending-card-box.ts`; a take is one `delete ... returning`, so of two takes at
 * once only one gets the row.
 */
import type { Pool } from 'pg';
import type { CardData } from '../../application/ports/connector';
import type { PendingCardData } from '../../application/ports/pending-card-data';
import { openPendingCard, pendingCardKey, sealPendingCard, type PendingCardDataOptions } from './pending-card-box';

interface Row {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
  expires_at: string;
}

/** Another process created the table (or its row type) at the same moment. */
const CREATED_CONCURRENTLY = new Set(['23505', '42P07']);

export class PostgresPendingCardData implements PendingCardData {
  private constructor(
    private readonly pool: Pool,
    private readonly key: Buffer,
    private readonly options: PendingCardDataOptions,
  ) {}

  static async create(pool: Pool, options: PendingCardDataOptions): Promise<PostgresPendingCardData> {
    const key = pendingCardKey(options.vaultKey);
    for (const ddl of [
      `create table if not exists pending_card_data (
        session_id text primary key,
        iv bytea not null,
        tag bytea not null,
        ciphertext bytea not null,
        expires_at bigint not null
      )`,
      'create index if not exists pending_card_data_expires_at on pending_card_data (expires_at)',
    ]) {
      try {
        await pool.query(ddl);
      } catch (error) {
        if (!CREATED_CONCURRENTLY.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
    return new PostgresPendingCardData(pool, key, options);
  }

  async hold(sessionId: string, card: CardData): Promise<void> {
    const now = this.options.now();
    await this.pool.query('delete from pending_card_data where expires_at < $1', [now]);
    const sealed = sealPendingCard(this.key, sessionId, card);
    await this.pool.query(
      `insert into pending_card_data (session_id, iv, tag, ciphertext, expires_at) values ($1, $2, $3, $4, $5)
       on conflict (session_id) do update set iv = excluded.iv, tag = excluded.tag, ciphertext = excluded.ciphertext, expires_at = excluded.expires_at`,
      [sessionId, sealed.iv, sealed.tag, sealed.ciphertext, now + this.options.ttlMs],
    );
  }

  async take(sessionId: string): Promise<CardData | null> {
    const { rows } = await this.pool.query<Row>(
      'delete from pending_card_data where session_id = $1 returning iv, tag, ciphertext, expires_at',
      [sessionId],
    );
    if (rows.length === 0 || Number(rows[0].expires_at) < this.options.now()) return null;
    return openPendingCard(this.key, sessionId, rows[0]);
  }

  async sweep(): Promise<number> {
    const { rowCount } = await this.pool.query('delete from pending_card_data where expires_at < $1', [this.options.now()]);
    return rowCount ?? 0;
  }
}
