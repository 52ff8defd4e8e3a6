/**
 * The card vault on PostgreSQL, for scaled-out deployments where several API processes must see
 * the same stored cards. Same sealing as the embedded vault: AES-256-GCM, random IV per record,
 * the token bound as additional authenticated data.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { CardVault, StoredCard } from '../../application/ports/card-vault';
import { VaultError } from './card-vault';
import { assertKey, open, seal } from './secret-box';

const TOKEN = /^ct_[0-9a-f]{32}$/;

export class PostgresCardVault implements CardVault {
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
      created_at timestamptz not null default now()
    )`);
    return new PostgresCardVault(pool, Buffer.from(key));
  }

  async store(card: StoredCard): Promise<string> {
    const keys = Object.keys(card).filter((k) => !['number', 'expMonth', 'expYear', 'holder'].includes(k));
    if (keys.length) throw new VaultError(`Card field "${keys[0]}" cannot be stored`);
    if (!/^[0-9]{12,19}$/.test(card.number)) throw new VaultError('Card number must be 12 to 19 digits');
    const plain: Record<string, string> = { n: card.number, m: card.expMonth, y: card.expYear };
    if (card.holder !== undefined) plain.h = card.holder;
    const token = `ct_${randomBytes(16).toString('hex')}`;
    const sealed = seal(this.key, Buffer.from(JSON.stringify(plain), 'utf8'), Buffer.from(token, 'utf8'));
    await this.pool.query('insert into card_vault (token, ciphertext, iv, tag) values ($1, $2, $3, $4)', [
      token,
      sealed.ciphertext,
      sealed.iv,
      sealed.tag,
    ]);
    return token;
  }

  async retrieve(token: string): Promise<StoredCard | null> {
    if (typeof token !== 'string' || !TOKEN.test(token)) return null;
    const { rows } = await this.pool.query<{ ciphertext: Buffer; iv: Buffer; tag: Buffer }>(
      'select ciphertext, iv, tag from card_vault where token = $1',
      [token],
    );
    if (rows.length === 0) return null;
    let plain: { n: string; m: string; y: string; h?: string };
    try {
      plain = JSON.parse(open(this.key, rows[0], Buffer.from(token, 'utf8')).toString('utf8'));
    } catch {
      throw new VaultError('Vault record failed its integrity check (wrong key or altered data)');
    }
    const card: StoredCard = { number: plain.n, expMonth: plain.m, expYear: plain.y };
    if (plain.h !== undefined) card.holder = plain.h;
    return card;
  }
}
