/**
 * The duplicate rule (spec Limits, decisions 5): a repeated order_id within 15 s returns the
 * original outcome, later it is `order_id: Duplicate payment.`; exactly one payment per order
 * under concurrent requests, and across two API processes sharing one PostgreSQL database.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { TestClock, forEachStore, type TestMerchant } from '../support/gateway-harness';

forEachStore('S2S CARD duplicate order ids', (h, kind) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  const clock = () => h().clock as TestClock;

  it('a repeat within 15 s returns the original outcome and creates no second payment', async () => {
    // 14 s must stay short of the 15 s however slow the machine: the gateway's clock stands still
    // while the test runs and moves only as far as the test advances it.
    clock().freeze();
    try {
      const orderId = `dup-${randomUUID()}`;
      const first = await h().sale(merchant, { order_id: orderId, card_exp_month: '02' });
      clock().advance(14_000);

      const again = await h().sale(merchant, { order_id: orderId, card_exp_month: '02' });

      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect(await h().initiatedForOrder(merchant, orderId)).to.have.length(1);
      expect(await h().paymentEventTypes(first.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentDeclined']);
    } finally {
      clock().resume();
    }
  });

  it('a repeat of a 3DS sale returns the same redirect, not a second challenge', async () => {
    const orderId = `dup-${randomUUID()}`;
    const first = await h().sale(merchant, { order_id: orderId, card_exp_month: '05' });
    const again = await h().sale(merchant, { order_id: orderId, card_exp_month: '05' });
    expect(again.body).to.deep.equal(first.body);
    expect(await h().paymentEventTypes(first.body.trans_id)).to.have.length(2);
  });

  it('after the 15 s window the same order_id is order_id: Duplicate payment.', async () => {
    const orderId = `dup-${randomUUID()}`;
    const first = await h().sale(merchant, { order_id: orderId });
    clock().advance(16_000);

    const late = await h().sale(merchant, { order_id: orderId });

    expect(late.status).to.equal(400);
    expect(late.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'order_id: Duplicate payment.' });
    expect(await h().initiatedForOrder(merchant, orderId)).to.have.length(1);
    expect(await h().paymentEventTypes(first.body.trans_id)).to.have.length(2);
  });

  it('the same order_id at two merchants is two payments', async () => {
    const other = await h().createMerchant();
    const orderId = `shared-${randomUUID()}`;
    const a = await h().sale(merchant, { order_id: orderId });
    const b = await h().sale(other, { order_id: orderId });
    expect(a.body.result).to.equal('SUCCESS');
    expect(b.body.result).to.equal('SUCCESS');
    expect(a.body.trans_id).not.to.equal(b.body.trans_id);
  });

  it('a refused request (validation, hash) does not take the order_id', async () => {
    const orderId = `dup-${randomUUID()}`;
    await h().sale(merchant, { order_id: orderId, hash: 'c'.repeat(32) });
    await h().sale(merchant, { order_id: orderId, card_number: '4111111111111112' });
    const ok = await h().sale(merchant, { order_id: orderId });
    expect(ok.body).to.include({ result: 'SUCCESS' });
  });

  it('20 concurrent SALEs of one order get one trans_id and make exactly one payment', async () => {
    const orderId = `race-${randomUUID()}`;
    const fields = h().saleFields(merchant, { order_id: orderId });

    const results = await Promise.all(Array.from({ length: 20 }, () => h().post(fields)));

    for (const r of results) {
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    }
    expect(new Set(results.map((r) => r.body.trans_id)).size).to.equal(1);
    expect(await h().initiatedForOrder(merchant, orderId)).to.have.length(1);
    expect(await h().paymentEventTypes(results[0].body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
  });

  if (kind === 'postgres') {
    it('two API processes on one schema, concurrent SALEs of one order: exactly one payment', async () => {
      const peer = await h().startPeer();
      const orderId = `race2-${randomUUID()}`;
      const fields = h().saleFields(merchant, { order_id: orderId, auth: 'Y' });

      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => h().post(fields, i % 2 === 0 ? h().baseUrl : peer.baseUrl)),
      );

      for (const r of results) {
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        expect(r.body).to.include({ result: 'SUCCESS', status: 'PENDING' });
      }
      expect(new Set(results.map((r) => r.body.trans_id)).size).to.equal(1);
      expect(await h().initiatedForOrder(merchant, orderId)).to.have.length(1);
      expect(await peer.initiatedForOrder(merchant, orderId)).to.have.length(1);

      // Either process can follow up on it.
      const captured = await peer.capture(merchant, results[0].body.trans_id);
      expect(captured.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      expect((await h().status(merchant, results[0].body.trans_id)).body.status).to.equal('SETTLED');
    });
  }
});
