/**
 * CAPTURE, VOID and CREDITVOID over HTTP, each given a payment created through the API, then the
 * response, the new events of the payment stream and what a status lookup says afterwards.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { forEachStore, type TestMerchant } from '../support/gateway-harness';

forEachStore('S2S CARD follow-ups', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  async function authorized(overrides: Record<string, string> = {}): Promise<string> {
    const res = await h().sale(merchant, { auth: 'Y', ...overrides });
    expect(res.body, 'given an authorization').to.include({ result: 'SUCCESS', status: 'PENDING' });
    return res.body.trans_id;
  }

  async function settled(overrides: Record<string, string> = {}): Promise<string> {
    const res = await h().sale(merchant, overrides);
    expect(res.body, 'given a settled sale').to.include({ result: 'SUCCESS', status: 'SETTLED' });
    return res.body.trans_id;
  }

  const statusOf = async (transId: string) => (await h().status(merchant, transId)).body.status;

  describe('CAPTURE', () => {
    it('captures a PENDING authorization in full -> SETTLED', async () => {
      const transId = await authorized();

      const res = await h().capture(merchant, transId);

      expect(res.status).to.equal(200);
      expect(res.body).to.include({ action: 'CAPTURE', result: 'SUCCESS', status: 'SETTLED', trans_id: transId, amount: '10.50', currency: 'USD' });
      expect(await h().paymentEventTypes(transId)).to.deep.equal([
        'PaymentInitiated',
        'PaymentAuthorized',
        'CaptureRequested',
        'CaptureSucceeded',
      ]);
      expect(await statusOf(transId)).to.equal('SETTLED');
    });

    it('captures part of the authorized amount -> SETTLED', async () => {
      const transId = await authorized();

      const res = await h().capture(merchant, transId, '4.00');

      expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED', amount: '4.00' });
      const events = await h().paymentEvents(transId);
      expect(events.map((e) => e.type).slice(2)).to.deep.equal(['CaptureRequested', 'CaptureSucceeded']);
      expect(events[3].data).to.include({ amount: 400, amountText: '4.00' });
      expect(await statusOf(transId)).to.equal('SETTLED');
    });

    it('on a SETTLED payment is 208003', async () => {
      const transId = await settled();

      const res = await h().capture(merchant, transId);

      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        result: 'ERROR',
        error_code: 208003,
        error_message: 'Not acceptable to request the capture for payment not in pending status',
      });
      expect(await h().paymentEventTypes(transId)).to.have.length(2);
    });

    it('a second capture of the same authorization is 208003', async () => {
      const transId = await authorized();
      await h().capture(merchant, transId);
      const res = await h().capture(merchant, transId);
      expect(res.body).to.include({ error_code: 208003 });
    });

    it('03/2038: the capture is declined and the payment stays PENDING', async () => {
      const transId = await authorized({ card_exp_month: '03' });

      const res = await h().capture(merchant, transId);

      expect(res.status).to.equal(200);
      expect(res.body).to.include({ action: 'CAPTURE', result: 'DECLINED', status: 'PENDING' });
      expect(res.body.decline_reason).to.be.a('string').that.is.not.empty;
      expect((await h().paymentEventTypes(transId)).slice(2)).to.deep.equal(['CaptureRequested', 'CaptureDeclined']);
      expect(await statusOf(transId)).to.equal('PENDING');
    });

    it('an unknown trans_id is 101000 Transaction does not exist.', async () => {
      const res = await h().capture(merchant, randomUUID());
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 101000, error_message: 'Transaction does not exist.' });
    });

    it("another merchant's authorization is 101000", async () => {
      const transId = await authorized();
      const other = await h().createMerchant();
      const res = await h().capture(other, transId);
      expect(res.body).to.include({ error_code: 101000, error_message: 'Transaction does not exist.' });
      expect(await h().paymentEventTypes(transId)).to.have.length(2);
    });

    it('an amount above the authorized amount is refused with field errors', async () => {
      const transId = await authorized();

      const res = await h().capture(merchant, transId, '10.51');

      expect(res.status).to.equal(400);
      expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
      expect(res.body.errors).to.be.an('array').that.is.not.empty;
      expect(res.body.errors[0].error_message).to.match(/^amount: /);
      expect(await h().paymentEventTypes(transId)).to.have.length(2);
      expect(await statusOf(transId)).to.equal('PENDING');
    });

    it('an amount with too many decimals is refused', async () => {
      const transId = await authorized();
      const res = await h().capture(merchant, transId, '1.001');
      expect(res.body).to.include({ error_code: 100000, error_message: 'Request data is invalid.' });
      expect(res.body.errors[0].error_message).to.match(/^amount: /);
    });
  });

  describe('VOID', () => {
    it('voids a SETTLED sale -> VOID', async () => {
      const transId = await settled();

      const res = await h().voidPayment(merchant, transId);

      expect(res.status).to.equal(200);
      expect(res.body).to.include({ action: 'VOID', result: 'SUCCESS', status: 'VOID', trans_id: transId });
      expect((await h().paymentEventTypes(transId)).slice(2)).to.deep.equal(['VoidRequested', 'PaymentVoided']);
      expect(await statusOf(transId)).to.equal('VOID');
    });

    it('voids a captured authorization', async () => {
      const transId = await authorized();
      await h().capture(merchant, transId);
      const res = await h().voidPayment(merchant, transId);
      expect(res.body).to.include({ result: 'SUCCESS', status: 'VOID' });
    });

    it('on a PENDING authorization is Void is not allowed.', async () => {
      const transId = await authorized();

      const res = await h().voidPayment(merchant, transId);

      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Void is not allowed.' });
      expect(await h().paymentEventTypes(transId)).to.have.length(2);
    });

    it('on a partly refunded payment is Void is not allowed.', async () => {
      const transId = await settled();
      await h().creditVoid(merchant, transId, '1.00');
      const res = await h().voidPayment(merchant, transId);
      expect(res.body).to.include({ error_code: 100000, error_message: 'Void is not allowed.' });
    });

    it('an unknown trans_id is 100000 Payment not found.', async () => {
      const res = await h().voidPayment(merchant, randomUUID());
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Payment not found.' });
    });
  });

  describe('CREDITVOID', () => {
    it('on a PENDING authorization releases the hold: ACCEPTED, then status REVERSAL', async () => {
      const transId = await authorized();

      const res = await h().creditVoid(merchant, transId, '10.50');

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ action: 'CREDITVOID', result: 'ACCEPTED', trans_id: transId, order_id: res.body.order_id });
      expect((await h().paymentEventTypes(transId)).slice(2)).to.deep.equal(['CreditVoidRequested', 'AuthorizationReversed']);
      expect(await statusOf(transId)).to.equal('REVERSAL');
    });

    it('on a SETTLED payment: a partial refund leaves SETTLED, the rest makes REFUND', async () => {
      const transId = await settled();

      const partial = await h().creditVoid(merchant, transId, '4.00');
      expect(partial.body).to.include({ action: 'CREDITVOID', result: 'ACCEPTED', trans_id: transId });
      expect(await statusOf(transId)).to.equal('SETTLED');

      const rest = await h().creditVoid(merchant, transId, '6.50');
      expect(rest.body).to.include({ result: 'ACCEPTED' });
      expect(await statusOf(transId)).to.equal('REFUND');
      expect((await h().paymentEventTypes(transId)).slice(2)).to.deep.equal([
        'CreditVoidRequested',
        'RefundSucceeded',
        'CreditVoidRequested',
        'RefundSucceeded',
      ]);
    });

    it('refuses to refund more than what remains', async () => {
      const transId = await settled();
      await h().creditVoid(merchant, transId, '10.00');

      const res = await h().creditVoid(merchant, transId, '0.51');

      expect(res.status).to.equal(400);
      expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
      expect(res.body.errors[0].error_message).to.match(/^amount: /);
      expect(await h().paymentEventTypes(transId)).to.have.length(4);
      expect(await statusOf(transId)).to.equal('SETTLED');
    });

    it('after a full refund, another CREDITVOID is Refund is not allowed', async () => {
      const transId = await settled();
      await h().creditVoid(merchant, transId, '10.50');
      const res = await h().creditVoid(merchant, transId, '0.01');
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Refund is not allowed' });
    });

    it('a merchant with refunds off gets Refund is not allowed', async () => {
      const transId = await settled();
      await h().gateway.merchants.update(merchant.merchant_id, { refundsEnabled: false });
      // Settings reach the API through the merchants read model (see the suite below for the lag).
      await h().gateway.readModels.catchUpToHead();

      const res = await h().creditVoid(merchant, transId, '1.00');

      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Refund is not allowed' });
      expect(await h().paymentEventTypes(transId)).to.have.length(2);
    });

    it('on a DECLINED payment is Refund is not allowed', async () => {
      const sale = await h().sale(merchant, { card_exp_month: '02' });
      const res = await h().creditVoid(merchant, sale.body.trans_id, '1.00');
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Refund is not allowed' });
    });

    it('an unknown trans_id is 100000 Payment not found.', async () => {
      const res = await h().creditVoid(merchant, randomUUID(), '1.00');
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Payment not found.' });
    });

    it('without amount is a validation error naming amount', async () => {
      const transId = await settled();
      const res = await h().byTransId('CREDITVOID', merchant, transId);
      expect(res.body).to.include({ error_code: 100000, error_message: 'Request data is invalid.' });
      expect(res.body.errors).to.deep.include({ error_code: 100000, error_message: 'amount: This value should not be blank.' });
    });
  });
});

/**
 * A settings change must hold for the very next request, even when the read models lag behind
 * the store (a busy projector, or one in another process). Simulated by pausing the projector.
 */
forEachStore('S2S CARD merchant settings changes', (h) => {
  it('refunds switched off apply to the next CREDITVOID even while the read models lag', async () => {
    const merchant = await h().createMerchant();
    const sale = await h().sale(merchant);
    expect(sale.body).to.include({ status: 'SETTLED' });
    await h().gateway.readModels.catchUpToHead();
    const projector = h().gateway.projector!;
    await projector.stop();
    try {
      await h().gateway.merchants.update(merchant.merchant_id, { refundsEnabled: false });

      const res = await h().creditVoid(merchant, sale.body.trans_id, '1.00');

      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Refund is not allowed' });
    } finally {
      await projector.start();
    }
  });

  it('an IP allowlist set on a merchant applies to its next request even while the read models lag', async () => {
    const merchant = await h().createMerchant();
    await h().sale(merchant);
    await h().gateway.readModels.catchUpToHead();
    const projector = h().gateway.projector!;
    await projector.stop();
    try {
      await h().gateway.merchants.update(merchant.merchant_id, { ipAllowlist: ['10.0.0.0/8'] });

      const res = await h().sale(merchant);

      expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request from this ip is not allowed.' });
    } finally {
      await projector.start();
    }
  });
});
