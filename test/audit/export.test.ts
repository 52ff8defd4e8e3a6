/**
 * Exports with signed manifests: a read model as CSV or Parquet, as of a signed checkpoint, that
 * `export verify` checks with nothing but the directory.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { expect } from 'chai';
import { readParquet, toParquet } from '../../src/adapters/audit/parquet-table';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { EXPORT_SOURCES } from '../../src/cli/export-sources';
import { verifyExport } from '../../src/domain/audit/export-manifest';
import { appendPaymentEvents, creditVoid, paymentInitiated, paymentSettled } from '../support/payment-fixtures';
import { cliArgv } from '../support/launcher';

const ROOT = path.resolve(__dirname, '../..');

describe('export with a signed manifest (CLI, SQLite)', function () {
  this.timeout(120_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let ledgerDir: string;

  const gateway = (...args: string[]) => {
    const r = spawnSync(process.execPath, cliArgv('export', ...args), { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const filesOf = (d: string) => new Map(readdirSync(d).map((name) => [name, readFileSync(join(d, name))] as const));

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'audit-export-'));
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    env = { ...process.env, DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_LOG_LEVEL: 'error', VAULT_KEY: randomBytes(32).toString('hex') };
    delete env.AUDIT_SIGNING_KEY;
    const store = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
    try {
      const sale = paymentInitiated({ amount: 1000, amountText: '10.00' });
      const id = sale.data.paymentId;
      await appendPaymentEvents(store, id, [sale, paymentSettled(id, { amount: 1000 }), ...creditVoid(id, 'refund', 400)]);
    } finally {
      await store.close();
    }
    ledgerDir = join(dir, 'ledger');
    const made = gateway('ledger', '--format', 'csv', '--out', ledgerDir);
    expect(made.stderr).to.equal('');
    expect(made.code).to.equal(0);
  });

  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the CSV and a manifest signed with the audit key, as of a signed checkpoint', function () {
    const manifest = JSON.parse(readFileSync(join(ledgerDir, 'manifest.json'), 'utf8'));
    expect(manifest).to.include({ format: 'export-manifest/1', source: 'ledger' });
    expect(manifest.checkpoint.checkpoint_text).to.match(/^ledger-gateway audit checkpoint v1\n/);
    const csv = readFileSync(join(ledgerDir, 'ledger.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).to.equal(manifest.columns.join(','));
    expect(manifest.files[0].rows).to.be.greaterThan(0);
    expect(csv.split('\r\n')).to.have.length(manifest.files[0].rows + 2);
    const verified = gateway('verify', ledgerDir);
    expect(verified.stdout).to.equal('OK: 1 files match the signed manifest\n');
    expect(verified.code).to.equal(0);
  });

  it('names the first thing wrong: a changed file, a file beside them, an edited manifest, another key', function () {
    const intact = filesOf(ledgerDir);
    expect(verifyExport(intact)).to.equal(null);

    const changed = new Map(intact);
    const csv = Buffer.from(changed.get('ledger.csv')!);
    csv[csv.length - 3] ^= 1;
    changed.set('ledger.csv', csv);
    expect(verifyExport(changed)).to.equal("ledger.csv was changed: its SHA-256 is not the manifest's");

    expect(verifyExport(new Map([...intact, ['more.csv', Buffer.from('a\r\n')]]))).to.equal('more.csv is not in the manifest');

    const manifest = JSON.parse(intact.get('manifest.json')!.toString('utf8'));
    manifest.projected_up_to = '1';
    expect(verifyExport(new Map([...intact, ['manifest.json', Buffer.from(JSON.stringify(manifest))]]))).to.equal(
      'bad signature: the manifest was changed after it was signed',
    );

    expect(verifyExport(intact, generateKeyPairSync('ed25519').publicKey)).to.equal('the manifest was signed by another key than the one given');

    appendFileSync(join(ledgerDir, 'ledger.csv'), 'x,y\r\n');
    const cli = gateway('verify', ledgerDir);
    expect(cli.stdout).to.equal("INVALID: ledger.csv was changed: its SHA-256 is not the manifest's\n");
    expect(cli.code).to.equal(1);
    writeFileSync(join(ledgerDir, 'ledger.csv'), intact.get('ledger.csv')!);
  });

  it('Given the ledger exported as Parquet, then the manifest states its rows and balances, and a removed row fails verify', async function () {
    const out = join(dir, 'ledger-parquet');
    const made = gateway('ledger', '--format', 'parquet', '--out', out);
    expect(made.stderr).to.equal('');
    expect(made.code).to.equal(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.files.map((f: { name: string }) => f.name)).to.deep.equal(['ledger.parquet']);
    // The sale of 10.00 settled, 4.00 of it refunded: 6.00 owed to the merchant, paid by the payer.
    expect(manifest.balances).to.deep.equal([
      { merchant_id: 'merchant-1', currency: 'USD', account: 'merchant_receivable', balance: '600' },
      { merchant_id: 'merchant-1', currency: 'USD', account: 'payer_funds', balance: '-600' },
    ]);
    const table = await readParquet(readFileSync(join(out, 'ledger.parquet')));
    if (typeof table === 'string') throw new Error(table);
    expect(table.columns).to.deep.equal(manifest.columns);
    expect(table.rows).to.have.length(manifest.files[0].rows);
    expect(gateway('verify', out).stdout).to.equal('OK: 1 files match the signed manifest\n');

    writeFileSync(join(out, 'ledger.parquet'), toParquet(EXPORT_SOURCES.ledger.columns, table.rows.slice(1)));
    const cli = gateway('verify', out);
    expect(cli.stdout).to.equal("INVALID: ledger.parquet was changed: its SHA-256 is not the manifest's\n");
    expect(cli.code).to.equal(1);
  });

  it('exports payments without card tokens or payer emails', function () {
    const out = join(dir, 'payments');
    const made = gateway('payments', '--format', 'csv', '--out', out);
    expect(made.stderr).to.equal('');
    expect(made.code).to.equal(0);
    const csv = readFileSync(join(out, 'payments.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).to.not.match(/card_token|payer_email|redirect_params|state/);
    expect(csv).to.include('10.00');
    expect(csv).to.not.include('ada@example.com');
    expect(gateway('verify', out).stdout).to.equal('OK: 1 files match the signed manifest\n');
    const parquet = join(dir, 'payments-parquet');
    expect(gateway('payments', '--format', 'parquet', '--out', parquet).code).to.equal(0);
    expect(readdirSync(parquet).sort()).to.deep.equal(['manifest.json', 'payments.parquet']);
    expect(JSON.parse(readFileSync(join(parquet, 'manifest.json'), 'utf8'))).to.not.have.property('balances');
    expect(gateway('verify', parquet).stdout).to.equal('OK: 1 files match the signed manifest\n');
  });
});
