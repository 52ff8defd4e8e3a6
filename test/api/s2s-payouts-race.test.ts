/**
 * Concurrent payouts never overdraw (issue: "50 concurrent payouts against a balance that covers
 * 10"). Given a payout balance of exactly ten payouts, when fifty are sent over HTTP at once, then
 * exactly ten settle, forty are declined for the balance, and no state of the balance stream, event
 * by event, was ever negative. On PostgreSQL the fifty are also split across two API processes,
 * whose holds meet only at the stream's expected version. And one order_id sent ten times at once
 * makes one payout, paid once.
 */
import { expect } from 'chai';
import { payoutBalanceDecider } from '../../src/domain/payouts/balance-decider';
import { payoutBalanceStreamId, type PayoutBalanceEvent } from '../../src/domain/payouts/balance-events';
import { availableOf } from '../../src/domain/payouts/balance-state';
import { forEachStore, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { balanceOf, payoutFields, topUp } from '../support/payout-client';

const PAYOUTS = 50;
const COVERED = 10;
/** 10.00 GHS each. */
const AMOUNT_MINOR = 1_000;

/** Every state the balance stream went through, folded event by event. */
async function availableAfterEachEvent(g: TestGateway, merchant: TestMerchant): Promise<number[]> {
  const events = await g.gateway.store.readStream(payoutBalanceStreamId(merchant.merchant_id, 'GHS'));
  let state = payoutBalanceDecider.initialState();
  const seen: number[] = [];
  for (const stored of events) {
    state = payoutBalanceDecider.evolve(state, { type: stored.type, data: stored.data } as PayoutBalanceEvent);
    seen.push(availableOf(state));
  }
  return seen;
}

async function race(gateways: TestGateway[], merchant: TestMerchant) {
  await topUp(gateways[0]!, merchant, 'GHS', COVERED * AMOUNT_MINOR);
  const answers = await Promise.all(
    Array.from({ length: PAYOUTS }, (_, i) => gateways[i % gateways.length]!.post(payoutFields(merchant, { order_amount: '10.00' }))),
  );
  expect(answers.map((a) => a.status)).to.deep.equal(Array(PAYOUTS).fill(200));
  const settled = answers.filter((a) => a.body.result === 'SUCCESS' && a.body.status === 'SETTLED');
  const declined = answers.filter((a) => a.body.result === 'DECLINED');
  expect(settled).to.have.length(COVERED);
  expect(declined).to.have.length(PAYOUTS - COVERED);
  for (const d of declined) expect(d.body.decline_reason).to.equal('Insufficient payout balance');
  // A payout declined for its balance never reached the provider.
  for (const d of declined) expect(await gateways[0]!.paymentEventTypes(d.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentDeclined']);

  const seen = await availableAfterEachEvent(gateways[0]!, merchant);
  expect(Math.min(...seen)).to.be.at.least(0);
  expect(seen.at(-1)).to.equal(0);
  await gateways[0]!.gateway.payouts.feedBalances();
  expect(await balanceOf(gateways[0]!, merchant, 'GHS')).to.include({ available: 0, held: 0, paidOut: COVERED * AMOUNT_MINOR });
  expect(Math.min(...(await availableAfterEachEvent(gateways[0]!, merchant)))).to.be.at.least(0);
}

forEachStore('CREDIT2VIRTUAL: concurrent payouts never overdraw', (h, kind) => {
  it(`Given a balance covering ${COVERED} payouts, When ${PAYOUTS} are sent at once, Then exactly ${COVERED} settle and ${PAYOUTS - COVERED} are declined for the balance`, async function () {
    this.timeout(60_000);
    await race([h()], await h().createMerchant());
  });

  it('Given one order_id, When 10 payouts with it are sent at once, Then one payout is made and paid once, and every answer is its answer', async function () {
    this.timeout(60_000);
    const merchant = await h().createMerchant();
    await topUp(h(), merchant, 'GHS', COVERED * AMOUNT_MINOR);
    const fields = payoutFields(merchant, { order_amount: '10.00' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => h().post(fields)));
    const transIds = new Set(answers.map((a) => a.body.trans_id));
    expect(transIds.size, JSON.stringify(answers.map((a) => a.body))).to.equal(1);
    for (const a of answers) expect(a.body).to.include({ result: 'SUCCESS', status: 'SETTLED', order_id: fields.order_id });
    expect(await h().initiatedForOrder(merchant, fields.order_id!)).to.have.length(1);
    await h().gateway.payouts.feedBalances();
    expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: (COVERED - 1) * AMOUNT_MINOR, paidOut: AMOUNT_MINOR });
  });

  if (kind === 'postgres') {
    it(`Given two API processes, When ${PAYOUTS} payouts are split between them, Then still exactly ${COVERED} settle`, async function () {
      this.timeout(60_000);
      const peer = await h().startPeer();
      await race([h(), peer], await h().createMerchant());
    });
  }
});
