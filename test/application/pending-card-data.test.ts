/**
 * The pending card data contract against both adapters: SQLite (a file, opened by two connections
 * as two processes on one data directory would) and PostgreSQL (a schema of its own, two pools).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { PostgresPendingCardData } from '../../src/adapters/vault/postgres-pending-card-data';
import { SqlitePendingCardData } from '../../src/adapters/vault/sqlite-pending-card-data';
import { PENDING_CARD_TTL_MS } from '../../src/application/checkout/pending-card-data';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';
import { pendingCardDataContract } from './pending-card-data.contract';

pendingCardDataContract('SQLite', async ({ vaultKey }) => {
  const dir = mkdtempSync(join(tmpdir(), 'pending-cards-'));
  const file = join(dir, 'vault.db');
  const connections: Database.Database[] = [];
  const connect = () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    connections.push(db);
    return db;
  };
  const admin = connect();
  return {
    async open({ now, vaultKey: key }) {
      return new SqlitePendingCardData(connect(), { vaultKey: key ?? vaultKey, ttlMs: PENDING_CARD_TTL_MS, now });
    },
    async rawRows() {
      return admin.prepare('SELECT * FROM pending_card_data ORDER BY session_id').all() as Array<Record<string, unknown>>;
    },
    async moveRow(from, to) {
      admin.prepare('UPDATE pending_card_data SET session_id = ? WHERE session_id = ?').run(to, from);
    },
    async cleanup() {
      for (const db of connections) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('Pending card data on PostgreSQL', function () {
  requirePostgres(this);

  pendingCardDataContract('PostgreSQL', async ({ vaultKey }) => {
    const { url, schema } = await createTestSchema('pending');
    const pools: Pool[] = [];
    const connect = () => {
      const pool = new Pool({ connectionString: url, max: 4 });
      pools.push(pool);
      return pool;
    };
    const admin = connect();
    return {
      async open({ now, vaultKey: key }) {
        return PostgresPendingCardData.create(connect(), { vaultKey: key ?? vaultKey, ttlMs: PENDING_CARD_TTL_MS, now });
      },
      async rawRows() {
        return (await admin.query('select * from pending_card_data order by session_id')).rows;
      },
      async moveRow(from, to) {
        await admin.query('update pending_card_data set session_id = $1 where session_id = $2', [to, from]);
      },
      async cleanup() {
        for (const pool of pools) await pool.end();
        await dropSchema(schema);
      },
    };
  });
});
