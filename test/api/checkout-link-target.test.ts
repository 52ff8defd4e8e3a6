/**
 * Override Link Target: the MID setting that decides where the payer's return to the merchant
 * opens, in place of the session's `url_target`. Set at registration or later, kept by the
 * merchants read model (also in databases from before the column), and by the CLI.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createReadModelDb, migrateReadModels, type ReadModelDbConfig } from '../../projections/database';
import { merchantsProjection } from '../../projections/merchants/module';
import { Projector } from '../../projections/projector';
import { ReadModels } from '../../projections/read-models';
import { createSession } from '../support/checkout-client';
import { forEachStore } from '../support/gateway-harness';
import { MemoryEventStore } from '../support/memory-event-store';
import { appendMerchantEvents, merchantRegistered, merchantSettingsChanged } from '../support/payment-fixtures';
import { requirePostgres } from '../support/postgres';
import { inProcessCliWithDataDir } from '../support/cli-in-process';
import { scratchReadModelDb } from '../support/scratch-read-model-db';

forEachStore('Checkout API: Override Link Target', (h) => {
  it('sends the payer back in the MID\'s target rather than the session\'s url_target, once set', async () => {
    const merchant = await h().createMerchant({ overrideLinkTarget: '_top' });
    expect(merchant.override_link_target).to.equal('_top');
    const { sessionId } = await createSession(h(), merchant, { url_target: '_self' });
    expect(await h().gateway.checkout.cancel(sessionId, 'test')).to.include({ kind: 'merchant', target: '_top' });

    await h().gateway.merchants.update(merchant.merchant_id, { overrideLinkTarget: null });
    const { sessionId: later } = await createSession(h(), merchant, { url_target: '_self' });
    expect(await h().gateway.checkout.cancel(later, 'test')).to.include({ kind: 'merchant', target: '_self' });
  });

  it('is kept by the merchants read model, and cleared again', async () => {
    const merchant = await h().createMerchant({ overrideLinkTarget: '_blank' });
    expect((await h().gateway.merchants.byId(merchant.merchant_id))!.overrideLinkTarget).to.equal('_blank');
    await h().gateway.merchants.update(merchant.merchant_id, { overrideLinkTarget: '_parent' });
    expect((await h().gateway.merchants.byId(merchant.merchant_id))!.overrideLinkTarget).to.equal('_parent');
    await h().gateway.merchants.update(merchant.merchant_id, { overrideLinkTarget: null });
    expect((await h().gateway.merchants.byId(merchant.merchant_id))!.overrideLinkTarget ?? null).to.equal(null);
    const plain = await h().createMerchant();
    expect(plain.override_link_target).to.equal(null);
    expect((await h().gateway.merchants.byId(plain.merchant_id))!).not.to.have.property('overrideLinkTarget');
  });
});

/** A merchants table as the release before Override Link Target left it. */
async function createMerchantsTableWithoutLinkTarget(config: ReadModelDbConfig): Promise<void> {
  const db = createReadModelDb(config);
  try {
    await db.schema
      .createTable('merchants')
      .addColumn('merchant_id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('environment', 'text', (c) => c.notNull())
      .addColumn('client_key', 'text', (c) => c.notNull().unique())
      .addColumn('merchant_key', 'text', (c) => c.notNull().unique())
      .addColumn('password_ciphertext', 'text', (c) => c.notNull())
      .addColumn('payment_mode', 'text', (c) => c.notNull())
      .addColumn('notification_url', 'text')
      .addColumn('ip_allowlist', 'text', (c) => c.notNull())
      .addColumn('refunds_enabled', 'integer', (c) => c.notNull())
      .addColumn('registered_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('protocol_mapping', 'text')
      .execute();
    await sql`insert into merchants values ('m-old', 'Old shop', 'sandbox', 'ck-old', 'mk-old', 'x', 'SMS/DMS', null, '[]', 1, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', null)`.execute(db);
  } finally {
    await db.destroy();
  }
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`merchants read model of a database from before Override Link Target [${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}]`, function () {
    if (dialect === 'postgres') requirePostgres(this);
    const config = scratchReadModelDb(dialect, 'olt', createMerchantsTableWithoutLinkTarget);

    it('gains the column on start (twice is fine), reads old rows as unset, and projects a later change', async () => {
      const db = createReadModelDb(config());
      const store = new MemoryEventStore();
      const projector = new Projector({ store, db, projections: [merchantsProjection()] });
      try {
        await migrateReadModels(db);
        await migrateReadModels(db);
        const readModels = new ReadModels({ db, store, projector, projectionNames: ['merchants'] });
        const old = await readModels.merchantById('m-old');
        expect(old!.name).to.equal('Old shop');
        expect(old!.overrideLinkTarget ?? null).to.equal(null);

        await appendMerchantEvents(store, 'm-new', [merchantRegistered({ merchantId: 'm-new' }), merchantSettingsChanged('m-new', { overrideLinkTarget: '_top' })]);
        await projector.catchUp();
        expect((await readModels.merchantById('m-new'))!.overrideLinkTarget).to.equal('_top');
      } finally {
        await projector.stop();
        await db.destroy();
      }
    });
  });
}

describe('merchant CLI: --link-target', function () {
  this.timeout(120_000);
  const cli = inProcessCliWithDataDir('olt-cli-');

  it('create sets it, update changes and clears it (none), show reports it, other values are refused', async () => {
    const created = await cli('merchant', 'create', '--name', `CLI ${randomUUID().slice(0, 6)}`, '--link-target', '_blank', '--json');
    expect(created.code, created.stderr).to.equal(0);
    const merchant = JSON.parse(created.stdout);
    expect(merchant.override_link_target).to.equal('_blank');

    const updated = await cli('merchant', 'update', merchant.merchant_id, '--link-target', '_top', '--json');
    expect(updated.code, updated.stderr).to.equal(0);
    expect(JSON.parse(updated.stdout).override_link_target).to.equal('_top');

    const cleared = await cli('merchant', 'update', merchant.merchant_id, '--link-target', 'none', '--json');
    expect(JSON.parse(cleared.stdout).override_link_target).to.equal(null);

    const refused = await cli('merchant', 'update', merchant.merchant_id, '--link-target', '_new');
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.match(/--link-target must be one of _blank, _self, _parent, _top or none/);

    const shown = await cli('merchant', 'show', merchant.merchant_id, '--json');
    expect(JSON.parse(shown.stdout).override_link_target).to.equal(null);
  });
});
