/** `npm run gateway -- chain <id>`, as an operator runs it against the gateway's data directory. */
import { expect } from 'chai';
import { buildGateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { inProcessCliWithDataDir } from '../support/cli-in-process';
import { startChain } from '../support/recurring-chains';

describe('npm run gateway -- chain', function () {
  this.timeout(120_000);
  const cli = inProcessCliWithDataDir('gw-chain-');
  let chainId = '';

  before(async () => {
    const g = await buildGateway(loadConfig({ DATA_DIR: cli.dataDir, GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite' }), { withProjector: true });
    try {
      const merchant = await g.merchants.register({ name: 'Chain CLI' });
      chainId = (await startChain(g, merchant.merchant_id)).chainId;
    } finally {
      await g.close();
    }
  });

  it('prints the schedule and every due date still to come, as text and as JSON', async () => {
    const text = await cli('chain', chainId);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.match(/Schedule \S+ "Plan": every 1 day\(s\), 5 payments, active/);
    expect(text.stdout.match(/upcoming/g)).to.have.length(5);
    const json = await cli('chain', chainId, '--json');
    const report = JSON.parse(json.stdout);
    expect(report.payments.map((p: { sequence: number }) => p.sequence)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(report.payments[0].due_date).to.equal(report.first_recurring_date);
  });

  it('says so, exit 1, for a payment that starts no schedule', async () => {
    const r = await cli('chain', '00000000-0000-4000-8000-000000000000');
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/No scheduled chain starts at payment/);
  });
});
