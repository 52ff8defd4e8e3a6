/**
 * Given a payment whose acquirer answer was never recorded (the process stopped between recording
 * the intent and recording the answer), when the reconciler runs, then the acquirer is asked and
 * the answer is recorded once.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { handleCommand } from '../../src/application/command-handler';
import { paymentDecider } from '../../src/domain/payment/decider';
import { paymentStreamId } from '../../src/domain/payment/events';
import { reconcileOpenPayments } from '../../src/workers/reconciler';
import { forEachStore, TestClock } from '../support/gateway-harness';

forEachStore('reconciler', (h) => {
  const run = () => {
    const g = h();
    return reconcileOpenPayments({
      candidates: g.gateway.readModels,
      payments: g.gateway.payments,
      clock: g.clock,
      logger: g.gateway.logger,
      graceMs: 60_000,
    });
  };

  it('records the outcome of an authorization that was sent but never recorded', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    const paymentId = randomUUID();
    await handleCommand(g.gateway.store, paymentStreamId(paymentId), paymentDecider, {
      type: 'InitiatePayment',
      data: {
        paymentId,
        merchantId: merchant.merchant_id,
        channel: 's2s_card',
        kind: 'sale',
        orderId: `crash-${paymentId}`,
        orderDescription: 'interrupted',
        currency: 'USD',
        amount: 1500,
        amountText: '15.00',
        card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: null },
        payer: {},
        termUrl3ds: 'https://shop.example/return',
        notificationUrl: null,
        customData: null,
        parameters: null,
        recurringInit: false,
        connector: 'sandbox',
        now: g.clock.now().toISOString(),
      },
    });
    await g.gateway.readModels.catchUpToHead();
    expect(await run()).to.equal(0, 'a request younger than the grace period may still be in flight');

    (g.clock as TestClock).advance(2 * 60_000);
    expect(await run()).to.equal(1);
    expect(await g.paymentEventTypes(paymentId)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
    const status = await g.status(merchant, paymentId);
    expect(status.body.status).to.equal('SETTLED');

    expect(await run()).to.equal(0, 'a reconciled payment is not touched again');
    expect(await g.paymentEventTypes(paymentId)).to.have.length(2);
  });

  it('records the outcome of a capture that was requested but never recorded', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    const auth = await g.sale(merchant, { auth: 'Y' });
    expect(auth.body.status).to.equal('PENDING');
    await handleCommand(g.gateway.store, paymentStreamId(auth.body.trans_id), paymentDecider, {
      type: 'RequestCapture',
      data: { operationId: randomUUID(), now: g.clock.now().toISOString() },
    });
    await g.gateway.readModels.catchUpToHead();
    const blocked = await g.capture(merchant, auth.body.trans_id);
    expect(blocked.body.result).to.equal('ERROR', 'a second capture waits for the first one to be settled');

    (g.clock as TestClock).advance(2 * 60_000);
    expect(await run()).to.equal(1);
    expect(await g.paymentEventTypes(auth.body.trans_id)).to.deep.equal([
      'PaymentInitiated',
      'PaymentAuthorized',
      'CaptureRequested',
      'CaptureSucceeded',
    ]);
    expect((await g.status(merchant, auth.body.trans_id)).body.status).to.equal('SETTLED');
  });
});
