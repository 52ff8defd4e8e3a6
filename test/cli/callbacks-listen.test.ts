/**
 * `npm run gateway -- callbacks listen`: the README's first payment ends with a callback the
 * newcomer can see. A running gateway, the listener as a process, and SALEs over HTTP.
 */
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultSaleFields, signSale, type Fields } from '../support/gateway-harness';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { cliArgv } from '../support/launcher';

const ROOT = path.resolve(__dirname, '../..');

interface Demo {
  merchant_id: string;
  client_key: string;
  password: string;
}

describe('npm run gateway -- callbacks listen, next to a running gateway', function () {
  this.timeout(120_000);
  let dataDir = '';
  let gateway: GatewayProcess | undefined;
  let listener: ChildProcess | undefined;
  let demo: Demo;
  let stdout = '';
  let stderr = '';
  const env = () => ({ ...process.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite', DATABASE_URL: '' });

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-listen-'));
    gateway = await startGatewayProcess(dataDir, [], { EVENT_STORE: 'sqlite', DATABASE_URL: '' });
    demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8'));
  });
  after(async () => {
    listener?.kill('SIGKILL');
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function until(what: string, ok: () => boolean): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function sale(extra: Fields): Promise<string> {
    const fields: Fields = { ...defaultSaleFields({ client_key: demo.client_key } as never), ...extra };
    fields.hash = signSale(fields, demo.password);
    const body = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
    const res = await fetch(`${gateway!.baseUrl}/post`, { method: 'POST', body });
    const answer = (await res.json()) as { status: string; trans_id: string };
    expect(answer.status).to.equal('SETTLED');
    return answer.trans_id;
  }

  it('prints each callback with its delivery id, fields and a verified signature, and gives the merchant its URL back on Ctrl-C', async () => {
    // Given the listener, started for the demo merchant
    listener = spawn(process.execPath, cliArgv('callbacks', 'listen', '--merchant', demo.merchant_id, '--port', '0'), { cwd: ROOT, env: env() });
    listener.stdout!.on('data', (chunk) => (stdout += chunk));
    listener.stderr!.on('data', (chunk) => (stderr += chunk));
    await until('the listener', () => /Listening for callbacks on (\S+)/.test(stderr));
    const url = /Listening for callbacks on (\S+)/.exec(stderr)![1];
    expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/callbacks$/);

    // When a SALE names it as notification_url
    const first = await sale({ notification_url: url });
    // Then its callback is printed, one block, its signature checked with the merchant's password
    await until('the first callback', () => stdout.includes(first));
    const block = stdout.split('--- callback received').find((b) => b.includes(first))!;
    expect(block).to.match(/X-Delivery-Id: +[0-9a-f-]{36} +\(attempt 1\)/);
    expect(block).to.match(/X-Signature: +t=\d+,v1=[0-9a-f]{64}/);
    expect(block).to.match(/signature: +valid/);
    expect(block).to.match(/^ {2}action +SALE$/m);
    expect(block).to.match(new RegExp(`^ {2}trans_id +${first}$`, 'm'));

    // And a SALE without notification_url calls back there too: the merchant's URL points at it
    const second = await sale({});
    await until('the second callback', () => stdout.includes(second));

    // When it is stopped with Ctrl-C, the merchant's notification URL is what it was before
    const exited = new Promise<number | null>((resolve) => listener!.once('exit', (code) => resolve(code)));
    listener.kill('SIGINT');
    expect(await exited).to.equal(0);
    expect(stderr).to.include(`Notification URL of merchant ${demo.merchant_id} set back to none.`);
    const shown = spawnSync(process.execPath, cliArgv('merchant', 'show', demo.merchant_id, '--json'), { cwd: ROOT, env: env(), encoding: 'utf8' });
    expect(JSON.parse(shown.stdout).notification_url).to.equal(null);
  });
});
