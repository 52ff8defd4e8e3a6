/**
 * A wrong DATA_DIR must not quietly become a new gateway: commands that work on existing data
 * refuse an empty or missing data directory, naming it; only starting the gateway, `merchant
 * create` and `seed` may begin from nothing.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliWithDataDir } from '../support/cli-runner';
import { runCli } from '../support/cli-in-process';

const SQLITE = { EVENT_STORE: 'sqlite', DATABASE_URL: '', VAULT_KEY: undefined };
const UUID = '00000000-0000-4000-8000-000000000000';

describe('A data directory without gateway data', function () {
  this.timeout(60_000);
  let parent = '';
  let missing = '';
  let empty = '';
  before(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'gw-datadir-'));
    missing = path.join(parent, 'typo');
    empty = mkdtempSync(path.join(parent, 'empty-'));
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  const commands = [
    ['merchant', 'list'],
    ['merchant', 'show', UUID],
    ['merchant', 'update', UUID, '--refunds', 'on'],
    ['admin-token'],
    ['callbacks', 'list'],
    ['callbacks', 'show', UUID],
    ['clock', 'show'],
    ['clock', 'advance', '1d'],
    ['chain', UUID],
    ['history', UUID],
    ['ledger', 'balances'],
    ['audit', 'verify'],
    ['audit', 'checkpoint'],
    ['projections', 'verify'],
  ];

  for (const argv of commands) {
    it(`${argv.join(' ')}: refused with exit 2, naming the directory, which stays as it was`, async () => {
      for (const dir of [missing, empty]) {
        const r = await runCli(argv, { ...SQLITE, DATA_DIR: dir });
        expect(r.code, `${dir}: ${r.stderr}`).to.equal(2);
        expect(r.stderr).to.include(`No gateway data in ${dir} (DATA_DIR).`);
        expect(r.stderr).to.include('npm run gateway -- merchant create');
      }
      expect(existsSync(missing)).to.equal(false);
      expect(readdirSync(empty)).to.deep.equal([]);
    });
  }

  it('with PostgreSQL events, refuses when neither VAULT_KEY nor DATA_DIR/vault.key is there (a new key cannot read the vault)', async () => {
    const env = { EVENT_STORE: 'postgres', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', VAULT_KEY: undefined, DATA_DIR: empty };
    const r = await runCli(['merchant', 'list'], env);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include(`No vault key: VAULT_KEY is not set and ${path.join(empty, 'vault.key')} (DATA_DIR) does not exist.`);
    expect(readdirSync(empty)).to.deep.equal([]);
  });

  it('never stands in the way of sign or help', async () => {
    expect((await runCli(['sign', 'create-schedule', '--password', 'pw'], { ...SQLITE, DATA_DIR: missing })).code).to.equal(0);
    expect((await runCli(['help'], { ...SQLITE, DATA_DIR: missing })).code).to.equal(0);
    expect(existsSync(missing)).to.equal(false);
  });
});

describe('A new data directory, as a process', function () {
  this.timeout(60_000);
  const cli = cliWithDataDir('gw-datadir-new-');

  it('is refused by merchant list with the message, then merchant create makes the gateway and merchant list works', () => {
    const refused = cli('merchant', 'list');
    expect(refused.code).to.equal(2);
    expect(refused.stderr.trim()).to.equal(
      `No gateway data in ${cli.dataDir} (DATA_DIR). Start the gateway once with npm start, or create a merchant with: npm run gateway -- merchant create --name "My shop"`,
    );

    const created = cli('merchant', 'create', '--name', 'First shop', '--json');
    expect(created.code, created.stderr).to.equal(0);
    const listed = cli('merchant', 'list', '--json');
    expect(listed.code, listed.stderr).to.equal(0);
    expect(JSON.parse(listed.stdout).map((m: { name: string }) => m.name)).to.deep.equal(['First shop']);
  });
});
