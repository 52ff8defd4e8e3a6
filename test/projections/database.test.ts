import { expect } from 'chai';
import { migrateReadModels } from '../../projections/database';
import { countRows, forEachDialect } from './harness';

forEachDialect('read-model database', (fixture) => {
  it('migrates idempotently, also from several connections at once', async function () {
    const [a, b] = await Promise.all([fixture().openDb(), fixture().openDb()]);
    await Promise.all([migrateReadModels(a), migrateReadModels(b), migrateReadModels(fixture().db)]);

    // Queried directly: introspection would scan every schema, including other suites' passing ones.
    for (const table of ['payments', 'transactions', 'merchants'] as const) {
      expect(await countRows(fixture().db, table)).to.equal(0);
    }
    expect(await fixture().db.selectFrom('projection_checkpoints').selectAll().execute()).to.deep.equal([]);
  });

  it('round-trips amounts as numbers and checkpoint positions as exact decimals', async function () {
    const { db } = fixture();
    const position = (2n ** 63n - 1n).toString();
    await db.insertInto('projection_checkpoints').values({ name: 'x', position, updated_at: 'now' }).execute();
    await db
      .insertInto('transactions')
      .values({
        operation_id: 'op',
        payment_id: 'p',
        merchant_id: 'm',
        order_id: 'o',
        type: 'sale',
        status: 'success',
        amount: 9_007_199_254_740_991,
        currency: 'IDR',
        reason: null,
        payer_action: null,
        created_at: 'now',
        updated_at: 'now',
        created_position: 2n ** 63n - 1n,
      })
      .execute();

    const checkpoint = await db.selectFrom('projection_checkpoints').select('position').where('name', '=', 'x').executeTakeFirstOrThrow();
    expect(checkpoint.position).to.equal(position);
    const row = await db.selectFrom('transactions').select('amount').executeTakeFirstOrThrow();
    expect(row.amount).to.equal(9_007_199_254_740_991);
  });
});
