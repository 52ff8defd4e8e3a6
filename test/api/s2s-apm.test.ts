/**
 * S2S APM on `/post` (docs/reference/s2s-apm.md#sale): a SALE with a non-empty `brand` pays with that
 * sandbox method; every answer shape (settled, declined, provider page, QR code, INIT with a crypto
 * address), every refusal with its exact code and message, the provider page's decision, and the
 * follow-ups checked with the hash formula of the protocol that made the payment.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { apmSaleHash, apmTransIdHash, transIdHash } from '../../src/domain/signatures';
import { expireAbandonedPayerActions } from '../../src/workers/payer-action-expiry';
import { RETURN_URL, apmByTransId, apmCreditVoid, apmSale, apmSaleFields, decideOnPage } from '../support/apm-client';
import { forEachStore, TRANS_DATE, UUID_RE, type TestClock, type TestMerchant } from '../support/gateway-harness';

forEachStore('S2S APM', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  const status = async (transId: string) => (await apmByTransId(h(), 'GET_TRANS_STATUS', merchant, transId)).body;

  describe('SALE answers', () => {
    it('Given payer email success@gmail.com, When a SALE is sent, Then SUCCESS/SETTLED with exactly the answer fields', async () => {
      const res = await apmSale(h(), merchant, { payer_email: 'success@gmail.com' });
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency']);
      expect(res.body).to.include({ action: 'SALE', result: 'SUCCESS', status: 'SETTLED', amount: '10.00', currency: 'USD' });
      expect(res.body.trans_id).to.match(UUID_RE);
      expect(res.body.trans_date).to.match(TRANS_DATE);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
      const [initiated] = await h().paymentEvents(res.body.trans_id);
      expect(initiated.data).to.include({ channel: 's2s_apm', connector: 'sandbox-apm' });
      expect(initiated.data).not.to.have.property('card');
      expect(initiated.data.method).to.deep.equal({ brand: 'sb-redirect', parameters: {}, identifier: 'payer-42', returnUrl: RETURN_URL });
    });

    it('Given no payer email, When the identifier is fail@gmail.com, Then DECLINED/DECLINED with a decline_reason', async () => {
      const res = await apmSale(h(), merchant, { identifier: 'fail@gmail.com' });
      expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Declined by the payment provider' });
    });

    it('Given a redirect brand, Then REDIRECT/REDIRECT with the provider page by GET and redirect_params []; Approve there settles it and sends the payer to return_url', async () => {
      const res = await apmSale(h(), merchant, { brand: 'vcard' });
      expect(res.body).to.include({ result: 'REDIRECT', status: 'REDIRECT', redirect_method: 'GET' });
      expect(res.body.redirect_params).to.deep.equal([]);
      expect(res.body.redirect_url).to.match(new RegExp(`/sandbox/provider/${res.body.trans_id}\\?return=`));
      const page = await h().request(res.body.redirect_url);
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('Approve').and.contain('Decline');

      const decided = await h().postForm(res.body.redirect_url, { decision: 'approve' });
      expect(decided.status).to.equal(303);
      const back = await h().request(decided.headers.get('location')!);
      expect(back.status).to.equal(303);
      expect(back.headers.get('location')).to.equal(RETURN_URL);
      expect(await status(res.body.trans_id)).to.include({ status: 'SETTLED' });
    });

    it('Given the provider page, When the payer declines there, Then the payment is DECLINED; a second decision changes nothing', async () => {
      const res = await apmSale(h(), merchant);
      expect((await decideOnPage(h(), res.body.trans_id, { decision: 'decline' })).status).to.equal(303);
      expect(await status(res.body.trans_id)).to.deep.equal({
        action: 'GET_TRANS_STATUS',
        result: 'SUCCESS',
        status: 'DECLINED',
        order_id: res.body.order_id,
        trans_id: res.body.trans_id,
        decline_reason: 'Declined by the payment provider',
      });
      await decideOnPage(h(), res.body.trans_id, { decision: 'approve' });
      expect((await status(res.body.trans_id)).status).to.equal('DECLINED');
      const page = await h().request(`/sandbox/provider/${res.body.trans_id}`);
      expect(page.text).to.contain('already decided');
    });

    it('Given sb-qr, Then REDIRECT/PENDING with qr_code (Base64 of an EMVCo payload) and a page drawing it; unpaid for 60 s it is DECLINED: QR code expired', async () => {
      const res = await apmSale(h(), merchant, { brand: 'sb-qr' });
      expect(res.body).to.include({ result: 'REDIRECT', status: 'PENDING', redirect_method: 'GET' });
      const payload = Buffer.from(res.body.redirect_params.qr_code, 'base64').toString('utf8');
      expect(payload).to.match(/^000201010212.*5303840540510\.00.*6304[0-9A-F]{4}$/);
      const page = await h().request(res.body.redirect_url);
      expect(page.text).to.contain('<svg');

      const run = () =>
        expireAbandonedPayerActions({ candidates: h().gateway.readModels, payments: h().gateway.payments, clock: h().clock, logger: h().gateway.logger, timeoutMinutes: 15 });
      await h().gateway.readModels.catchUpToHead();
      await run();
      expect((await status(res.body.trans_id)).status, 'still within its minute').to.equal('PENDING');
      (h().clock as TestClock).advance(61_000);
      await run();
      expect(await status(res.body.trans_id)).to.include({ status: 'DECLINED', decline_reason: 'QR code expired' });
    });

    it('Given an app-confirmation brand, Then INIT/PENDING; a crypto deposit adds crypto_address and crypto_network', async () => {
      const app = await apmSale(h(), merchant, { brand: 'sb-app' });
      expect(app.body).to.include({ result: 'INIT', status: 'PENDING' });
      expect(app.body).not.to.have.property('crypto_address');
      const crypto = await apmSale(h(), merchant, { brand: 'sb-crypto', 'parameters[crypto_type]': 'USDT', 'parameters[network_type]': 'tron' });
      expect(crypto.body).to.include({ result: 'INIT', status: 'PENDING', crypto_network: 'tron' });
      expect(crypto.body.crypto_address).to.match(/^T/);
      expect((await status(crypto.body.trans_id)).status).to.equal('PENDING');
    });

    it('Given a payer who never confirms with the provider, When the payer-action timeout passes, Then the payment is DECLINED', async () => {
      const res = await apmSale(h(), merchant, { brand: 'sb-app' });
      await h().gateway.readModels.catchUpToHead();
      (h().clock as TestClock).advance(16 * 60_000);
      await expireAbandonedPayerActions({ candidates: h().gateway.readModels, payments: h().gateway.payments, clock: h().clock, logger: h().gateway.logger, timeoutMinutes: 15 });
      expect(await status(res.body.trans_id)).to.include({ status: 'DECLINED', decline_reason: 'The payer did not confirm the payment in time' });
    });

    it('Given sb-otp, When the payer approves with the code 123456, Then it settles; a wrong code decides nothing', async () => {
      const res = await apmSale(h(), merchant, { brand: 'sb-otp', payer_phone: '+441234567890' });
      const page = await h().request(res.body.redirect_url);
      expect(page.text).to.contain('123456');
      const wrong = await decideOnPage(h(), res.body.trans_id, { decision: 'approve', otp: '000000' });
      expect(wrong.status).to.equal(400);
      expect(wrong.text).to.contain('The one-time code is not correct.');
      expect((await status(res.body.trans_id)).status).to.equal('REDIRECT');
      expect((await decideOnPage(h(), res.body.trans_id, { decision: 'approve', otp: '123456' })).status).to.equal(303);
      expect((await status(res.body.trans_id)).status).to.equal('SETTLED');
    });

    it('Given sb-otp without any phone, Then the page asks for the phone beside the code', async () => {
      const res = await apmSale(h(), merchant, { brand: 'sb-otp' });
      expect((await h().request(res.body.redirect_url)).text).to.contain('name="phone"');
      const noPhone = await decideOnPage(h(), res.body.trans_id, { decision: 'approve', otp: '123456' });
      expect(noPhone.status).to.equal(400);
      expect(noPhone.text).to.contain('Enter the Phone number.');
      expect((await decideOnPage(h(), res.body.trans_id, { decision: 'approve', otp: '123456', phone: '+441234567890' })).status).to.equal(303);
    });

    it('Given a field collected from the payer when absent, Then the page asks for it before Approve counts', async () => {
      const res = await apmSale(h(), merchant, { brand: 'sb-member' });
      const page = await h().request(res.body.redirect_url);
      expect(page.text).to.contain('name="memberId"');
      expect((await decideOnPage(h(), res.body.trans_id, { decision: 'approve' })).status).to.equal(400);
      expect((await decideOnPage(h(), res.body.trans_id, { decision: 'approve', memberId: 'M-77' })).status).to.equal(303);
      expect((await status(res.body.trans_id)).status).to.equal('SETTLED');
    });

    it('Given each catalogue brand with its parameters, Then the SALE is taken', async () => {
      const cases: Record<string, Record<string, string>> = {
        'sb-details': {},
        'sb-bank': { 'parameters[bank_code]': '001', 'parameters[bank_account_number]': '1234567890' },
        'sb-document': { 'parameters[document_number]': '12345678', 'parameters[document_type]': 'passport' },
        'sb-installment': { 'parameters[product_reference_id]': 'p-1', 'parameters[product_name]': 'Sofa', 'parameters[product_quantity]': '1' },
        'sb-identity': { payer_country: 'IN', 'parameters[personal_id]': 'ABCDE1234F' },
        'sb-upi': { 'parameters[upi_id]': 'ada@okbank' },
        'sb-trading-deposit': { 'parameters[paymentGatewayName]': 'gw', 'parameters[paymentCurrency]': 'USD' },
        'sb-trading-withdrawal': { 'parameters[withdrawCurrency]': 'USDT', 'parameters[address]': 'addr-1' },
        'sb-crypto-convert': { 'parameters[toCurrency]': 'EUR' },
        'sb-crypto-buy': { 'parameters[cryptoCurrency]': 'BTC' },
        'sb-country-id': { payer_country: 'AR', 'parameters[bank_cuil]': '20-12345678-3' },
        'sb-bank-pull': {
          'parameters[amount]': '10.00',
          'parameters[expiryDate]': '2030-01-01T00:00:00Z',
          'parameters[callbackUrl]': 'https://merchant.example/pull',
          'parameters[reference]': 'r-1',
          'parameters[merchantType]': 'retail',
          'parameters[merchantName]': 'Shop',
          'parameters[accountId]': 'acc',
          'parameters[market]': 'AR',
          'parameters[type]': 'PULL',
          'parameters[currency]': 'ARS',
          'parameters[bankDetails][cbu]': '0170099220000067797370',
          'parameters[bankDetails][alias]': 'shop.alias',
        },
      };
      for (const [brand, extra] of Object.entries(cases)) {
        const res = await apmSale(h(), merchant, { brand, ...extra });
        expect(res.status, `${brand}: ${res.text}`).to.equal(200);
        expect(['REDIRECT', 'INIT'], brand).to.include(res.body.result);
      }
    });

    it('Given a zero-exponent currency, Then the amount is answered as sent, without decimals', async () => {
      const res = await apmSale(h(), merchant, { order_currency: 'JPY', order_amount: '1500', payer_email: 'success@gmail.com' });
      expect(res.body).to.include({ result: 'SUCCESS', amount: '1500', currency: 'JPY' });
    });
  });

  describe('SALE refusals', () => {
    it('Given an unknown brand of at most 36 characters, Then 204011 Payment system/brand not found.', async () => {
      const res = await apmSale(h(), merchant, { brand: 'sb-nothing-like-this' });
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 204011, error_message: 'Payment system/brand not found.' });
    });

    it('Given a brand longer than 36 characters, Then a field error', async () => {
      const res = await apmSale(h(), merchant, { brand: 'x'.repeat(37) });
      expect(res.body.error_code).to.equal(100000);
      expect(res.body.errors).to.deep.include({ error_code: 100000, error_message: 'brand: This value is too long. It should have 36 characters or less.' });
    });

    it('Given a brand the merchant has not enabled, or none of its connectors takes, Then 204006 Payment system/brand not supported.', async () => {
      const refused = { result: 'ERROR', error_code: 204006, error_message: 'Payment system/brand not supported.' };
      const none = await h().createMerchant({ methods: [] });
      expect((await apmSale(h(), none)).body).to.deep.equal(refused);
      const some = await h().createMerchant({ methods: ['sb-qr'] });
      expect((await apmSale(h(), some)).body).to.deep.equal(refused);
      expect((await apmSale(h(), some, { brand: 'sb-qr' })).body.result).to.equal('REDIRECT');
      const cardsOnly = await h().createMerchant({ connectors: ['sandbox'] });
      expect((await apmSale(h(), cardsOnly)).body).to.deep.equal(refused);
      await h().gateway.merchants.update(cardsOnly.merchant_id, { connectors: ['sandbox', 'sandbox-apm'] });
      expect((await apmSale(h(), cardsOnly)).body.result).to.equal('REDIRECT');
    });

    it('Given a payout method (sb-momo, sb-payout-email) as a SALE brand, Then 204005 Payment action not supported and nothing is charged', async () => {
      for (const brand of ['sb-momo', 'sb-payout-email']) {
        const res = await apmSale(h(), merchant, { brand, order_currency: 'GHS' });
        expect(res.body, brand).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
      }
    });

    it('Given a zero amount, Then 100000 amount: This value should be greater than 0., as a card or Checkout sale answers, and nothing is charged', async () => {
      for (const order_amount of ['0', '0.00']) {
        const res = await apmSale(h(), merchant, { order_amount });
        expect(res.status, order_amount).to.equal(400);
        expect(res.body, order_amount).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'amount: This value should be greater than 0.' });
      }
    });

    it('Given auth=Y on a brand that is not a wallet, Then 204005 Payment action not supported', async () => {
      const res = await apmSale(h(), merchant, { auth: 'Y' });
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
    });

    it('Given a missing required field, or parameters the method does not take, Then field errors with parameters[<name>] names', async () => {
      const missing = await apmSale(h(), merchant, { identifier: undefined, return_url: undefined });
      expect(missing.body.errors).to.deep.include.members([
        { error_code: 100000, error_message: 'identifier: This value should not be blank.' },
        { error_code: 100000, error_message: 'return_url: This value should not be blank.' },
      ]);
      const params = await apmSale(h(), merchant, { brand: 'sb-crypto', 'parameters[network_type]': 'tron', 'parameters[colour]': 'blue' });
      expect(params.body).to.deep.equal({
        result: 'ERROR',
        error_code: 100000,
        error_message: 'Request data is invalid.',
        errors: [
          { error_code: 100000, error_message: 'parameters[colour]: This field was not expected.' },
          { error_code: 100000, error_message: 'parameters[network_type]: This value is only allowed when crypto_type is USDT.' },
          { error_code: 100000, error_message: 'parameters[crypto_type]: This value should not be blank.' },
        ],
      });
    });

    it('Given a wrong hash (the card formula, or the right one with another password), Then 100000 Hash is not valid', async () => {
      const card = await apmSale(h(), merchant, { hash: transIdHash('x', merchant.password) });
      expect(card.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Hash is not valid' });
      const fields = apmSaleFields(merchant);
      const other = apmSaleHash({ identifier: fields.identifier!, orderId: fields.order_id!, orderAmount: fields.order_amount!, orderCurrency: 'USD', password: 'another' });
      expect((await apmSale(h(), merchant, { ...fields, hash: other })).body.error_message).to.equal('Hash is not valid');
    });

    it('Given an order id used before, Then a repeat within 15 s gets the original answer and a later one order_id: Duplicate payment.', async () => {
      const orderId = `apm-dup-${randomUUID()}`;
      const first = await apmSale(h(), merchant, { order_id: orderId, payer_email: 'success@gmail.com' });
      const repeat = await apmSale(h(), merchant, { order_id: orderId, payer_email: 'success@gmail.com' });
      expect(repeat.body).to.deep.equal(first.body);
      (h().clock as TestClock).advance(16_000);
      const late = await apmSale(h(), merchant, { order_id: orderId, payer_email: 'success@gmail.com' });
      expect(late.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'order_id: Duplicate payment.' });
    });

    // CREDIT2VIRTUAL (payouts) is taken now: test/api/s2s-payouts.test.ts.
  });

  describe('follow-ups by trans_id', () => {
    const settledSale = async () => (await apmSale(h(), merchant, { payer_email: 'success@gmail.com' })).body.trans_id as string;

    it('Given an APM payment, Then GET_TRANS_STATUS takes the APM formula and refuses the card one; a card payment the reverse', async () => {
      const apm = await settledSale();
      expect(await status(apm)).to.deep.equal({ action: 'GET_TRANS_STATUS', result: 'SUCCESS', status: 'SETTLED', order_id: (await status(apm)).order_id, trans_id: apm });
      expect((await h().status(merchant, apm)).body.error_message).to.equal('Hash is not valid');
      const card = (await h().sale(merchant)).body.trans_id as string;
      expect((await h().status(merchant, card)).body).to.include({ result: 'SUCCESS', status: 'SETTLED', currency: 'USD' });
      expect((await apmByTransId(h(), 'GET_TRANS_STATUS', merchant, card)).body.error_message).to.equal('Hash is not valid');
    });

    it('Given an APM payment, Then GET_TRANS_STATUS_BY_ORDER answers in the shape of its GET_TRANS_STATUS, but for the action', async () => {
      const mapped = await h().createMerchant({ protocolMapping: { fields: ['brand', 'payer_ip'] } });
      for (const payer_email of ['success@gmail.com', 'fail@gmail.com']) {
        const sale = await apmSale(h(), mapped, { payer_email });
        const byTransId = (await apmByTransId(h(), 'GET_TRANS_STATUS', mapped, sale.body.trans_id)).body;
        const byOrder = (await h().statusByOrder(mapped, sale.body.order_id)).body;
        expect(byOrder, payer_email).to.deep.equal({ ...byTransId, action: 'GET_TRANS_STATUS_BY_ORDER' });
        expect(Object.keys(byOrder), payer_email).to.deep.equal(Object.keys(byTransId));
      }
    });

    it('Given Protocol Mapping fields switched on, Then the APM status lookup adds them: brand is the method, no card', async () => {
      const mapped = await h().createMerchant({ protocolMapping: { fields: ['brand', 'card', 'payer_ip'] } });
      const transId = (await apmSale(h(), mapped, { payer_email: 'success@gmail.com' })).body.trans_id as string;
      const body = (await apmByTransId(h(), 'GET_TRANS_STATUS', mapped, transId)).body;
      expect(body).to.include({ brand: 'sb-redirect', payer_ip: '198.51.100.7' });
      expect(body).not.to.have.property('card');
    });

    it('Given an unknown trans_id, Then either formula is answered with the entity\'s not-found code', async () => {
      const unknown = randomUUID();
      expect((await apmByTransId(h(), 'GET_TRANS_STATUS', merchant, unknown)).body).to.deep.equal({ result: 'ERROR', error_code: 101000, error_message: 'Transaction does not exist.' });
      expect((await apmByTransId(h(), 'CAPTURE', merchant, unknown)).body).to.deep.equal({ result: 'ERROR', error_code: 101000, error_message: 'Transaction does not exist.' });
      expect((await apmByTransId(h(), 'VOID', merchant, unknown)).body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Payment not found.' });
      expect((await apmCreditVoid(h(), merchant, unknown)).body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Payment not found.' });
      expect((await h().status(merchant, unknown)).body.error_code).to.equal(101000);
      const wrong = await h().post({ action: 'GET_TRANS_STATUS', client_key: merchant.client_key, trans_id: unknown, hash: apmTransIdHash(unknown, 'nope') });
      expect(wrong.body.error_message).to.equal('Hash is not valid');
    });

    it('Given a settled APM sale, Then CAPTURE is 208003, VOID that day voids it (status VOID)', async () => {
      const transId = await settledSale();
      expect((await apmByTransId(h(), 'CAPTURE', merchant, transId)).body).to.deep.equal({
        result: 'ERROR',
        error_code: 208003,
        error_message: 'Not acceptable to request the capture for payment not in pending status',
      });
      const voided = await apmByTransId(h(), 'VOID', merchant, transId);
      expect(voided.body).to.include({ action: 'VOID', result: 'SUCCESS', status: 'VOID', trans_id: transId });
      expect((await status(transId)).status).to.equal('VOID');
    });

    it('Given a settled APM sale, When VOID comes the next day (UTC), Then Void is not allowed.', async () => {
      const transId = await settledSale();
      (h().clock as TestClock).advance(24 * 3_600_000);
      expect((await apmByTransId(h(), 'VOID', merchant, transId)).body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Void is not allowed.' });
    });

    it('Given a settled APM sale, Then CREDITVOID (its own formula) refunds part, then without amount all that remains: SETTLED, then REFUND', async () => {
      const transId = await settledSale();
      const part = await apmCreditVoid(h(), merchant, transId, '4.00');
      expect(part.body).to.deep.equal({ action: 'CREDITVOID', result: 'ACCEPTED', order_id: part.body.order_id, trans_id: transId });
      expect((await status(transId)).status).to.equal('SETTLED');
      expect((await apmCreditVoid(h(), merchant, transId)).body.result).to.equal('ACCEPTED');
      expect((await status(transId)).status).to.equal('REFUND');
      expect((await apmByTransId(h(), 'CREDITVOID', merchant, transId, { amount: '1.00' })).body.error_message, 'the CAPTURE formula is not CREDITVOID\'s').to.equal('Hash is not valid');
    });

    it('Given a card payment, Then CREDITVOID without amount is still a field error, before the hash', async () => {
      const card = (await h().sale(merchant)).body.trans_id as string;
      const res = await h().post({ action: 'CREDITVOID', client_key: merchant.client_key, trans_id: card, hash: 'f'.repeat(40) });
      expect(res.body.errors).to.deep.equal([{ error_code: 100000, error_message: 'amount: This value should not be blank.' }]);
    });
  });
});
