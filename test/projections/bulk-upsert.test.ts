import { expect } from 'chai';
import type { Insertable } from 'kysely';
import { rowsPerStatement, upsertRows, type UpsertSpec } from '../../projections/bulk-upsert';
import { runsRowBatches } from '../../projections/row-batches';
import { TOTALS_UPSERT } from '../../projections/ledger/projection';
import { createScratchTables } from '../../projections/scratch-tables';
import type { TransactionsTable, TransactionsTables } from '../../projections/transactions/tables';
import { forEachDialect } from './harness';

const UPDATED = ['status', 'amount', 'reason', 'updated_at'] as const;
const SPEC: UpsertSpec<TransactionsTables, 'transactions'> = {
  table: 'transactions',
  columns: ['operation_id', 'payment_id', 'merchant_id', 'order_id', 'type', 'status', 'amount', 'currency', 'reason', 'payer_action', 'created_at', 'updated_at', 'created_position'],
  key: ['operation_id'],
  update: UPDATED,
};

const operation = (i: number, changes: Partial<Insertable<TransactionsTable>> = {}): Insertable<TransactionsTable> => ({
  operation_id: `op-${String(i).padStart(5, '0')}`,
  payment_id: `pay-${i}`,
  merchant_id: 'm',
  order_id: `o-${i}`,
  type: 'sale',
  status: 'pending',
  amount: i,
  currency: 'EUR',
  reason: null,
  payer_action: null,
  created_at: 't0',
  updated_at: 't0',
  created_position: BigInt(i),
  ...changes,
});

forEachDialect('multi-row upserts', (fixture) => {
  it('runs rows through one prepared one-row statement on SQLite only', function () {
    expect(runsRowBatches(fixture().db)).to.equal(fixture().dialect === 'sqlite');
  });

  it('inserts new rows and updates only the named columns of existing ones, over several statements', async function () {
    const { db } = fixture();
    const count = rowsPerStatement(SPEC.columns.length) + 10;
    await db.transaction().execute((trx) => upsertRows(trx, SPEC, [operation(1), operation(2)]));
    const rows = Array.from({ length: count }, (_, i) =>
      operation(i + 1, { status: 'success', reason: i % 2 ? 'r' : null, updated_at: 't1', merchant_id: 'not-updated', created_at: 't1' }),
    );
    await db.transaction().execute((trx) => upsertRows(trx, SPEC, rows));

    const stored = await db.selectFrom('transactions').select(['operation_id', 'merchant_id', 'status', 'reason', 'created_at', 'updated_at', 'amount']).orderBy('operation_id').execute();
    expect(stored).to.have.length(count);
    // The first two existed: their insert-only columns stay, the updated ones change.
    expect(stored[0]).to.deep.equal({ operation_id: 'op-00001', merchant_id: 'm', status: 'success', reason: null, created_at: 't0', updated_at: 't1', amount: 1 });
    expect(stored[1]).to.deep.equal({ operation_id: 'op-00002', merchant_id: 'm', status: 'success', reason: 'r', created_at: 't0', updated_at: 't1', amount: 2 });
    expect(stored[count - 1]).to.deep.equal({
      operation_id: `op-${String(count).padStart(5, '0')}`,
      merchant_id: 'not-updated',
      status: 'success',
      reason: (count - 1) % 2 ? 'r' : null,
      created_at: 't1',
      updated_at: 't1',
      amount: count,
    });
  });

  it('writes a row whose values need the query builder through it', async function () {
    const { db } = fixture();
    // An undefined value is left out of the statement: the column takes its default (null here).
    await db.transaction().execute((trx) => upsertRows(trx, SPEC, [operation(1), operation(2, { reason: undefined })]));
    const stored = await db.selectFrom('transactions').select(['operation_id', 'reason']).orderBy('operation_id').execute();
    expect(stored).to.deep.equal([
      { operation_id: 'op-00001', reason: null },
      { operation_id: 'op-00002', reason: null },
    ]);
  });

  describe('running totals (the ledger\'s daily totals, the upsert that adds)', function () {
    const total = (day: string, count: number, amount: number) => ({
      merchant_id: 'm', currency: 'EUR', day, account: 'merchant_receivable', event_type: 'PaymentSettled', direction: 1, line_count: count, amount,
    });

    it('adds the new row\'s values to an existing row\'s, and inserts rows of new keys', async function () {
      const { db } = fixture();
      await db.transaction().execute((trx) => upsertRows(trx, TOTALS_UPSERT, [total('2024-05-01', 2, 3000)]));
      await db.transaction().execute((trx) => upsertRows(trx, TOTALS_UPSERT, [total('2024-05-01', 1, 500), total('2024-05-02', 1, 700)]));
      const stored = await db.selectFrom('ledger_daily_totals').select(['day', 'line_count', 'amount']).orderBy('day').execute();
      expect(stored.map((r) => [r.day, Number(r.line_count), Number(r.amount)])).to.deep.equal([
        ['2024-05-01', 3, 3500],
        ['2024-05-02', 1, 700],
      ]);
    });

    it('sums rows of one key given in one call before adding them, over several statements', async function () {
      const { db } = fixture();
      await db.transaction().execute((trx) => upsertRows(trx, TOTALS_UPSERT, [total('2024-05-01', 1, 100)]));
      // Even, and more than one statement's rows.
      const count = 2 * (Math.floor(rowsPerStatement(TOTALS_UPSERT.columns.length) / 2) + 5);
      const lines = Array.from({ length: count }, (_, i) => total(i % 2 ? '2024-05-01' : '2024-05-02', 1, 10));
      await db.transaction().execute((trx) => upsertRows(trx, TOTALS_UPSERT, lines));
      const stored = await db.selectFrom('ledger_daily_totals').select(['day', 'line_count', 'amount']).orderBy('day').execute();
      expect(stored.map((r) => [r.day, Number(r.line_count), Number(r.amount)])).to.deep.equal([
        ['2024-05-01', 1 + count / 2, 100 + 5 * count],
        ['2024-05-02', count / 2, 5 * count],
      ]);
    });

    it('adds to the scratch copy\'s row, not the live one, in a rebuild', async function () {
      const { db } = fixture();
      await db.transaction().execute((trx) => upsertRows(trx, TOTALS_UPSERT, [total('2024-05-01', 5, 5000)]));
      const scratch = await createScratchTables(db, ['ledger_daily_totals']);
      try {
        const redirected = db.withPlugin(scratch.redirect());
        await redirected.transaction().execute((trx) => upsertRows(trx, TOTALS_UPSERT, [total('2024-05-01', 2, 3000)]));
        await redirected.transaction().execute((trx) => upsertRows(trx, TOTALS_UPSERT, [total('2024-05-01', 1, 500)]));
        const copy = await redirected.selectFrom('ledger_daily_totals').select(['line_count', 'amount']).execute();
        expect(copy.map((r) => [Number(r.line_count), Number(r.amount)])).to.deep.equal([[3, 3500]]);
        const live = await db.selectFrom('ledger_daily_totals').select(['line_count', 'amount']).execute();
        expect(live.map((r) => [Number(r.line_count), Number(r.amount)])).to.deep.equal([[5, 5000]]);
      } finally {
        await scratch.drop();
      }
    });
  });

  it('on SQLite, takes the later row as an update of the earlier one, as one multi-row statement did', async function () {
    if (fixture().dialect !== 'sqlite') this.skip(); // PostgreSQL refuses a key twice in one statement
    const { db } = fixture();
    await db.transaction().execute((trx) =>
      upsertRows(trx, SPEC, [operation(1), operation(1, { status: 'success', merchant_id: 'later', updated_at: 't1' })]),
    );
    const stored = await db.selectFrom('transactions').select(['merchant_id', 'status', 'updated_at']).execute();
    expect(stored).to.deep.equal([{ merchant_id: 'm', status: 'success', updated_at: 't1' }]);
  });
});
