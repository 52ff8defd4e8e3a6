import { expect } from 'chai';
import sinon from 'sinon';
import { SandboxConnector } from '../../src/adapters/connectors/sandbox/connector';
import { expireAbandonedPayerActions } from '../../src/workers/payer-action-expiry';
import { forEachStore, TestClock } from '../support/gateway-harness';

forEachStore('payer action expiry', (h) => {
  const run = (timeoutMinutes = 15) => {
    const g = h();
    return expireAbandonedPayerActions({
      candidates: g.gateway.readModels,
      payments: g.gateway.payments,
      clock: g.clock,
      logger: g.gateway.logger,
      timeoutMinutes,
    });
  };

  /** A 3-D Secure SALE (the sandbox's 05/2038) whose payer has been gone for longer than the timeout. */
  const threeDSPastItsTimeout = async () => {
    const g = h();
    const merchant = await g.createMerchant();
    const sale = await g.sale(merchant, { card_exp_month: '05', card_exp_year: '2038' });
    expect(sale.body.status).to.equal('3DS');
    await g.gateway.readModels.catchUpToHead();
    (g.clock as TestClock).advance(16 * 60_000);
    return { g, merchant, sale };
  };

  it('declines a 3DS payment whose payer never came back, once the timeout has passed', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    const sale = await g.sale(merchant, { card_exp_month: '05', card_exp_year: '2038' });
    expect(sale.body.status).to.equal('3DS');
    await g.gateway.readModels.catchUpToHead();

    expect(await run()).to.equal(0, 'nothing expires before the timeout');
    (g.clock as TestClock).advance(16 * 60_000);
    await run();

    const status = await g.status(merchant, sale.body.trans_id);
    expect(status.body.status).to.equal('DECLINED');
    expect(status.body.decline_reason).to.match(/3-D Secure/);
    expect(await g.paymentEventTypes(sale.body.trans_id)).to.deep.equal([
      'PaymentInitiated',
      'ThreeDSChallengeRequired',
      'PaymentDeclined',
    ]);
  });

  it('declines an abandoned non-3DS redirect and leaves settled payments alone', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    const redirect = await g.sale(merchant, { card_exp_month: '12', card_exp_year: '2038' });
    const settled = await g.sale(merchant);
    expect(redirect.body.status).to.equal('REDIRECT');
    await g.gateway.readModels.catchUpToHead();
    (g.clock as TestClock).advance(16 * 60_000);
    await run();
    expect((await g.status(merchant, redirect.body.trans_id)).body.status).to.equal('DECLINED');
    expect((await g.status(merchant, settled.body.trans_id)).body.status).to.equal('SETTLED');
  });

  it('does not finish at the acquirer a payment it declined for want of the payer, when the payer comes back late', async () => {
    const { g, merchant, sale } = await threeDSPastItsTimeout();
    await run();
    const completions = sinon.spy(SandboxConnector.prototype, 'completePayerAction');
    try {
      await g.request(`/payments/${sale.body.trans_id}/3ds-return?PaRes=late&MD=${sale.body.trans_id}`);
      // Finishing it there would charge the card for a payment the merchant was told is declined.
      expect(completions.callCount).to.equal(0);
    } finally {
      completions.restore();
    }
    expect((await g.status(merchant, sale.body.trans_id)).body.status).to.equal('DECLINED');
    expect(await g.paymentEventTypes(sale.body.trans_id)).to.deep.equal(['PaymentInitiated', 'ThreeDSChallengeRequired', 'PaymentDeclined']);
  });

  it('asks the acquirer before declining: a payer who finished 3-D Secure, the answer lost on the way, is not declined', async () => {
    const { g, merchant, sale } = await threeDSPastItsTimeout();
    // The acquirer authorized after the challenge; the gateway never recorded its answer.
    const status = sinon
      .stub(SandboxConnector.prototype, 'status')
      .resolves({ outcome: 'success', reference: 'acquirer-ref', descriptor: 'SANDBOX*GATEWAY', authCode: '123456' });
    try {
      await run();
    } finally {
      status.restore();
    }
    expect(status.callCount).to.equal(1);
    expect((await g.status(merchant, sale.body.trans_id)).body.status).to.equal('SETTLED');
  });
});
