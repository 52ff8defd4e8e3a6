/**
 * The scheduler as the processes run it: `npm start` (role all) makes automatic payments on its
 * own timer, following a test clock another process moved.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { runGateway } from '../../src/server';
import { ANY } from '../../src/application/ports/event-store';
import { SANDBOX_CLOCK_STREAM } from '../../src/domain/clock/sandbox-clock-events';
import { scheduledPayments, startChain } from '../support/recurring-chains';

const DAY = 86_400_000;

describe('the scheduler in a running gateway', function () {
  this.timeout(60_000);

  it('Given role all, when another process moves the sandbox clock past a due date, then this process follows it and its scheduler makes the payment', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scheduler-role-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'silent', SCHEDULER_INTERVAL_MS: '50' });
    const running = await runGateway(config, 'all');
    try {
      const g = running.gateway;
      const merchant = await g.merchants.register({ name: 'Role test' });
      const chain = await startChain(g, merchant.merchant_id, { rule: { intervalLength: 1, intervalUnit: 'day', paymentsCount: 2, delayedFirstPayment: { kind: 'none' } } });
      // What `clock advance` in another process records, without running a scheduler of its own.
      const offsetMs = 2 * DAY + 3_600_000;
      await g.store.append(
        SANDBOX_CLOCK_STREAM,
        [{ id: randomUUID(), type: 'SandboxClockAdvanced', schemaVersion: 1, data: { offsetMs, to: new Date(Date.now() + offsetMs).toISOString(), at: new Date().toISOString() } }],
        ANY,
      );
      // Each thread follows the clock on a timer of its own: the scheduler's may see the move first.
      const followed = () => Math.abs(g.clock.now().getTime() - Date.now() - offsetMs) <= 60_000;
      const deadline = Date.now() + 20_000;
      let made = 0;
      while ((made < 2 || !followed()) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        made = (await scheduledPayments(g, chain.chainId)).length;
      }
      expect(made, 'payments the running scheduler made').to.equal(2);
      expect(g.clock.now().getTime() - Date.now()).to.be.within(offsetMs - 60_000, offsetMs + 60_000);
    } finally {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
