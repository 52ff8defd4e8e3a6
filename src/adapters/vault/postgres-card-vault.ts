/**
 * The card vault on PostgreSQL, for scaled-out deployments where several API processes must see
 * the same stored cards. Same records as the embedded vault (`vault-record.ts`): AES-256-GCM,
 * random IV per record, bound to its token and its merchant.
 */
import type { Pool } from 'pg';
import type { CardVault, StoredCard, UnownedCardTokens } from '../../application/ports/card-vault';
import { assertKey } from './secret-box';
import { CARD_TOKEN, checkOwner, newCardToken, openCard, sealCard } from './vault-record';

interface Row {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
}

export class PostgresCardVault implements CardVault, UnownedCardTokens {
  private constructor(
    private readonly pool: Pool,
    private readonly key: Buffer,
  ) {}

  static async create(pool: Pool, key: Buffer): Promise<PostgresCardVault> {
    assertKey(key);
    await pool.query(`create table if not exists card_vault (
      token text primary key,
      ciphertext bytea not null,
      iv bytea not null,
      tag bytea not null,
      created_at timestamptz not null default now(),
      merchant_id text
    )`);
    await pool.query('alter table card_vault add column if not exists merchant_id text');
    return new PostgresCardVault(pool, Buffer.from(key));
  }

  async store(card: StoredCard, merchantId: string): Promise<string> {
    checkOwner(merchantId);
    const token = newCardToken();
    const sealed = sealCard(this.key, token, merchantId, card);
    await this.pool.query('insert into card_vault (token, merchant_id, ciphertext, iv, tag) values ($1, $2, $3, $4, $5)', [
      token,
      merchantId,
      sealed.ciphertext,
      sealed.iv,
      sealed.tag,
    ]);
    return token;
  }

  async retrieve(token: string, merchantId: string): Promise<StoredCard | null> {
    if (typeof token !== 'string' || !CARD_TOKEN.test(token) || typeof merchantId !== 'string') return null;
    // One indexed lookup by token whichever way it misses: unknown and not-yours take the same path.
    const { rows } = await this.pool.query<Row>('select ciphertext, iv, tag from card_vault where token = $1 and merchant_id = $2', [
      token,
      merchantId,
    ]);
    return rows.length === 0 ? null : openCard(this.key, token, merchantId, rows[0]);
  }

  async unownedTokens(): Promise<string[]> {
    const { rows } = await this.pool.query<{ token: string }>('select token from card_vault where merchant_id is null');
    return rows.map((r) => r.token);
  }

  async claim(token: string, merchantId: string): Promise<void> {
    checkOwner(merchantId);
    const { rows } = await this.pool.query<Row>('select ciphertext, iv, tag from card_vault where token = $1 and merchant_id is null', [token]);
    if (rows.length === 0) return;
    const sealed = sealCard(this.key, token, merchantId, openCard(this.key, token, null, rows[0]));
    // Conditional on still being unowned, so two processes claiming at once agree.
    await this.pool.query('update card_vault set merchant_id = $1, ciphertext = $2, iv = $3, tag = $4 where token = $5 and merchant_id is null', [
      merchantId,
      sealed.ciphertext,
      sealed.iv,
      sealed.tag,
      token,
    ]);
  }
}
