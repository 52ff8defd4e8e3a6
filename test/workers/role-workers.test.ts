/**
 * The projecting workers of a process whose event store commits on a writer thread (`npm start`'s
 * background thread): the payout balance feeder follows the writer's commits, so a sale's money
 * reaches the merchant's payout balance within the settling time, not at the feeder's next second.
 */
import { expect } from 'chai';
import { CommitSignal } from '../../src/adapters/event-store/commit-signal';
import type { Gateway } from '../../src/composition';
import type { GatewayConfig } from '../../src/config';
import { startProjectingWorkers, type Stop } from '../../src/workers/role-workers';

describe('the projecting workers of a process with a writer thread', function () {
  this.timeout(20_000);
  let stops: Stop[] = [];
  afterEach(async () => {
    for (const stop of stops) await stop();
    stops = [];
  });

  it('Given a commit, then the payout balances are fed after the settling time, before the feeder\'s one-second pace would', async function () {
    const commits = CommitSignal.create();
    const fed: number[] = [];
    const quiet = { info() {}, warn() {}, error() {} };
    // Only what the feeder touches answers; the other workers' first passes are half a minute away.
    const gateway = {
      logger: quiet,
      clock: { now: () => new Date() },
      readModels: {},
      payments: {},
      rawStore: {},
      sandboxApm: null,
      payouts: { feedBalances: async () => void fed.push(performance.now()) },
      commitSignal: () => commits.buffer,
    } as unknown as Gateway;
    const config = { payerActionTimeoutMinutes: 30, auditCheckpointIntervalSeconds: 0 } as GatewayConfig;

    const startedAt = performance.now();
    stops = startProjectingWorkers(gateway, config);
    commits.committed();
    const deadline = Date.now() + 5_000;
    while (fed.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));

    expect(fed, 'the feeder made a pass').to.have.length.at.least(1);
    expect(fed[0]! - startedAt, 'milliseconds until the first pass').to.be.below(900);
  });
});
