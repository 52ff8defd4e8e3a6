/**
 * The workers' periodic questions to the payments and transactions read models (payer actions to
 * expire, payments and operations to reconcile every 30 s, payouts to settle every second) are
 * asked for the life of the gateway. Given the tables, then each of them is answered through an
 * index: a scan of every payment ever made grows with the history (about 100 ms at 50,000
 * payments) and holds the workers' thread each time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { migrateReadModels } from '../../projections/database';
import { scoped, type ReadModelDatabase } from '../../projections/database-schema';
import { PaymentQueries } from '../../projections/payments/queries';
import { TransactionQueries } from '../../projections/transactions/queries';

describe('read models: the workers\' candidate queries', () => {
  let dir: string;
  let database: Database.Database;
  let db: Kysely<ReadModelDatabase>;
  const asked: CompiledQuery[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'worker-queries-'));
    database = new Database(path.join(dir, 'read-models.db'));
    db = new Kysely<ReadModelDatabase>({
      dialect: new SqliteDialect({ database }),
      log: (event) => {
        if (event.level === 'query') asked.push(event.query);
      },
    });
    await migrateReadModels(db);
    asked.length = 0;
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Given the tables, then expiry, reconciliation and sandbox payouts find their candidates without scanning them', async () => {
    const payments = new PaymentQueries(scoped(db));
    const now = '2026-01-01T00:00:00.000Z';
    await payments.abandonedPayerActions(now, 500);
    await payments.expiredPayerActions(now, 500);
    await payments.unansweredPayments(now, 200);
    await payments.pendingPayouts(now, 200);
    await new TransactionQueries(scoped(db)).paymentsWithUnansweredOperations(now, 200);

    expect(asked).to.have.length(5);
    for (const query of asked) {
      const plan = database.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{ detail: string }>;
      const details = plan.map((step) => step.detail);
      expect(details.filter((d) => /^SCAN (payments|transactions)\b/.test(d)), `${query.sql}\n${details.join('\n')}`).to.deep.equal([]);
    }
  });
});
