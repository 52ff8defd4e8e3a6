/**
 * A read-model database written by the release before self-describing projections (one flat
 * migration function) opens under today's modules: nothing records which migration steps ran, so
 * every module's `migrate` must find the old tables as its own and leave them, and their rows, be.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { type Kysely, sql } from 'kysely';
import { Client } from 'pg';
import { createReadModelDb, migrateReadModels, type ReadModelDbConfig } from '../../projections/database';
import type { ReadModelDatabase } from '../../projections/database-schema';
import { ReadModels } from '../../projections/read-models';
import { MemoryEventStore } from '../support/memory-event-store';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';
import { scratchReadModelDb } from '../support/scratch-read-model-db';
import { PREVIOUS_RELEASE_POSTGRES_READ_MODELS, PREVIOUS_RELEASE_SQLITE_READ_MODELS } from './previous-release-read-models';

/** What the previous release's projector had written: a merchant, a card and an APM payment, and the checkpoints. */
const MERCHANT_ROW = `insert into merchants (merchant_id, name, environment, client_key, merchant_key, password_ciphertext,
  payment_mode, notification_url, ip_allowlist, refunds_enabled, protocol_mapping, override_link_target, card_on_file_support,
  registered_at, updated_at)
  values ('m-1', 'Old shop', 'sandbox', 'ck-1', 'mk-1', 'cipher', 'sms', null, '[]', 1, null, '_top', 1,
  '2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z')`;
const paymentRow = (id: string, channel: string, cardMask: string, cardBrand: string, state: object) => `(
  '${id}', 'm-1', 'order-${id}', '${channel}', 'sale', 'SETTLED', 'settled', 'USD', 1000, '10.00', 0, 1000, 0, 0, null, null,
  '${cardMask}', '${cardBrand}', '', '', null, null, null, null, null, null, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z',
  ${id === 'p-card' ? 1 : 2}, 1, '${JSON.stringify(state)}')`;
const PAYMENT_ROWS = `insert into payments (payment_id, merchant_id, order_id, channel, kind, status, phase, currency, amount, amount_text,
  held_amount, settled_amount, refunded_amount, reversed_amount, descriptor, decline_reason, card_mask, card_brand, card_exp_month,
  card_exp_year, card_token, payer_email, term_url_3ds, notification_url, redirect_url, redirect_params, initiated_at, updated_at,
  initiated_position, stream_version, state) values
  ${paymentRow('p-card', 's2s_card', '411111******1111', 'VISA', { exists: true, card: { mask: '411111******1111', brand: 'VISA' } })},
  ${paymentRow('p-apm', 's2s_apm', '', '', { exists: true, method: { brand: 'sb-redirect', parameters: {} } })}`;
const CHECKPOINT_ROWS = `insert into projection_checkpoints (name, position, updated_at) values
  ('payments', '41', 'then'), ('merchants', '41', 'then'), ('notifier', '40', 'then')`;

async function writePreviousRelease(config: ReadModelDbConfig): Promise<void> {
  if (config.kind === 'sqlite') {
    const db = new Database(config.file);
    try {
      for (const statement of [...PREVIOUS_RELEASE_SQLITE_READ_MODELS, MERCHANT_ROW, PAYMENT_ROWS, CHECKPOINT_ROWS]) db.exec(statement);
    } finally {
      db.close();
    }
    return;
  }
  const client = new Client({ connectionString: config.url });
  await client.connect();
  try {
    for (const statement of [...PREVIOUS_RELEASE_POSTGRES_READ_MODELS, MERCHANT_ROW, PAYMENT_ROWS, CHECKPOINT_ROWS]) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Tables, columns, indexes and views as the database reports them, comparable across databases. */
async function schemaOf(db: Kysely<ReadModelDatabase>, dialect: 'sqlite' | 'postgres'): Promise<unknown> {
  if (dialect === 'sqlite') {
    const { rows } = await sql`select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`.execute(db);
    return rows;
  }
  const columns = await sql`
    select table_name, column_name, data_type, is_nullable, column_default, ordinal_position
      from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const indexes = await sql`
    select tablename, indexname, replace(indexdef, current_schema() || '.', '') as indexdef
      from pg_indexes where schemaname = current_schema() order by indexname`.execute(db);
  const views = await sql`select viewname, definition from pg_views where schemaname = current_schema() order by viewname`.execute(db);
  return { columns: columns.rows, indexes: indexes.rows, views: views.rows };
}

/** A database today's release creates from nothing, to compare with. */
async function withFreshDatabase<T>(dialect: 'sqlite' | 'postgres', use: (db: Kysely<ReadModelDatabase>) => Promise<T>): Promise<T> {
  let config: ReadModelDbConfig;
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'fresh-read-models-'));
    config = { kind: 'sqlite', file: path.join(dir, 'read-models.db') };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const created = await createTestSchema('fresh');
    config = { kind: 'postgres', url: created.url };
    cleanup = () => dropSchema(created.schema);
  }
  const db = createReadModelDb(config);
  try {
    await migrateReadModels(db);
    return await use(db);
  } finally {
    await db.destroy();
    await cleanup();
  }
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`read models of the previous release, opened by this one [${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}]`, function () {
    if (dialect === 'postgres') requirePostgres(this);
    const config = scratchReadModelDb(dialect, 'upgrade', writePreviousRelease);
    let db: Kysely<ReadModelDatabase>;

    beforeEach(async function () {
      db = createReadModelDb(config());
      await migrateReadModels(db);
    });
    afterEach(async function () {
      await db.destroy();
    });

    it('Given tables the previous release created, when this release migrates them, then the schema is exactly the one it creates from nothing', async function () {
      const upgraded = await schemaOf(db, dialect);
      const fresh = await withFreshDatabase(dialect, (freshDb) => schemaOf(freshDb, dialect));
      expect(upgraded).to.deep.equal(fresh);
    });

    it('Given rows and checkpoints the previous release wrote, when this release opens the database, then they are read as they were', async function () {
      const readModels = new ReadModels({ db, store: new MemoryEventStore() });
      expect(await readModels.merchantById('m-1')).to.include({ name: 'Old shop', clientKey: 'ck-1', overrideLinkTarget: '_top', cardOnFileSupport: true });
      expect(await readModels.checkpoints()).to.deep.equal({ payments: 41n, merchants: 41n, notifier: 40n });
    });

    it('Given payments the previous release wrote, when this release opens the database, then each has the method it was made with, so the search finds it', async function () {
      const rows = await db.selectFrom('payments').select(['payment_id', 'method']).orderBy('payment_id').execute();
      expect(rows).to.deep.equal([
        { payment_id: 'p-apm', method: 'sb-redirect' },
        { payment_id: 'p-card', method: 'VISA' },
      ]);
      const readModels = new ReadModels({ db, store: new MemoryEventStore() });
      expect((await readModels.payments.searchPayments({ method: 'sb-redirect' })).payments.map((p) => p.paymentId)).to.deep.equal(['p-apm']);
    });

    it('Given an upgraded database, when it is migrated again (every start does), then nothing changes', async function () {
      const before = await schemaOf(db, dialect);
      await migrateReadModels(db);
      expect(await schemaOf(db, dialect)).to.deep.equal(before);
      expect(await new ReadModels({ db, store: new MemoryEventStore() }).checkpoints()).to.deep.equal({ payments: 41n, merchants: 41n, notifier: 40n });
    });
  });
}
