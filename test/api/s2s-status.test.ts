/**
 * GET_TRANS_STATUS and GET_TRANS_STATUS_BY_ORDER: read-your-writes on the read models, per-entity
 * not-found codes, validation before existence, merchants isolated from each other.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { TRANS_DATE, forEachStore, orderIdHash, transIdHash, type TestMerchant } from '../support/gateway-harness';

forEachStore('S2S CARD status lookups', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  describe('GET_TRANS_STATUS', () => {
    it('right after a SALE returns that SALE (read-your-writes)', async () => {
      const sale = await h().sale(merchant, { order_amount: '12.30', card_exp_month: '02' });

      const res = await h().status(merchant, sale.body.trans_id);

      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        action: 'GET_TRANS_STATUS',
        result: 'SUCCESS',
        status: 'DECLINED',
        trans_id: sale.body.trans_id,
        order_id: sale.fields.order_id,
        amount: '12.30',
        currency: 'USD',
        trans_date: sale.body.trans_date,
      });
      expect(res.body.trans_date).to.match(TRANS_DATE);
      expect(res.body.decline_reason).to.equal(sale.body.decline_reason);
    });

    it('shows a pending 3DS payment with its redirect data', async () => {
      const sale = await h().sale(merchant, { card_exp_month: '05' });

      const res = await h().status(merchant, sale.body.trans_id);

      expect(res.body).to.include({ status: '3DS', redirect_url: sale.body.redirect_url, redirect_method: 'POST' });
      expect(res.body.redirect_params).to.deep.equal(sale.body.redirect_params);
    });

    it('adds no events', async () => {
      const sale = await h().sale(merchant);
      const before = await h().gateway.store.headPosition();

      await h().status(merchant, sale.body.trans_id);
      await h().status(merchant, sale.body.trans_id);

      expect(await h().gateway.store.headPosition()).to.equal(before);
    });

    it('an unknown trans_id is 101000 Transaction does not exist.', async () => {
      const res = await h().status(merchant, randomUUID());
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 101000, error_message: 'Transaction does not exist.' });
    });

    it('a non-UUID trans_id is a validation error naming trans_id (before existence)', async () => {
      const res = await h().status(merchant, 'not-a-uuid');
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
      expect(res.body.errors).to.deep.include({ error_code: 100000, error_message: 'trans_id: This is not a valid UUID.' });
    });

    it("another merchant's trans_id is 101000, as if it did not exist", async () => {
      const other = await h().createMerchant();
      const sale = await h().sale(other);

      const res = await h().status(merchant, sale.body.trans_id);

      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 101000, error_message: 'Transaction does not exist.' });
    });

    it("another merchant's password does not sign a lookup", async () => {
      const sale = await h().sale(merchant);
      const other = await h().createMerchant();

      const res = await h().post({
        action: 'GET_TRANS_STATUS',
        client_key: merchant.client_key,
        trans_id: sale.body.trans_id,
        hash: transIdHash(sale.body.trans_id, other.password),
      });

      expect(res.body).to.include({ error_code: 100000, error_message: 'Hash is not valid' });
    });
  });

  describe('GET_TRANS_STATUS_BY_ORDER', () => {
    it('returns the payment of that order, as it stands now', async () => {
      const sale = await h().sale(merchant, { auth: 'Y' });
      await h().capture(merchant, sale.body.trans_id);

      const res = await h().statusByOrder(merchant, sale.fields.order_id!);

      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        action: 'GET_TRANS_STATUS_BY_ORDER',
        result: 'SUCCESS',
        status: 'SETTLED',
        trans_id: sale.body.trans_id,
        order_id: sale.fields.order_id,
      });
    });

    it('an order id with any characters is found', async () => {
      const orderId = `Ordér #1/ü & "x" ${randomUUID()}`;
      const sale = await h().sale(merchant, { order_id: orderId });
      expect(sale.body.order_id).to.equal(orderId);

      const res = await h().statusByOrder(merchant, orderId);

      expect(res.body).to.include({ trans_id: sale.body.trans_id, order_id: orderId });
    });

    it('an unknown order is 101000 Order does not exist.', async () => {
      const res = await h().statusByOrder(merchant, `missing-${randomUUID()}`);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 101000, error_message: 'Order does not exist.' });
    });

    it("another merchant's order is 101000", async () => {
      const other = await h().createMerchant();
      const sale = await h().sale(other);
      const res = await h().statusByOrder(merchant, sale.fields.order_id!);
      expect(res.body).to.include({ error_code: 101000, error_message: 'Order does not exist.' });
    });

    it('the hash is order_id + password', async () => {
      const sale = await h().sale(merchant);
      const res = await h().post({
        action: 'GET_TRANS_STATUS_BY_ORDER',
        client_key: merchant.client_key,
        order_id: sale.fields.order_id,
        hash: orderIdHash(sale.body.trans_id, merchant.password),
      });
      expect(res.body).to.include({ error_code: 100000, error_message: 'Hash is not valid' });
    });
  });
});
