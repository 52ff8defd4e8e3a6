/**
 * The operator's reports read the SQLite read models through a connection on a thread of its own:
 * given a read-model file, the same queries give the same rows as the read models' own connection,
 * a report running does not hold the calling thread, and the connection cannot write.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { type Insertable, type Kysely, sql } from 'kysely';
import { createReadModelDb, createReportDb, migrateReadModels } from '../../projections/database';
import type { ReadModelDatabase } from '../../projections/database-schema';
import { LedgerReportQueries } from '../../projections/ledger/queries';
import { upsertRows } from '../../projections/bulk-upsert';
import { TOTALS_UPSERT, totalsRowOf } from '../../projections/ledger/projection';
import type { LedgerPostingsTable } from '../../projections/ledger/tables';
import { scoped } from '../../projections/database-schema';
import { threadCpuSeconds } from '../../src/adapters/os/linux-threads';

/** A query SQLite needs a while for (counting to a few million), whatever the host. */
const slowQuery = sql<{ n: number }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000) select count(*) as n from c`;

/** Postings and their days' totals, as the ledger projection writes them. */
async function writePostings(db: Kysely<ReadModelDatabase>, postings: Insertable<LedgerPostingsTable>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('ledger_postings').values(postings as never).execute();
    await upsertRows(trx, TOTALS_UPSERT, postings.map(totalsRowOf));
  });
}

describe('The report connection (SQLite read models, a thread of its own)', function () {
  let dir: string;
  let readDb: Kysely<ReadModelDatabase>;
  let reportDb: Kysely<ReadModelDatabase>;

  beforeEach(async function () {
    dir = mkdtempSync(join(tmpdir(), 'report-connection-'));
    const file = join(dir, 'read-models.db');
    readDb = createReadModelDb({ kind: 'sqlite', file });
    await migrateReadModels(readDb);
    reportDb = createReportDb({ kind: 'sqlite', file })!;
    const posting = (line: number, account: string, amount: number, merchant = 'm-1') => ({
      posting_set_id: `set-${Math.ceil(line / 2)}`,
      line,
      merchant_id: merchant,
      currency: 'EUR',
      account,
      amount,
      payment_id: `p-${line}`,
      operation_id: null,
      event_type: 'PaymentSettled',
      event_position: BigInt(line),
      occurred_at: `2026-11-0${line}T10:00:00.000Z`,
    });
    await writePostings(readDb, [posting(1, 'merchant_receivable', 1000), posting(2, 'payer_funds', -1000), posting(3, 'merchant_receivable', 250, 'm-2'), posting(4, 'payer_funds', -250, 'm-2')]);
  });

  afterEach(async function () {
    await reportDb.destroy();
    await readDb.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a report with the rows the read models\' own connection gives', async function () {
    const here = await new LedgerReportQueries(scoped(readDb)).balances({});
    const there = await new LedgerReportQueries(scoped(reportDb)).balances({});
    expect(there).to.deep.equal(here);
    expect(there).to.have.length(4);
    expect(await new LedgerReportQueries(scoped(reportDb)).balances({ merchantId: 'm-2', asOf: new Date('2026-11-03T12:00:00Z') })).to.deep.equal([
      { merchantId: 'm-2', currency: 'EUR', account: 'merchant_receivable', balance: 250 },
    ]);
  });

  it('sees what the read models committed after it started', async function () {
    expect(await new LedgerReportQueries(scoped(reportDb)).balances({ merchantId: 'm-3' })).to.deep.equal([]);
    await writePostings(readDb, [
      { posting_set_id: 'set-9', line: 9, merchant_id: 'm-3', currency: 'EUR', account: 'merchant_receivable', amount: 5, payment_id: 'p-9', operation_id: null, event_type: 'PaymentSettled', event_position: 9n, occurred_at: '2026-11-09T10:00:00.000Z' },
    ]);
    expect(await new LedgerReportQueries(scoped(reportDb)).balances({ merchantId: 'm-3' })).to.have.length(1);
  });

  it('leaves the calling thread free while a report runs (the read models\' own connection holds it)', async function () {
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    let ownDone = false;
    const own = slowQuery.execute(readDb).then(() => (ownDone = true));
    await turn();
    expect(ownDone, 'a query on the read models\' connection runs on this thread, to the end').to.equal(true);
    await own;

    let reportDone = false;
    const report = slowQuery.execute(reportDb).then((result) => {
      reportDone = true;
      return result;
    });
    await turn();
    expect(reportDone, 'the report is still running on its own thread').to.equal(false);
    expect((await report).rows).to.deep.equal([{ n: 2000000 }]);
  });

  it('runs on a thread named for it, which `top -H` and the metrics show as reports', async function () {
    if (process.platform !== 'linux') this.skip();
    await new LedgerReportQueries(scoped(reportDb)).balances({});
    expect(threadCpuSeconds()?.map((t) => t.thread)).to.include('reports');
  });

  it('refuses to write', async function () {
    const error = await reportDb
      .deleteFrom('ledger_postings')
      .execute()
      .then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
    expect(error?.code).to.match(/^SQLITE_READONLY/);
    expect(await readDb.selectFrom('ledger_postings').select('line').execute()).to.have.length(4);
  });

  it('answers a failing query with its error, and carries on', async function () {
    const error = await sql`select * from no_such_table`.execute(reportDb).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/no such table/);
    expect(await new LedgerReportQueries(scoped(reportDb)).balances({})).to.have.length(4);
  });

  it('is the read models\' own connection where a thread could not see the data', function () {
    expect(createReportDb({ kind: 'sqlite', file: ':memory:' })).to.equal(null);
    expect(createReportDb({ kind: 'postgres', url: 'postgres://127.0.0.1/test' })).to.equal(null);
  });
});
