/** `merchant create|update --card-on-file on|off`: the merchant's card_on_file_support. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { inProcessCliWithDataDir } from '../support/cli-in-process';

describe('merchant CLI: --card-on-file', function () {
  this.timeout(120_000);
  const cli = inProcessCliWithDataDir('cof-cli-');

  it('is off by default; create and update switch it, show reports it, other values are refused', async () => {
    const plain = JSON.parse((await cli('merchant', 'create', '--name', `CLI ${randomUUID().slice(0, 6)}`, '--json')).stdout);
    expect(plain.card_on_file_support).to.equal(false);

    const created = await cli('merchant', 'create', '--name', `CLI ${randomUUID().slice(0, 6)}`, '--card-on-file', 'on', '--json');
    expect(created.code, created.stderr).to.equal(0);
    const merchant = JSON.parse(created.stdout);
    expect(merchant.card_on_file_support).to.equal(true);

    const updated = await cli('merchant', 'update', merchant.merchant_id, '--card-on-file', 'off', '--json');
    expect(updated.code, updated.stderr).to.equal(0);
    expect(JSON.parse(updated.stdout).card_on_file_support).to.equal(false);

    const refused = await cli('merchant', 'update', merchant.merchant_id, '--card-on-file', 'yes');
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.match(/--card-on-file must be on or off/);

    expect(JSON.parse((await cli('merchant', 'show', merchant.merchant_id, '--json')).stdout).card_on_file_support).to.equal(false);
  });
});
