/**
 * Card data at rest: the card vault (stored cards) and the hosted fields' pending card data. Both
 * must be visible to every API process, so they live on PostgreSQL when the deployment has it: the
 * card frame and the merchant may reach different processes.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { surviveConnectionLoss } from '../adapters/postgres/survive-connection-loss';
import { EncryptedCardVault } from '../adapters/vault/card-vault';
import { PostgresCardVault } from '../adapters/vault/postgres-card-vault';
import { PostgresPendingCardData } from '../adapters/vault/postgres-pending-card-data';
import { SqlitePendingCardData } from '../adapters/vault/sqlite-pending-card-data';
import { PENDING_CARD_TTL_MS, sweepPendingCardsPeriodically } from '../application/checkout/pending-card-data';
import type { CardVault, UnownedCardTokens } from '../application/ports/card-vault';
import type { PendingCardData } from '../application/ports/pending-card-data';
import { claimUnownedCardTokens } from '../application/vault/claim-unowned-card-tokens';
import type { Core } from './core';

export interface CardData {
  vault: CardVault & UnownedCardTokens;
  pendingCards: PendingCardData;
  close(): Promise<void>;
}

interface Stores {
  vault: CardVault & UnownedCardTokens;
  pendingCards: PendingCardData;
  close: () => Promise<void>;
}

async function openStores({ config, logger, clock, key }: Core): Promise<Stores> {
  const pendingCardOptions = { vaultKey: key, ttlMs: PENDING_CARD_TTL_MS, now: () => clock.now().getTime() };
  if (config.databaseUrl && config.eventStore !== 'sqlite') {
    const pool = surviveConnectionLoss(new Pool({ connectionString: config.databaseUrl, max: 4 }), (error) =>
      logger.warn('card vault lost a database connection, it reconnects', { error: error.message }),
    );
    return {
      vault: await PostgresCardVault.create(pool, key),
      pendingCards: await PostgresPendingCardData.create(pool, pendingCardOptions),
      close: () => pool.end(),
    };
  }
  const vaultDb = new Database(path.join(config.dataDir, 'vault.db'));
  vaultDb.pragma('journal_mode = WAL');
  vaultDb.pragma('synchronous = FULL');
  vaultDb.pragma('busy_timeout = 5000');
  return {
    vault: new EncryptedCardVault({ db: vaultDb, key }),
    pendingCards: new SqlitePendingCardData(vaultDb, pendingCardOptions),
    close: async () => void vaultDb.close(),
  };
}

export async function wireCardData(core: Core): Promise<CardData> {
  const { vault, pendingCards, close } = await openStores(core);
  const sweep = sweepPendingCardsPeriodically(pendingCards, {
    onError: (error) => core.logger.warn('could not delete expired hosted-fields card data, will try again', { error: String(error) }),
  });
  await claimUnownedCardTokens(vault, core.store, core.logger);
  return {
    vault,
    pendingCards,
    async close() {
      await sweep.stop();
      await close();
    },
  };
}
