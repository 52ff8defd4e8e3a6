/**
 * The operator's side of S2S APM: `merchant create|update --methods <list>|all|none` (docs/apm.md#which-methods-a-merchant-takes:
 * a sandbox merchant takes every sandbox brand until told otherwise) and `sandbox decide
 * <trans_id> approve|decline`, which decides a payment waiting on the sandbox provider.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { buildGateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { inProcessCliWithDataDir } from '../support/cli-in-process';

describe('APM CLI: --methods and sandbox decide', function () {
  this.timeout(180_000);
  const cli = inProcessCliWithDataDir('apm-cli-');

  it('Given a new sandbox merchant, Then it takes all methods; update narrows, clears and restores them; unknown ones are refused', async () => {
    const created = JSON.parse((await cli('merchant', 'create', '--name', `APM ${randomUUID().slice(0, 6)}`, '--json')).stdout);
    expect(created.methods).to.equal('all');
    const id = created.merchant_id;

    const narrowed = await cli('merchant', 'update', id, '--methods', 'sb-qr,sb-redirect', '--json');
    expect(narrowed.code, narrowed.stderr).to.equal(0);
    expect(JSON.parse(narrowed.stdout).methods).to.deep.equal(['sb-qr', 'sb-redirect']);
    expect(JSON.parse((await cli('merchant', 'update', id, '--methods', 'none', '--json')).stdout).methods).to.deep.equal([]);
    expect(JSON.parse((await cli('merchant', 'show', id, '--json')).stdout).methods).to.deep.equal([]);
    expect(JSON.parse((await cli('merchant', 'update', id, '--methods', 'all', '--json')).stdout).methods).to.equal('all');

    const refused = await cli('merchant', 'update', id, '--methods', 'sb-qr,acme-pay');
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.match(/^--methods: Unknown payment method acme-pay \(this deployment offers sb-redirect, /);
    expect((await cli('merchant', 'update', id, '--methods', ',')).stderr).to.include('--methods must be all, none or a comma-separated list of methods');
  });

  it('Given a payment waiting on the provider page, When sandbox decide approves it, Then it is SETTLED; a second decision changes nothing', async () => {
    const merchant = JSON.parse((await cli('merchant', 'create', '--name', `APM ${randomUUID().slice(0, 6)}`, '--json')).stdout);
    const config = { ...loadConfig({ ...process.env, DATA_DIR: cli.dataDir, EVENT_STORE: 'sqlite', DATABASE_URL: '' }), logLevel: 'silent' as const };
    const g = await buildGateway(config, { withProjector: true });
    let transId: string;
    try {
      await g.projector!.catchUp();
      const account = (await g.merchants.accountById(merchant.merchant_id))!;
      const orderId = `o-${randomUUID()}`;
      // Made through the payment service, as the API makes it once its checks pass.
      const { payment } = await g.payments.sale({
        merchantId: account.merchantId,
        channel: 's2s_apm',
        kind: 'sale',
        orderId,
        orderDescription: 'CLI decide',
        currency: 'EUR',
        amount: 500,
        amountText: '5.00',
        method: { brand: 'sb-redirect', parameters: {}, identifier: 'payer-1', returnUrl: 'https://shop.test/back' },
        payer: { ip: '203.0.113.5' },
        termUrl3ds: null,
        notificationUrl: null,
        customData: null,
        parameters: null,
        recurringInit: false,
        storeCard: false,
        correlationId: 'cli-test',
        connectors: ['sandbox-apm'],
      });
      expect(payment.status).to.equal('REDIRECT');
      transId = payment.paymentId;
    } finally {
      await g.close();
    }
    const decided = await cli('sandbox', 'decide', transId, 'approve', '--json');
    expect(decided.code, decided.stderr).to.equal(0);
    expect(JSON.parse(decided.stdout)).to.deep.equal({ trans_id: transId, status: 'SETTLED', changed: true });
    const again = await cli('sandbox', 'decide', transId, 'decline');
    expect(again.stdout).to.include(`Payment ${transId} was already decided: SETTLED.`);
    expect((await cli('sandbox', 'decide', transId, 'maybe')).code).to.equal(2);
  });
});
