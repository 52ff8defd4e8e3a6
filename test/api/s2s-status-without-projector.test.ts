/**
 * Given read models that cannot catch up (a projector stopped, or one that never reaches the head),
 * when a merchant asks for a payment it just made by its id, then the answer comes from the
 * payment's stream at once: a status lookup by id waits for no read model and never loses a payment.
 * A lookup by order still needs the read model that finds the order.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { checkoutPayment } from '../support/checkout-payments';
import { operationHash, postJson } from '../support/checkout-client';
import { requirePostgres } from '../support/postgres';
import { startTestGateway, STORE_KINDS, type TestGateway } from '../support/gateway-harness';

for (const kind of STORE_KINDS) {
  describe(`status lookups by id while the read models are behind [${kind}]`, function () {
    if (kind === 'postgres') requirePostgres(this);
    this.timeout(20_000);
    let g: TestGateway;
    beforeEach(async () => {
      g = await startTestGateway({ kind });
    });
    afterEach(async () => {
      sinon.restore();
      await g?.stop();
    });

    /** The read models never reach the head: whoever waits for them waits until its test times out. */
    const readModelsNeverCatchUp = (): sinon.SinonStub => sinon.stub(g.gateway.readModels, 'catchUpToHead').returns(new Promise(() => undefined));

    it('GET_TRANS_STATUS answers from the payment stream without waiting, and only to the merchant that made the payment', async () => {
      const merchant = await g.createMerchant();
      const other = await g.createMerchant();
      await g.gateway.readModels.catchUpToHead();
      await g.gateway.projector!.stop();

      const sale = await g.sale(merchant);
      expect(sale.body.status).to.equal('SETTLED');
      const waited = readModelsNeverCatchUp();
      const status = await g.status(merchant, sale.body.trans_id);
      expect(status.body).to.include({ result: 'SUCCESS', status: 'SETTLED', trans_id: sale.body.trans_id });

      const foreign = await g.status(other, sale.body.trans_id);
      expect(foreign.body).to.include({ error_code: 101000, error_message: 'Transaction does not exist.' });
      expect(waited.called).to.equal(false);
    });

    it('Checkout status by payment_id answers from the payment stream without waiting', async () => {
      const merchant = await g.createMerchant();
      const { payment } = await checkoutPayment(g, merchant);
      const waited = readModelsNeverCatchUp();

      const hash = operationHash([payment.paymentId], merchant.password);
      const res = await postJson(g, '/api/v1/payment/status', { merchant_key: merchant.merchant_key, payment_id: payment.paymentId, hash });

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ payment_id: payment.paymentId, status: 'settled' });
      expect(waited.called).to.equal(false);
    });
  });
}
