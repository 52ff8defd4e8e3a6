/** `npm run gateway -- payouts top-up|balance`, as an operator runs it. */
import { expect } from 'chai';
import { inProcessCliWithDataDir } from '../support/cli-in-process';

describe('npm run gateway -- payouts', function () {
  this.timeout(120_000);
  const cli = inProcessCliWithDataDir('gw-payouts-');
  let merchantId: string;

  before(async () => {
    const created = await cli('merchant', 'create', '--name', 'Payout shop', '--json');
    expect(created.code, created.stderr).to.equal(0);
    merchantId = JSON.parse(created.stdout).merchant_id;
  });

  it('Given a merchant, When an operator tops up 500.00 GHS twice, Then the balance of the next process is 1000.00 available', async () => {
    const first = await cli('payouts', 'top-up', '--merchant', merchantId, '--currency', 'GHS', '--amount', '500.00', '--note', 'float for March');
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout).to.match(/^Topped up 500\.00 GHS \([0-9a-f-]{36}\)\./);
    const second = await cli('payouts', 'top-up', '--merchant', merchantId, '--currency', 'GHS', '--amount', '500', '--json');
    expect(JSON.parse(second.stdout).balance).to.include({ available: '1000.00', topped_up: '1000.00' });
    const shown = await cli('payouts', 'balance', '--merchant', merchantId, '--currency', 'GHS', '--json');
    expect(JSON.parse(shown.stdout)).to.deep.equal({
      merchant_id: merchantId,
      currency: 'GHS',
      available: '1000.00',
      held: '0.00',
      topped_up: '1000.00',
      received: '0.00',
      paid_out: '0.00',
    });
  });

  it('refuses with exit 2 an amount with decimals in XOF, a zero amount, an unknown merchant or currency', async () => {
    const xof = await cli('payouts', 'top-up', '--merchant', merchantId, '--currency', 'XOF', '--amount', '10.5');
    expect(xof.code).to.equal(2);
    expect(xof.stderr).to.contain('--amount 10.5: Amount in XOF cannot have decimals');
    expect((await cli('payouts', 'top-up', '--merchant', merchantId, '--currency', 'XOF', '--amount', '0')).stderr).to.contain('--amount must be more than 0');
    const nobody = await cli('payouts', 'balance', '--merchant', '00000000-0000-4000-8000-000000000000', '--currency', 'GHS');
    expect(nobody.code).to.equal(2);
    expect(nobody.stderr).to.contain('No merchant 00000000-0000-4000-8000-000000000000');
    expect((await cli('payouts', 'balance', '--merchant', merchantId, '--currency', 'ghs')).stderr).to.contain('--currency must be an ISO 4217 code');
    const unknown = await cli('payouts', 'withdraw');
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('usage: npm run gateway -- payouts top-up');
  });
});
