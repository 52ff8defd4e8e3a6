/**
 * The sandbox payout provider's own decision (docs/reference/s2s-apm.md#credit2virtual): given a payout nobody decides, when
 * 10 seconds of the gateway's clock have passed, then the provider settles it (UNDEFINED/PREPARE,
 * then SETTLED, with its callback's decision and its hold spent); one decided earlier on the provider
 * page stays as decided.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { SandboxApmMobileMoneyConnector } from '../../src/adapters/connectors/sandbox-apm/mobile-money-connector';
import { expireAbandonedPayerActions } from '../../src/workers/payer-action-expiry';
import { settleWaitingSandboxPayouts } from '../../src/workers/sandbox-payouts';
import { apmByTransId, decideOnPage } from '../support/apm-client';
import { forEachStore, type TestClock, type TestMerchant } from '../support/gateway-harness';
import { balanceOf, payout, topUp } from '../support/payout-client';

forEachStore('CREDIT2VIRTUAL: the sandbox provider settles after 10 s', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
    await topUp(h(), merchant, 'KES', 1_000_000);
  });

  const waiting = { order_currency: 'KES', order_amount: '1500.00', 'parameters[mobile_money_operator]': 'safaricom-ke', 'parameters[mobile_number]': '254712345678', 'parameters[customer_email]': 'payee@example.com' };
  const statusOf = async (transId: string) => (await apmByTransId(h(), 'GET_TRANS_STATUS', merchant, transId)).body.status;
  const pass = async () => {
    await h().gateway.readModels.catchUpToHead();
    return settleWaitingSandboxPayouts({ pending: h().gateway.readModels, provider: h().gateway.sandboxApm!, clock: h().clock, logger: h().gateway.logger });
  };

  it('Given a payout nobody decides, When 9 s pass nothing happens; When 11 s have passed, Then it is SETTLED and its hold spent', async () => {
    // 9 s must stay short of the 10 s however slow the machine: the gateway's clock stands still
    // while the test runs and moves only as far as the test advances it.
    const clock = h().clock as TestClock;
    clock.freeze();
    try {
      const res = await payout(h(), merchant, waiting);
      expect(res.body).to.include({ result: 'UNDEFINED', status: 'PREPARE' });
      clock.advance(9_000);
      await pass();
      expect(await statusOf(res.body.trans_id)).to.equal('PREPARE');
      clock.advance(2_000);
      await pass();
      expect(await statusOf(res.body.trans_id)).to.equal('SETTLED');
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentPending', 'PaymentSettled']);
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'KES')).to.include({ available: 1_000_000 - 150_000, held: 0, paidOut: 150_000 });
    } finally {
      clock.resume();
    }
  });

  it('Given a payout declined on the provider page, When 11 s pass, Then it stays DECLINED', async () => {
    const res = await payout(h(), merchant, waiting);
    await decideOnPage(h(), res.body.trans_id, { decision: 'decline' });
    (h().clock as TestClock).advance(11_000);
    await pass();
    expect(await statusOf(res.body.trans_id)).to.equal('DECLINED');
  });

  it('Given a payout waiting for its provider, When the payer-action timeout passes, Then it is not declined as a payer who never came back', async () => {
    const res = await payout(h(), merchant, waiting);
    await h().gateway.readModels.catchUpToHead();
    (h().clock as TestClock).advance(16 * 60_000);
    await expireAbandonedPayerActions({ candidates: h().gateway.readModels, payments: h().gateway.payments, clock: h().clock, logger: h().gateway.logger, timeoutMinutes: 15 });
    expect(await statusOf(res.body.trans_id)).to.equal('PREPARE');
  });

  for (const told of [
    { outcome: 'success', status: 'SETTLED', held: 0, paidOut: 150_000 },
    { outcome: 'declined', status: 'DECLINED', held: 0, paidOut: 0 },
  ] as const) {
    it(`Given a payout its provider decided (${told.outcome}) without telling the gateway, When the payer-action timeout passes, Then the provider is asked and the payout ends ${told.status}, its hold ${told.paidOut ? 'spent' : 'released'}`, async () => {
      const res = await payout(h(), merchant, waiting);
      const asked = sinon.stub(SandboxApmMobileMoneyConnector.prototype, 'status').callsFake(async (request) =>
        told.outcome === 'success'
          ? { outcome: 'success', reference: request.reference ?? 'ref', descriptor: 'SANDBOX PAYOUT' }
          : { outcome: 'declined', reason: 'The provider gave up on this payout', reference: request.reference ?? 'ref' },
      );
      try {
        await h().gateway.readModels.catchUpToHead();
        (h().clock as TestClock).advance(16 * 60_000);
        await expireAbandonedPayerActions({ candidates: h().gateway.readModels, payments: h().gateway.payments, clock: h().clock, logger: h().gateway.logger, timeoutMinutes: 15 });
      } finally {
        asked.restore();
      }
      expect(asked.called, "the provider was asked").to.equal(true);
      expect(await statusOf(res.body.trans_id)).to.equal(told.status);
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'KES')).to.include({ available: 1_000_000 - told.paidOut, held: told.held, paidOut: told.paidOut });
    });
  }
});
