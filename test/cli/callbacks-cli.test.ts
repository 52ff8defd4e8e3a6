/**
 * An operator's callback commands, run as real processes against a data directory: given a callback
 * that failed for good, `callbacks list --failed` shows it, `callbacks show` shows each attempt, and
 * `callbacks redeliver` sends it again at once under the same delivery id.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildGateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { CallbackReceiver } from '../support/callback-receiver';
import { settledSale } from '../support/direct-sale';
import { cliArgv } from '../support/launcher';

const ROOT = path.resolve(__dirname, '../..');

describe('callbacks CLI, as processes', function () {
  this.timeout(90_000);
  let dataDir: string;
  let receiver: CallbackReceiver;
  let paymentId: string;
  const env = () => ({
    DATA_DIR: dataDir,
    VAULT_KEY: vaultKey,
    GATEWAY_LOG_LEVEL: 'error',
    CALLBACK_RETRY_SCHEDULE: 'none',
    CALLBACK_TIMEOUT: '2s',
  });
  const vaultKey = randomBytes(32).toString('hex');
  // Asynchronous: the merchant's receiver lives in this process and must keep answering meanwhile.
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, cliArgv(...args), { cwd: ROOT, env: { ...process.env, ...env() } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-callbacks-cli-'));
    receiver = await new CallbackReceiver().start();
    receiver.defaultAnswer = 500;
    const gateway = await buildGateway(loadConfig(env()), { withProjector: true });
    try {
      await gateway.projector!.start();
      await gateway.notifier.start();
      const merchant = await gateway.merchants.register({ name: 'CLI shop', notificationUrl: receiver.url });
      paymentId = await settledSale(gateway, merchant.merchant_id, {});
      await gateway.notifier.catchUp();
      await gateway.readModels.catchUpToHead(5000);
    } finally {
      await gateway.close();
    }
  });

  after(async () => {
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the failed callback, shows its attempt, and redelivers it', async () => {
    expect(receiver.received).to.have.length(1);
    const listed = await cli(['callbacks', 'list', '--failed', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    const rows = JSON.parse(listed.stdout);
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ payment_id: paymentId, status: 'failed', attempts: 1, last_status_code: 500 });
    const id = rows[0].delivery_id as string;

    const human = await cli(['callbacks', 'list', '--payment', paymentId]);
    expect(human.stdout).to.contain(id).and.to.contain('failed');

    const shown = await cli(['callbacks', 'show', id]);
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.match(/#1 .*failure\s+500/);
    expect(shown.stdout).to.contain('action=SALE');

    receiver.defaultAnswer = 200;
    const redelivered = await cli(['callbacks', 'redeliver', id]);
    expect(redelivered.code, redelivered.stderr + redelivered.stdout).to.equal(0);
    expect(redelivered.stdout).to.contain(`Callback ${id} sent again: delivered (HTTP 200)`);
    expect(receiver.received).to.have.length(2);
    expect(receiver.received[1].deliveryId).to.equal(id);
    expect(receiver.received[1].body).to.equal(receiver.received[0].body);

    const again = await cli(['callbacks', 'list', '--failed', '--json']);
    expect(JSON.parse(again.stdout)).to.have.length(0);
  });

  it('prints the admin token the /admin API of this deployment accepts', async () => {
    const printed = await cli(['admin-token']);
    expect(printed.code, printed.stderr).to.equal(0);
    const gateway = await buildGateway(loadConfig(env()), { withProjector: false });
    try {
      expect(printed.stdout.trim()).to.equal(gateway.adminToken).and.to.match(/^[0-9a-f]{64}$/);
    } finally {
      await gateway.close();
    }
  });

  it('refuses ids that are not delivery ids', async () => {
    const bad = await cli(['callbacks', 'redeliver', 'nope']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain('must be a UUID');
    const unknown = await cli(['callbacks', 'redeliver', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('No callback delivery');
  });
});
