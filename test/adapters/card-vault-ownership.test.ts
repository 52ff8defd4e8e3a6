/**
 * A stored card belongs to the merchant whose payment stored it, on both vault adapters: another
 * merchant's lookup is answered as for a token that does not exist, an owner rewritten in the table
 * does not open the record, and records written before cards had owners are usable by nobody until
 * they are claimed for their merchant.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { EncryptedCardVault, VaultError } from '../../src/adapters/vault/card-vault';
import { PostgresCardVault } from '../../src/adapters/vault/postgres-card-vault';
import { seal } from '../../src/adapters/vault/secret-box';
import type { CardVault, UnownedCardTokens } from '../../src/application/ports/card-vault';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';

const CARD = { number: '4111111111111111', expMonth: '01', expYear: '2038', holder: 'Jane Doe' };
const A = 'merchant-a';
const B = 'merchant-b';

interface Harness {
  vault: CardVault & UnownedCardTokens;
  key: Buffer;
  /** Runs SQL on the vault's table (placeholders `?` are rewritten for PostgreSQL). */
  sql(text: string, params: unknown[]): Promise<void>;
  reopen(): Promise<CardVault & UnownedCardTokens>;
}

/** The table as the previous release wrote it: no owner column, records bound to their token only. */
const LEGACY_TABLE = `CREATE TABLE card_vault (token TEXT PRIMARY KEY, ciphertext BLOB NOT NULL, iv BLOB NOT NULL, tag BLOB NOT NULL, created_at TEXT NOT NULL)`;

function legacyRecord(key: Buffer, token: string) {
  const sealed = seal(key, Buffer.from(JSON.stringify({ n: CARD.number, m: CARD.expMonth, y: CARD.expYear }), 'utf8'), Buffer.from(token, 'utf8'));
  return [token, sealed.ciphertext, sealed.iv, sealed.tag, new Date().toISOString()];
}

function ownershipSuite(name: string, setup: (legacy: boolean) => Promise<Harness>, teardown: () => Promise<void>) {
  describe(`Card vault ownership [${name}]`, function () {
    if (name === 'PostgreSQL') requirePostgres(this);
    afterEach(teardown);

    it('Given a card stored for merchant A, when merchant B asks for its token, then B gets nothing, as for a token that does not exist', async () => {
      const { vault } = await setup(false);
      const token = await vault.store(CARD, A);
      expect(await vault.retrieve(token, A)).to.deep.equal(CARD);
      expect(await vault.retrieve(token, B)).to.equal(null);
      expect(await vault.retrieve(`ct_${'0'.repeat(32)}`, B)).to.equal(null);
    });

    it('Given a stored card, when its owner column is rewritten to another merchant, then the record does not open for them', async () => {
      const h = await setup(false);
      const token = await h.vault.store(CARD, A);
      await h.sql('UPDATE card_vault SET merchant_id = ? WHERE token = ?', [B, token]);
      try {
        await h.vault.retrieve(token, B);
        expect.fail('the rewritten record opened');
      } catch (error) {
        expect(error).to.be.instanceOf(VaultError);
      }
      expect(await h.vault.retrieve(token, A)).to.equal(null);
    });

    it('Given a record of the previous release (no owner), when the vault opens, then nobody can use it until it is claimed for its merchant', async () => {
      const h = await setup(true);
      const token = `ct_${randomBytes(16).toString('hex')}`;
      await h.sql('INSERT INTO card_vault (token, ciphertext, iv, tag, created_at) VALUES (?, ?, ?, ?, ?)', legacyRecord(h.key, token));
      const vault = await h.reopen();
      expect(await vault.unownedTokens()).to.deep.equal([token]);
      expect(await vault.retrieve(token, A)).to.equal(null);

      await vault.claim(token, A);
      await vault.claim(token, B); // a second claim changes nothing

      expect(await vault.unownedTokens()).to.deep.equal([]);
      expect(await vault.retrieve(token, A)).to.deep.equal({ number: CARD.number, expMonth: CARD.expMonth, expYear: CARD.expYear });
      expect(await vault.retrieve(token, B)).to.equal(null);
    });
  });
}

{
  let db: Database.Database | undefined;
  ownershipSuite(
    'SQLite',
    async (legacy) => {
      db = new Database(':memory:');
      const key = randomBytes(32);
      if (legacy) db.exec(LEGACY_TABLE);
      const open = () => new EncryptedCardVault({ db: db!, key });
      return {
        vault: open(),
        key,
        sql: async (text, params) => void db!.prepare(text).run(...params),
        reopen: async () => open(),
      };
    },
    async () => void db?.close(),
  );
}

{
  let pool: Pool | undefined;
  let schema: string | undefined;
  ownershipSuite(
    'PostgreSQL',
    async (legacy) => {
      const created = await createTestSchema('vault');
      schema = created.schema;
      pool = new Pool({ connectionString: created.url, max: 2 });
      const key = randomBytes(32);
      if (legacy) await pool.query(LEGACY_TABLE.replace(/BLOB/g, 'bytea'));
      const sql = async (text: string, params: unknown[]) => {
        let n = 0;
        await pool!.query(text.replace(/\?/g, () => `$${++n}`), params);
      };
      const open = () => PostgresCardVault.create(pool!, key);
      return { vault: await open(), key, sql, reopen: open };
    },
    async () => {
      await pool?.end();
      if (schema) await dropSchema(schema);
      pool = undefined;
      schema = undefined;
    },
  );
}
