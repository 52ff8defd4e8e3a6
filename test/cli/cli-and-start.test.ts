/**
 * The commands a newcomer types, run as real processes: `npm start`'s entry point and the merchant
 * CLI, against one data directory, while the server keeps running.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { saleCardHash, transIdHash } from '../../src/domain/signatures';
import { cliArgv, gatewayArgv } from '../support/launcher';

const ROOT = path.resolve(__dirname, '../..');

function cli(dataDir: string, args: string[]) {
  const result = spawnSync(process.execPath, cliArgv(...args), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function post(baseUrl: string, fields: Record<string, string>) {
  const response = await fetch(`${baseUrl}/post`, { method: 'POST', body: new URLSearchParams(fields) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as any };
}

function saleFields(clientKey: string, password: string, orderId: string) {
  return {
    action: 'SALE',
    client_key: clientKey,
    order_id: orderId,
    order_amount: '12.34',
    order_currency: 'EUR',
    order_description: 'CLI test',
    card_number: '4111111111111111',
    card_exp_month: '01',
    card_exp_year: '2038',
    card_cvv2: '123',
    payer_first_name: 'Ada',
    payer_last_name: 'Lovelace',
    payer_email: 'ada@example.com',
    payer_ip: '203.0.113.7',
    term_url_3ds: 'https://shop.example/return',
    hash: saleCardHash({ payerEmail: 'ada@example.com', password, cardNumber: '4111111111111111' }),
  };
}

describe('npm start and the merchant CLI, as processes', function () {
  this.timeout(90_000);
  let dataDir: string;
  let server: ChildProcess | undefined;
  let banner = '';
  let baseUrl = '';

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-'));
    server = spawn(process.execPath, gatewayArgv(), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk) => (banner += chunk.toString()));
    server.stderr!.on('data', (chunk) => (banner += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!/password\s+\w+/.test(banner)) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`gateway did not start:\n${banner}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    baseUrl = /listening on (http:\/\/\S+)/.exec(banner)![1];
  });

  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the base URL and a demo merchant the first time, which can pay right away', async () => {
    expect(banner).to.match(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8'));
    expect(banner).to.include(demo.client_key).and.include(demo.password);
    expect(fs.statSync(path.join(dataDir, 'demo-merchant.json')).mode & 0o777).to.equal(0o600);
    const sale = await post(baseUrl, saleFields(demo.client_key, demo.password, 'demo-1'));
    expect(sale.body).to.include({ result: 'SUCCESS', status: 'SETTLED', amount: '12.34', currency: 'EUR' });
  });

  it('creates a merchant from the CLI that the running server accepts without a restart', async () => {
    const created = cli(dataDir, ['merchant', 'create', '--name', 'Corner shop', '--payment-mode', 'SMS', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const merchant = JSON.parse(created.stdout);
    expect(merchant).to.include.keys('merchant_id', 'client_key', 'merchant_key', 'password');
    expect(merchant.payment_mode).to.equal('SMS');

    const sale = await post(baseUrl, saleFields(merchant.client_key, merchant.password, 'cli-1'));
    expect(sale.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    const status = await post(baseUrl, {
      action: 'GET_TRANS_STATUS',
      client_key: merchant.client_key,
      trans_id: sale.body.trans_id,
      hash: transIdHash(sale.body.trans_id, merchant.password),
    });
    expect(status.body).to.include({ status: 'SETTLED', trans_id: sale.body.trans_id });

    const auth = await post(baseUrl, { ...saleFields(merchant.client_key, merchant.password, 'cli-2'), auth: 'Y' });
    expect(auth.body).to.include({ error_code: 204005, error_message: 'Payment action not supported' });
  });

  it('lists, shows and updates merchants; an allowlist set by the CLI is enforced at once', async () => {
    const created = JSON.parse(cli(dataDir, ['merchant', 'create', '--name', 'Kiosk', '--json']).stdout);
    const list = JSON.parse(cli(dataDir, ['merchant', 'list', '--json']).stdout);
    expect(list.map((m: { merchant_id: string }) => m.merchant_id)).to.include(created.merchant_id);
    const shown = JSON.parse(cli(dataDir, ['merchant', 'show', created.merchant_id, '--json']).stdout);
    expect(shown).to.include({ name: 'Kiosk', client_key: created.client_key });
    expect(shown).not.to.have.property('password');

    const updated = cli(dataDir, ['merchant', 'update', created.merchant_id, '--ip-allowlist', '10.0.0.0/8']);
    expect(updated.code, updated.stderr).to.equal(0);
    const refused = await post(baseUrl, saleFields(created.client_key, created.password, 'kiosk-1'));
    expect(refused.body).to.deep.equal({
      result: 'ERROR',
      error_code: 100000,
      error_message: 'Request from this ip is not allowed.',
    });
  });

  it('refuses bad CLI input with a message and a non-zero exit code', () => {
    const bad = cli(dataDir, ['merchant', 'create', '--name', 'X', '--payment-mode', 'BOTH']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/--payment-mode must be one of SMS, DMS, SMS\/DMS/);
    const badCidr = cli(dataDir, ['merchant', 'create', '--name', 'X', '--ip-allowlist', '10.0.0.0/33']);
    expect(badCidr.code).to.equal(2);
    expect(badCidr.stderr).to.match(/not an IP address or CIDR block/);
  });
});
