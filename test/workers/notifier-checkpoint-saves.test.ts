/**
 * The notifier's periodic checkpoint saves give up on a busy database rather than wait, and wait
 * after a run of them gave up, so a database that is never free still gets the checkpoint.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Notifier } from '../../src/application/callbacks/notifier';
import type { Logger } from '../../src/application/ports/logger';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { settledSale } from '../support/direct-sale';
import { TestClock } from '../support/gateway-harness';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('notifier checkpoint saves on a busy database', function () {
  this.timeout(20_000);
  let dataDir = '';
  let g: Gateway;
  let notifier: Notifier | undefined;

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-checkpoint-saves-'));
    const config = loadConfig({ DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_ENV: 'sandbox', GATEWAY_LOG_LEVEL: 'silent', VAULT_KEY: randomBytes(32).toString('hex') });
    g = await buildGateway(config, { withProjector: false, clock: new TestClock(), logger: quiet });
  });

  afterEach(async () => {
    await notifier?.stop();
    await g.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given a database that is always busy, then the periodic saves give up eight times in a row, and the ninth waits and saves', async () => {
    const calls: Array<{ kind: 'try' | 'wait'; position: bigint }> = [];
    let saved: bigint | null = null;
    notifier = new Notifier({
      store: g.store,
      merchants: g.merchants,
      queries: g.callbackQueries,
      checkpoint: {
        load: async () => null,
        save: async (position) => {
          calls.push({ kind: 'wait', position });
          saved = position;
        },
        trySave: async (position) => {
          calls.push({ kind: 'try', position });
          return false;
        },
      },
      sender: { send: async () => ({ statusCode: 200, latencyMs: 1, error: null, timedOut: false }), close: () => undefined },
      clock: new TestClock(),
      logger: quiet,
      settings: { ...g.config.callbacks, pollMs: 600_000 },
    });
    const merchant = await g.merchants.register({ name: 'Busy shop' });
    await notifier.start();
    await settledSale(g, merchant.merchant_id);
    await notifier.catchUp();
    const deadline = Date.now() + 10_000;
    while (saved === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    expect(calls.map((c) => c.kind)).to.deep.equal([...Array(8).fill('try'), 'wait']);
    expect(saved).to.equal(await g.store.headPosition());
  });
});
