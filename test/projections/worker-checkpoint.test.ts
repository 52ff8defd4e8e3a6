/**
 * The notifier's checkpoint beside the projections': a save that would wait for another writer of
 * the SQLite read models (the projector's batch) can give up at once instead of stopping its thread.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { createReadModelDb, migrateReadModels } from '../../projections/database';
import type { ReadModelDatabase } from '../../projections/database-schema';
import { workerCheckpoint } from '../../projections/worker-checkpoint';

describe('a worker checkpoint on SQLite read models', function () {
  let dir = '';
  let db: Kysely<ReadModelDatabase>;
  let other: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'worker-checkpoint-'));
    const file = join(dir, 'read-models.db');
    db = createReadModelDb({ kind: 'sqlite', file });
    await migrateReadModels(db);
    other = new Database(file);
  });

  afterEach(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the projector does during a batch: holds the write lock until it commits. */
  const holdWriteLock = () => {
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE projection_checkpoints SET updated_at = updated_at WHERE name = 'nobody'").run();
  };

  it('Given another connection holding the write lock, when trying to save, then it gives up at once and saves nothing; once the lock is free it saves', async () => {
    const checkpoint = workerCheckpoint(db, 'notifier');
    await checkpoint.save(5n);
    holdWriteLock();
    const started = Date.now();
    expect(await checkpoint.trySave(9n)).to.equal(false);
    // The read models' busy timeout is 5 s: waiting would have taken that long.
    expect(Date.now() - started).to.be.below(1_000);
    other.exec('COMMIT');
    expect(await checkpoint.load()).to.equal(5n);

    expect(await checkpoint.trySave(9n)).to.equal(true);
    expect(await checkpoint.load()).to.equal(9n);
  });

  it('Given a save that gave up, then the connection waits for locks as before for every other query', async () => {
    const checkpoint = workerCheckpoint(db, 'notifier');
    holdWriteLock();
    expect(await checkpoint.trySave(3n)).to.equal(false);
    other.exec('COMMIT');
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
    expect(Number(rows[0].timeout)).to.equal(5_000);
  });
});
