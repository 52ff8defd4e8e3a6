/**
 * Deliveries survive restarts. Given a callback waiting for its retry (or a notifier killed in the
 * middle of an attempt), when the gateway starts again, then every pending delivery still goes out,
 * under its original delivery id, and none goes out again after a 2xx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { callbackStreamId } from '../../src/domain/callback-delivery/events';
import { CallbackReceiver } from '../support/callback-receiver';
import { settledSale } from '../support/direct-sale';
import { TestClock } from '../support/gateway-harness';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';
import { cliArgv } from '../support/launcher';

const MINUTE = 60_000;
const REPO = path.resolve(__dirname, '../..');

interface Setup {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function sqliteSetup(): Promise<Setup> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-notifier-'));
  return {
    env: { DATA_DIR: dataDir, EVENT_STORE: 'sqlite' },
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresSetup(): Promise<Setup> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-notifier-pg-'));
  const { schema, url } = await createTestSchema('notifier');
  return {
    env: { DATA_DIR: dataDir, EVENT_STORE: 'postgres', DATABASE_URL: url },
    async cleanup() {
      await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openNode(env: Record<string, string>, clock: TestClock): Promise<Gateway> {
  const gateway = await buildGateway(loadConfig({ GATEWAY_LOG_LEVEL: 'silent', GATEWAY_ENV: 'sandbox', ...env }), { withProjector: true, clock });
  await gateway.projector!.start();
  return gateway;
}

async function settle(g: Gateway): Promise<void> {
  await g.notifier.catchUp();
  await g.readModels.catchUpToHead(5000);
}


for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`notifier restarts [${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}]`, function () {
    if (kind === 'postgres') requirePostgres(this);
    let setup: Setup;
    let receiver: CallbackReceiver;
    const open: Gateway[] = [];
    const env = () => ({ ...setup.env, VAULT_KEY: vaultKey, CALLBACK_TIMEOUT: '1s', NOTIFIER_POLL_MS: '600000' });
    const vaultKey = randomBytes(32).toString('hex');

    beforeEach(async () => {
      setup = kind === 'sqlite' ? await sqliteSetup() : await postgresSetup();
      receiver = await new CallbackReceiver().start();
    });
    afterEach(async () => {
      for (const g of open.splice(0)) await g.close().catch(() => undefined);
      await receiver.stop();
      await setup.cleanup();
    });

    it('a retry pending at shutdown goes out after the restart, once, and never again after its 2xx', async () => {
      const clock = new TestClock();
      const first = await openNode(env(), clock);
      open.push(first);
      await first.notifier.start();
      const merchant = await first.merchants.register({ name: 'Restart shop', notificationUrl: receiver.url });
      receiver.script.push(500);
      const paymentId = await settledSale(first, merchant.merchant_id);
      await settle(first);
      expect(receiver.received.map((r) => r.answeredWith)).to.deep.equal([500]);
      await first.close();
      open.pop();

      const second = await openNode(env(), clock);
      open.push(second);
      await second.notifier.start();
      clock.advance(MINUTE);
      await second.notifier.runDue();
      await settle(second);
      expect(receiver.received.map((r) => r.answeredWith)).to.deep.equal([500, 200]);
      expect(receiver.received[1].deliveryId).to.equal(receiver.received[0].deliveryId);

      // Even replaying the whole log from scratch (checkpoint lost) sends nothing twice.
      await second.close();
      open.pop();
      const third = await openNode(env(), clock);
      open.push(third);
      await third.readDb.deleteFrom('projection_checkpoints').where('name', '=', 'notifier').execute();
      await third.notifier.start();
      clock.advance(24 * 60 * MINUTE);
      await third.notifier.runDue();
      await settle(third);
      expect(receiver.received).to.have.length(2);
      const rows = await third.callbackQueries.list({ paymentId });
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ status: 'delivered', attempts: 2 });
    });

    if (kind === 'sqlite') {
      it('a notifier process killed mid-attempt: the next one records the attempt as interrupted and sends again under the same id', async function () {
        this.timeout(60_000);
        const clock = new TestClock();
        const setupNode = await openNode(env(), clock);
        open.push(setupNode);
        const merchant = await setupNode.merchants.register({ name: 'Crash shop', notificationUrl: receiver.url });
        await settledSale(setupNode, merchant.merchant_id);
        await setupNode.close();
        open.pop();

        // A separate notifier process picks the callback up; the merchant never answers; it is killed.
        receiver.script.push('hang');
        const child: ChildProcess = spawn(process.execPath, cliArgv('notifier'), {
          cwd: REPO,
          env: { ...process.env, ...env(), CALLBACK_TIMEOUT: '60s', GATEWAY_LOG_LEVEL: 'silent' },
          stdio: 'ignore',
        });
        try {
          const deadline = Date.now() + 30_000;
          while (receiver.received.length === 0) {
            if (Date.now() > deadline) throw new Error('the notifier process never sent the callback');
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } finally {
          child.kill('SIGKILL');
          await new Promise((resolve) => child.once('exit', resolve));
        }

        const after = await openNode(env(), clock);
        open.push(after);
        await after.notifier.start();
        // The claim of the dead process holds until its lease (timeout + grace) runs out.
        await after.notifier.runDue();
        await settle(after);
        expect(receiver.received).to.have.length(1);
        clock.advance(61_000 + 30_000);
        await after.notifier.runDue();
        await settle(after);

        expect(receiver.received.map((r) => r.answeredWith)).to.deep.equal(['hang', 200]);
        const [lost, resent] = receiver.received;
        expect(resent.deliveryId).to.equal(lost.deliveryId);
        expect(resent.body).to.equal(lost.body);
        const events = await after.store.readStream(callbackStreamId(lost.deliveryId));
        expect(events.map((e) => e.type)).to.deep.equal([
          'CallbackScheduled',
          'CallbackAttemptStarted',
          'CallbackAttemptFailed',
          'CallbackAttemptStarted',
          'CallbackDelivered',
        ]);
        expect(String(events[2].data.error)).to.match(/^interrupted/);
      });
    }
  });
}

describe('two notifiers on one PostgreSQL store', function () {
  requirePostgres(this);
  let setup: Setup;
  let receiver: CallbackReceiver;
  const open: Gateway[] = [];
  const vaultKey = randomBytes(32).toString('hex');

  before(async () => {
    setup = await postgresSetup();
    receiver = await new CallbackReceiver().start();
  });
  after(async () => {
    for (const g of open.splice(0)) await g.close().catch(() => undefined);
    await receiver.stop();
    await setup.cleanup();
  });

  it('deliver every callback exactly once between them, retries included', async () => {
    const clock = new TestClock();
    const env = { ...setup.env, VAULT_KEY: vaultKey, CALLBACK_TIMEOUT: '5s', NOTIFIER_POLL_MS: '600000' };
    const a = await openNode(env, clock);
    open.push(a);
    const b = await openNode(env, clock);
    open.push(b);
    await a.notifier.start();
    await b.notifier.start();
    const merchant = await a.merchants.register({ name: 'Shared shop', notificationUrl: receiver.url });
    // The first attempt of every other delivery fails, so retries are shared out too. Decided per
    // delivery, not by arrival order: the two notifiers' requests interleave as the machine lets them.
    let firstAttempts = 0;
    receiver.answerBy = ({ seenBefore }) => (seenBefore > 0 ? 200 : firstAttempts++ % 2 === 0 ? 500 : 200);
    const payments = await Promise.all(Array.from({ length: 40 }, (_, i) => settledSale(i % 2 === 0 ? a : b, merchant.merchant_id)));
    await settle(a);
    await settle(b);
    clock.advance(MINUTE);
    await Promise.all([a.notifier.runDue(), b.notifier.runDue()]);
    await settle(a);
    await settle(b);

    for (const paymentId of payments) {
      const got = receiver.received.filter((r) => r.fields.get('trans_id') === paymentId);
      const delivered = got.filter((r) => r.answeredWith === 200);
      expect(delivered, paymentId).to.have.length(1);
      // Attempts before the 2xx are failures only: nothing was sent twice at once.
      expect(got.length, paymentId).to.be.at.most(2);
    }
    expect(receiver.received.filter((r) => r.answeredWith === 200)).to.have.length(40);
  });
});
