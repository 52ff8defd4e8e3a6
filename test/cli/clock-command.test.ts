/** `npm run gateway -- clock show|advance`, as an operator runs it. */
import { expect } from 'chai';
import { buildGateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import type { ScheduleRule } from '../../src/domain/schedule/due-dates';
import { cliWithDataDir } from '../support/cli-runner';
import { chainEvents, startChain } from '../support/recurring-chains';

const WEEKLY: ScheduleRule = { intervalLength: 1, intervalUnit: 'week', paymentsCount: 6, delayedFirstPayment: { kind: 'none' } };

describe('npm run gateway -- clock, as a process', function () {
  this.timeout(120_000);
  const cli = cliWithDataDir('gw-clock-');

  before(() => {
    const created = cli('merchant', 'create', '--name', 'Clock shop');
    expect(created.code, created.stderr).to.equal(0);
  });

  it('shows the gateway time, moves it forward by a duration and keeps the move for the next process', () => {
    const before = cli('clock', 'show', '--json');
    expect(before.code, before.stderr).to.equal(0);
    expect(JSON.parse(before.stdout).offset_ms).to.be.lessThan(60_000);

    const moved = cli('clock', 'advance', '2d');
    expect(moved.code, moved.stderr).to.equal(0);
    expect(moved.stdout).to.match(/Gateway time moved 2d 0h 0m forward, from \S+ to \S+\./);

    const after = cli('clock', 'show', '--json');
    expect(JSON.parse(after.stdout).offset_ms).to.be.within(2 * 86_400_000 - 60_000, 2 * 86_400_000 + 60_000);
  });

  it('resets the clock to real time, for this process and the next', () => {
    expect(cli('clock', 'advance', '3d').code).to.equal(0);

    const reset = cli('clock', 'reset');

    expect(reset.code, reset.stderr).to.equal(0);
    expect(reset.stdout).to.match(/Gateway time reset to real time \(\S+\); it was \d+d \d+h \d+m ahead\./);
    expect(Math.abs(JSON.parse(cli('clock', 'show', '--json').stdout).offset_ms)).to.be.lessThan(60_000);
  });

  it('refuses a duration it cannot read with the usage of advance and exit 2', () => {
    const r = cli('clock', 'advance', 'soon');
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/Not a duration: "soon"/);
    expect(r.stderr).to.match(/usage: npm run gateway -- clock advance <duration>/);
  });

  it('refuses in production with exit 1, advance and reset alike', () => {
    const previous = process.env.GATEWAY_ENV;
    process.env.GATEWAY_ENV = 'production';
    try {
      for (const args of [['advance', '1d'], ['reset']]) {
        const r = cli('clock', ...args);
        expect(r.code, args.join(' ')).to.equal(1);
        expect(r.stderr).to.match(/sandbox only/);
      }
    } finally {
      if (previous === undefined) delete process.env.GATEWAY_ENV;
      else process.env.GATEWAY_ENV = previous;
    }
  });
});

describe('npm run gateway -- clock advance, with no server running', function () {
  this.timeout(180_000);
  const cli = cliWithDataDir('gw-clock-chain-');
  let chainId = '';
  const open = () =>
    buildGateway(loadConfig({ DATA_DIR: cli.dataDir, GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite' }), { withProjector: true });

  before(async () => {
    const g = await open();
    try {
      const merchant = await g.merchants.register({ name: 'Weekly box' });
      chainId = (await startChain(g, merchant.merchant_id, { rule: WEEKLY })).chainId;
    } finally {
      await g.close();
    }
  });

  it('makes each automatic payment on its own due date, in seconds rather than a wait per date', async () => {
    // Given a chain that falls due every week, and no gateway process running
    // When the operator moves the clock 30 days from the CLI
    const started = Date.now();
    const moved = cli('clock', 'advance', '30d');
    const elapsedMs = Date.now() - started;
    expect(moved.code, moved.stderr).to.equal(0);
    expect(moved.stdout).to.match(/4 scheduled payment\(s\) made/);

    // Then the four weekly dates were each charged on their own date, in order
    const g = await open();
    try {
      const claims = (await chainEvents(g, chainId)).filter((e) => e.type === 'ScheduledPaymentStarted');
      expect(claims.map((e) => e.data.sequence)).to.deep.equal([1, 2, 3, 4]);
      for (const claim of claims) {
        const payment = await g.payments.current((claim.data as { paymentId: string }).paymentId);
        expect(payment.initiatedAt.slice(0, 10), `payment #${claim.data.sequence}`).to.equal(claim.data.dueDate);
      }
      const dates = claims.map((e) => Date.parse(e.data.dueDate));
      for (let i = 1; i < dates.length; i++) expect(dates[i] - dates[i - 1]).to.equal(7 * 86_400_000);
    } finally {
      await g.close();
    }
    // And it did not wait on a projector that no process runs (that took about 10 s per date).
    expect(elapsedMs).to.be.lessThan(30_000);
  });
});
