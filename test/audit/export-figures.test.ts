/**
 * What `export verify` recomputes beyond the bytes: each file read back (CSV or Parquet), its
 * columns and row count, and the ledger's balances by merchant, currency and account. A manifest
 * signed over figures its file does not hold is refused, whoever signed it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { readParquet, toParquet, type ExportColumn } from '../../src/adapters/audit/parquet-table';
import { EXPORT_SOURCES } from '../../src/cli/export-sources';
import { verifyExportDirectory } from '../../src/cli/export-verify';
import { parseCsv } from '../../src/domain/audit/csv-reading';
import { balancesProblem, ledgerBalances } from '../../src/domain/audit/export-figures';
import { EXPORT_MANIFEST_FORMAT, type ExportManifest, sha256Hex, signManifest, toCsv } from '../../src/domain/audit/export-manifest';
import { ed25519Signer, publicKeyPem } from '../../src/domain/audit/signed-checkpoint';

const signer = ed25519Signer(generateKeyPairSync('ed25519').privateKey);
const LEDGER = EXPORT_SOURCES.ledger.columns;
const names = (columns: readonly ExportColumn[]) => columns.map((c) => c.name);

const posting = (line: number, merchant: string, currency: string, account: string, amount: number) => ({
  posting_set_id: `set-${Math.floor(line / 2)}`,
  line: line % 2,
  merchant_id: merchant,
  currency,
  account,
  amount,
  payment_id: 'p-1',
  operation_id: null,
  event_type: 'PaymentSettled',
  event_position: 10 + line,
});

// A sale of 10.00 and a refund of 4.00 for one merchant, a sale of 5.00 in another currency.
const POSTINGS = [
  posting(0, 'm-1', 'USD', 'payer_funds', -1000),
  posting(1, 'm-1', 'USD', 'merchant_receivable', 1000),
  posting(2, 'm-1', 'USD', 'payer_funds', 400),
  posting(3, 'm-1', 'USD', 'merchant_receivable', -400),
  posting(4, 'm-1', 'EUR', 'payer_funds', -500),
  posting(5, 'm-1', 'EUR', 'merchant_receivable', 500),
];

/** An export directory of the ledger as the gateway writes it, but for the figures given. */
function exportDir(
  format: 'csv' | 'parquet',
  rows: Array<Record<string, unknown>>,
  figures: { rows?: number; balances?: ExportManifest['balances'] } = {},
): Map<string, Buffer> {
  const bytes = format === 'parquet' ? toParquet(LEDGER, rows) : Buffer.from(toCsv(names(LEDGER), rows), 'utf8');
  const name = `ledger.${format}`;
  const manifest = signManifest(
    {
      format: EXPORT_MANIFEST_FORMAT,
      source: 'ledger',
      columns: names(LEDGER),
      files: [{ name, rows: figures.rows ?? rows.length, bytes: bytes.length, sha256: sha256Hex(bytes) }],
      projected_up_to: '15',
      created_at: '2026-11-28T10:00:00.000Z',
      checkpoint: null,
      balances: figures.balances ?? ledgerBalances(rows),
      public_key: publicKeyPem(signer.publicKey),
    },
    signer,
  );
  return new Map([
    [name, bytes],
    ['manifest.json', Buffer.from(JSON.stringify(manifest))],
  ]);
}

describe('export figures: rows and ledger balances recomputed from the files', function () {
  it('Given postings of two currencies, when balances are taken, then each merchant, currency and account has its sum, sorted', function () {
    expect(ledgerBalances(POSTINGS)).to.deep.equal([
      { merchant_id: 'm-1', currency: 'EUR', account: 'merchant_receivable', balance: '500' },
      { merchant_id: 'm-1', currency: 'EUR', account: 'payer_funds', balance: '-500' },
      { merchant_id: 'm-1', currency: 'USD', account: 'merchant_receivable', balance: '600' },
      { merchant_id: 'm-1', currency: 'USD', account: 'payer_funds', balance: '-600' },
    ]);
    // Amounts as CSV (text) and Parquet (64-bit integers) hand them back sum the same.
    const asText = POSTINGS.map((p) => ({ ...p, amount: String(p.amount) }));
    const asBigint = POSTINGS.map((p) => ({ ...p, amount: BigInt(p.amount) }));
    expect(ledgerBalances(asText)).to.deep.equal(ledgerBalances(POSTINGS));
    expect(ledgerBalances(asBigint)).to.deep.equal(ledgerBalances(POSTINGS));
    expect(() => ledgerBalances([{ ...POSTINGS[0], amount: '1.5' }])).to.throw(/not an integer/);
  });

  it('Given stated balances that differ, then the first difference is named', function () {
    const right = ledgerBalances(POSTINGS);
    expect(balancesProblem('f', right, right)).to.equal(null);
    const edited = right.map((b) => (b.account === 'merchant_receivable' && b.currency === 'USD' ? { ...b, balance: '1000' } : b));
    expect(balancesProblem('f', right, edited)).to.equal('f recomputes the balance of merchant m-1 USD merchant_receivable to 600, the manifest says 1000');
    expect(balancesProblem('f', right.slice(1), right)).to.equal('f holds no postings of merchant m-1 EUR merchant_receivable, which the manifest gives a balance');
    expect(balancesProblem('f', right, right.slice(1))).to.equal('f holds postings of merchant m-1 EUR merchant_receivable, an account the manifest has no balance for');
  });

  it('Given CSV as exports write it, when it is read back, then every value returns as text and malformed lines are named', function () {
    const rows = [{ a: 'plain', b: 'comma, "quote"\r\nand lines' }, { a: null, b: '=1+2' }];
    const parsed = parseCsv(toCsv(['a', 'b'], rows));
    expect(parsed).to.deep.equal({ columns: ['a', 'b'], rows: [['plain', 'comma, "quote"\r\nand lines'], ['', '=1+2']] });
    expect(parseCsv('a,b\r\n1\r\n')).to.equal('line 2 has 1 fields, the header 2');
    expect(parseCsv('a,b\r\n1,2')).to.equal('line 2 does not end in CRLF');
    expect(parseCsv('a,b\r\n"1,2\r\n')).to.equal('line 2 has a quoted field that is never closed');
  });

  it('Given rows written as Parquet, when they are read back, then columns, nulls and 64-bit amounts are as written', async function () {
    const table = await readParquet(toParquet(LEDGER, POSTINGS));
    expect(table).to.not.be.a('string');
    const { columns, rowCount, rows } = table as Exclude<typeof table, string>;
    expect(columns).to.deep.equal(names(LEDGER));
    expect(rowCount).to.equal(POSTINGS.length);
    expect(rows[3]).to.deep.equal({ ...POSTINGS[3], amount: -400n, event_position: 13n });
    expect(await readParquet(Buffer.from('not parquet at all'))).to.match(/^it is not a Parquet file that can be read/);
  });

  for (const format of ['csv', 'parquet'] as const) {
    describe(`a ${format} export`, function () {
      it('Given the export as written, then it verifies, and with the signing key given too', async function () {
        expect(await verifyExportDirectory(exportDir(format, POSTINGS))).to.equal(null);
        expect(await verifyExportDirectory(exportDir(format, POSTINGS), signer.publicKey)).to.equal(null);
      });

      it('Given a row removed from the file, then its digest no longer matches', async function () {
        const whole = exportDir(format, POSTINGS);
        const short = exportDir(format, POSTINGS.slice(1));
        const tampered = new Map([...whole, [`ledger.${format}`, short.get(`ledger.${format}`)!]]);
        expect(await verifyExportDirectory(tampered)).to.equal(`ledger.${format} was changed: its SHA-256 is not the manifest's`);
      });

      it('Given a manifest signed over a row count or balances the file does not hold, then the figure is named', async function () {
        expect(await verifyExportDirectory(exportDir(format, POSTINGS.slice(1), { rows: POSTINGS.length }))).to.equal(
          `ledger.${format} holds 5 rows, the manifest says 6`,
        );
        expect(await verifyExportDirectory(exportDir(format, POSTINGS.slice(1), { balances: ledgerBalances(POSTINGS) }))).to.equal(
          `ledger.${format} recomputes the balance of merchant m-1 USD payer_funds to 400, the manifest says -600`,
        );
      });
    });
  }
});
