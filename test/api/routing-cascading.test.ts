/**
 * Smart routing and cascading between the gateway's two sandbox acquirers, over HTTP. Given a
 * merchant routed to sandbox-b first and then the sandbox, when a SALE meets a soft decline at
 * sandbox-b, then the sandbox takes it, and the merchant hears of the first declined attempt and of
 * the final outcome (the family's callback rule). A hard decline is final; a payment the first
 * connector cannot take (DMS, currency) goes where it can; refunds the connector takes only in its
 * portal are refused with 210002 before it is asked.
 */
import { expect } from 'chai';
import { CallbackReceiver } from '../support/callback-receiver';
import { postJson, sessionBody } from '../support/checkout-client';
import { forEachStore, type TestMerchant } from '../support/gateway-harness';

forEachStore('Routing and cascading between acquirers', (h) => {
  const receiver = new CallbackReceiver();
  let routed: TestMerchant;

  before(async () => {
    await receiver.start();
    await h().gateway.notifier.start();
  });
  after(() => receiver.stop());
  beforeEach(async () => {
    routed = await h().createMerchant({ connectors: ['sandbox-b', 'sandbox'], notificationUrl: receiver.url });
  });

  async function callbacksOf(transId: string): Promise<Record<string, string>[]> {
    await h().gateway.notifier.catchUp();
    return receiver.ofTransaction(transId).map((r) => Object.fromEntries(r.fields));
  }

  const initiated = async (transId: string) => (await h().paymentEvents(transId))[0]!.data as { connector: string; route?: string[] };

  it('Given a soft decline at the first acquirer, when the SALE is made, then the second settles it and the merchant hears of the declined attempt and of the settlement', async () => {
    const res = await h().sale(routed, { card_exp_month: '04' });

    expect(res.body, res.text).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    const transId: string = res.body.trans_id;
    expect(await h().paymentEventTypes(transId)).to.deep.equal(['PaymentInitiated', 'PaymentCascaded', 'PaymentSettled']);
    expect(await initiated(transId)).to.include({ connector: 'sandbox-b' }).and.deep.include({ route: ['sandbox-b', 'sandbox'] });
    const cascaded = (await h().paymentEvents(transId))[1]!.data;
    expect(cascaded).to.include({ fromConnector: 'sandbox-b', toConnector: 'sandbox', reason: 'Issuer unavailable' });
    expect((await h().paymentEvents(transId))[2]!.data.reference).to.match(/^sbx_/);

    const callbacks = await callbacksOf(transId);
    expect(callbacks.map((c) => [c.result, c.status, c.decline_reason])).to.deep.equal([
      ['DECLINED', 'DECLINED', 'Issuer unavailable'],
      ['SUCCESS', 'SETTLED', undefined],
    ]);
    expect((await h().status(routed, transId)).body).to.include({ status: 'SETTLED' });
  });

  it('Given a hard decline at the first acquirer, then the payment is declined there, with no cascade and one callback', async () => {
    const res = await h().sale(routed, { card_exp_month: '02' });

    expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Do not honour' });
    expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentDeclined']);
    expect((await callbacksOf(res.body.trans_id)).map((c) => c.status)).to.deep.equal(['DECLINED']);
  });

  it('Given a soft decline at the last acquirer of the route, then it is final', async () => {
    const only = await h().createMerchant({ connectors: ['sandbox-b'] });
    const res = await h().sale(only, { card_exp_month: '07' });

    expect(res.body).to.include({ result: 'DECLINED', decline_reason: 'Acquirer limit exceeded' });
    expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentDeclined']);
  });

  it('Given an authorization, which the first acquirer does not take, then it goes to the one that does', async () => {
    const res = await h().sale(routed, { auth: 'Y' });

    expect(res.body).to.include({ result: 'SUCCESS', status: 'PENDING' });
    expect(await initiated(res.body.trans_id)).to.include({ connector: 'sandbox' }).and.not.have.property('route');
  });

  it('Given a currency none of its acquirers takes, then 204005 and nothing is recorded', async () => {
    const only = await h().createMerchant({ connectors: ['sandbox-b'] });
    const res = await h().sale(only, { order_currency: 'JPY', order_amount: '1000' });

    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
    expect(await h().initiatedForOrder(only, res.fields.order_id!)).to.have.length(0);
  });

  it('Given a Checkout session none of the merchant\'s acquirers could pay, then it is refused with 204005 when it is created', async () => {
    const only = await h().createMerchant({ connectors: ['sandbox-b'] });
    const jpy = await postJson(h(), '/api/v1/session', sessionBody(only, { order: { amount: '1000', currency: 'JPY' } }));
    const held = await postJson(h(), '/api/v1/session', sessionBody(only, { auth: true }));

    for (const res of [jpy, held]) expect(res.body, res.text).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
    expect((await postJson(h(), '/api/v1/session', sessionBody(only))).status).to.equal(200);
  });

  it('Given a sale settled by an acquirer that takes refunds in its portal only, then CREDITVOID is 210002 and it is never asked; its VOID quotes its reference', async () => {
    const only = await h().createMerchant({ connectors: ['sandbox-b'] });
    const sale = await h().sale(only);
    expect(sale.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });

    const refund = await h().creditVoid(only, sale.body.trans_id, '1.00');
    expect(refund.body).to.deep.equal({
      result: 'ERROR',
      error_code: 210002,
      error_message: 'Refund via API is not supported. Only from the connector admin portal.',
    });
    expect(await h().paymentEventTypes(sale.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);

    const voided = await h().voidPayment(only, sale.body.trans_id);
    expect(voided.body, voided.text).to.include({ result: 'SUCCESS', status: 'VOID' });
  });

  it('Given a merchant naming a connector the deployment does not have, then it is refused', async () => {
    let refused: unknown;
    await h().createMerchant({ connectors: ['sandbox', 'acme'] }).catch((error) => (refused = error));
    expect(String(refused)).to.include(`Unknown connector acme (this deployment has ${h().gateway.config.connectors.join(', ')}).`);
  });
});
