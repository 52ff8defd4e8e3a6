/** `merchant create|update --connectors`: the acquirers a merchant's payments try, in order. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { inProcessCliWithDataDir } from '../support/cli-in-process';
import { CONNECTOR_NAMES } from '../../src/config';

describe('merchant CLI: --connectors', function () {
  this.timeout(120_000);
  const cli = inProcessCliWithDataDir('connectors-cli-');

  it('is the card sandbox, the APM sandbox, then the wallet sandbox by default; create and update set the order, show reports it, unknown names are refused', async () => {
    const plain = JSON.parse((await cli('merchant', 'create', '--name', `CLI ${randomUUID().slice(0, 6)}`, '--json')).stdout);
    expect(plain.connectors).to.deep.equal(['sandbox', 'sandbox-apm', 'sandbox-wallet']);

    const created = await cli('merchant', 'create', '--name', `CLI ${randomUUID().slice(0, 6)}`, '--connectors', 'sandbox-b,sandbox', '--json');
    expect(created.code, created.stderr).to.equal(0);
    const merchant = JSON.parse(created.stdout);
    expect(merchant.connectors).to.deep.equal(['sandbox-b', 'sandbox']);

    const updated = await cli('merchant', 'update', merchant.merchant_id, '--connectors', 'sandbox', '--json');
    expect(updated.code, updated.stderr).to.equal(0);
    expect(JSON.parse((await cli('merchant', 'show', merchant.merchant_id, '--json')).stdout).connectors).to.deep.equal(['sandbox']);

    const refused = await cli('merchant', 'update', merchant.merchant_id, '--connectors', 'sandbox,acme');
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.include(`--connectors: Unknown connector acme (this deployment has ${CONNECTOR_NAMES.join(', ')}).`);
  });
});
