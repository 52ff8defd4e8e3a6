/**
 * `callbacks listen --merchant` points the merchant's notification URL at itself and must put it back
 * however the operator stops it: Ctrl-C pressed at once, several times, or arriving twice (a terminal
 * and a launcher both pass it on). A SIGINT that finds no handler ends the process on the spot, with
 * the URL left pointing at a dead port.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { cliWithDataDir } from '../support/cli-runner';
import { cliArgv } from '../support/launcher';

const ROOT = path.resolve(__dirname, '../..');
const SHOP_URL = 'https://shop.example/callbacks';

describe('callbacks listen --merchant, stopped with several Ctrl-Cs', function () {
  this.timeout(120_000);
  const cli = cliWithDataDir('gw-listen-sig-');
  let merchantId = '';
  before(() => {
    const created = cli('merchant', 'create', '--name', 'Shop', '--notification-url', SHOP_URL, '--json');
    expect(created.code, created.stderr).to.equal(0);
    merchantId = JSON.parse(created.stdout).merchant_id;
  });

  const notificationUrl = () => JSON.parse(cli('merchant', 'show', merchantId, '--json').stdout).notification_url;
  const eventCount = () => {
    const db = new Database(path.join(cli.dataDir, 'events.db'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it('sets the URL back when Ctrl-Cs come in quick succession from the moment the URL was changed', async () => {
    const before = eventCount();
    const listener = spawn(process.execPath, cliArgv('callbacks', 'listen', '--merchant', merchantId, '--port', '0'), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: cli.dataDir, GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite', DATABASE_URL: '' },
    });
    let stderr = '';
    listener.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<[number | null, string | null]>((resolve) => listener.once('exit', (code, signal) => resolve([code, signal])));

    // When the URL has just been pointed at the listener (its event is in the log)
    const deadline = Date.now() + 60_000;
    while (eventCount() === before) {
      if (Date.now() > deadline || listener.exitCode !== null) throw new Error(`the listener never took the merchant's URL:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // Then Ctrl-C, again and again, while it is still starting and while it puts the URL back
    for (let i = 0; i < 20 && listener.exitCode === null; i++) {
      listener.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [code, signal] = await exited;

    // Then the URL is back (a Ctrl-C after that may end the process, which is then harmless)
    expect(code === 0 || signal === 'SIGINT', `exit ${code ?? signal}:\n${stderr}`).to.equal(true);
    expect(stderr).to.include(`Notification URL of merchant ${merchantId} set back to ${SHOP_URL}.`);
    expect(notificationUrl()).to.equal(SHOP_URL);
  });
});
