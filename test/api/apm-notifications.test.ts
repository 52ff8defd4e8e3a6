/**
 * What reaches an S2S APM payment after its SALE: the provider's signed notifications on
 * `POST /notifications/{connector}` (each vocabulary, forged, duplicate, late, another connector's
 * payment), `gateway sandbox decide`'s path, the merchant's callbacks with the family's APM hash and
 * X-Signature. (Holds of a wallet brand, taken in the wallets' card flow: s2s-wallet-apm.test.ts.)
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { verifyCallbackSignature } from '../../src/domain/callback/callback-encoding';
import { apmCallbackBodyHash } from '../../src/domain/signatures';
import { apmByTransId, apmCreditVoid, apmSale, postNotification, providerNotification } from '../support/apm-client';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { forEachStore, type TestGateway, type TestMerchant } from '../support/gateway-harness';

async function callbacksOf(t: TestGateway, receiver: CallbackReceiver, transId: string): Promise<ReceivedCallback[]> {
  await t.gateway.notifier.catchUp();
  return receiver.received.filter((r) => r.fields.get('trans_id') === transId);
}

forEachStore('S2S APM: provider notifications and callbacks', (h) => {
  let receiver: CallbackReceiver;
  let merchant: TestMerchant;
  before(async () => {
    await h().gateway.notifier.start();
  });
  beforeEach(async () => {
    receiver = await new CallbackReceiver().start();
    merchant = await h().createMerchant({ notificationUrl: receiver.url });
  });
  afterEach(async () => {
    await receiver.stop();
  });

  const statusOf = async (transId: string) => (await apmByTransId(h(), 'GET_TRANS_STATUS', merchant, transId)).body.status;

  it('Given a QR payment, When the provider notifies executed (signed), Then it settles and the merchant is called back with the APM hash and X-Signature', async () => {
    const sale = await apmSale(h(), merchant, { brand: 'sb-qr', 'custom_data[basket]': '42' });
    const told = await postNotification(h(), 'sandbox-apm', providerNotification(h(), sale.body.trans_id, 'approve', { vocabulary: 'qr' }));
    expect(told.status).to.equal(200);
    expect(told.body).to.deep.equal({ result: 'OK', trans_id: sale.body.trans_id, status: 'SETTLED' });
    expect(await statusOf(sale.body.trans_id)).to.equal('SETTLED');

    const callbacks = await callbacksOf(h(), receiver, sale.body.trans_id);
    // Deliveries go out side by side: their order of arrival is not promised.
    expect(callbacks.map((c) => `${c.fields.get('result')}/${c.fields.get('status')}`)).to.have.members(['REDIRECT/PENDING', 'SUCCESS/SETTLED']);
    const settled = callbacks.find((c) => c.fields.get('result') === 'SUCCESS')!;
    const qr = callbacks.find((c) => c.fields.get('result') === 'REDIRECT')!;
    expect([...settled.fields.keys()]).to.deep.equal(['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'descriptor', 'amount', 'currency', 'custom_data[basket]', 'hash']);
    expect(settled.fields.get('descriptor')).to.equal('SANDBOX*APM');
    expect(settled.fields.get('hash')).to.equal(apmCallbackBodyHash(settled.body, merchant.password));
    const now = Math.floor(h().clock.now().getTime() / 1000);
    expect(verifyCallbackSignature(merchant.password, settled.body, String(settled.headers['x-signature']), now)).to.equal(true);
    expect(qr.fields.get('redirect_params[qr_code]')).to.be.a('string').and.not.empty;
  });

  it('Given a bank method, When the provider notifies RJCT, Then it is DECLINED; ACSC arriving late changes nothing', async () => {
    const sale = await apmSale(h(), merchant, { brand: 'sb-bank', 'parameters[bank_code]': '001', 'parameters[bank_account_number]': '9' });
    expect((await postNotification(h(), 'sandbox-apm', providerNotification(h(), sale.body.trans_id, 'decline', { vocabulary: 'bank' }))).status).to.equal(200);
    const before = await h().paymentEventTypes(sale.body.trans_id);
    const late = await postNotification(h(), 'sandbox-apm', providerNotification(h(), sale.body.trans_id, 'approve', { vocabulary: 'bank' }));
    expect(late.body).to.deep.equal({ result: 'OK', trans_id: sale.body.trans_id, status: 'DECLINED' });
    expect(await h().paymentEventTypes(sale.body.trans_id)).to.deep.equal(before);
    expect(before).to.deep.equal(['PaymentInitiated', 'PayerRedirectRequired', 'PaymentDeclined']);
  });

  it('Given a settled payment, When the same notification comes again, Then nothing is recorded and nobody is called back twice', async () => {
    const sale = await apmSale(h(), merchant, { brand: 'sb-app' });
    const approve = providerNotification(h(), sale.body.trans_id, 'approve');
    await postNotification(h(), 'sandbox-apm', approve);
    await postNotification(h(), 'sandbox-apm', approve);
    expect(await h().paymentEventTypes(sale.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentPending', 'PaymentSettled']);
    const callbacks = await callbacksOf(h(), receiver, sale.body.trans_id);
    expect(callbacks.map((c) => c.fields.get('result'))).to.have.members(['INIT', 'SUCCESS']);
  });

  it('Given a notification not signed by the provider (forged, altered, unsigned), Then 401 and the payment stays as it was', async () => {
    const sale = await apmSale(h(), merchant, { brand: 'sb-app' });
    const forged = providerNotification(h(), sale.body.trans_id, 'approve', { secret: randomBytes(32) });
    const refused = await postNotification(h(), 'sandbox-apm', forged);
    expect(refused.status).to.equal(401);
    expect(refused.body).to.deep.equal({ result: 'ERROR', error_code: 401, error_message: 'Notification is not valid.' });
    const genuine = providerNotification(h(), sale.body.trans_id, 'approve');
    const altered = { ...genuine, body: genuine.body.replace('approved', 'declined') };
    expect((await postNotification(h(), 'sandbox-apm', altered)).status).to.equal(401);
    expect((await postNotification(h(), 'sandbox-apm', { body: genuine.body, headers: { 'content-type': 'application/json' } })).status).to.equal(401);
    expect(await statusOf(sale.body.trans_id)).to.equal('PENDING');
  });

  it('Given a connector this deployment does not have, Then 404; a card payment named in a sandbox-apm notification is not touched', async () => {
    expect((await postNotification(h(), 'acme', { body: '{}', headers: {} })).status).to.equal(404);
    const card = (await h().sale(merchant, { card_exp_month: '12', card_exp_year: '2038' })).body.trans_id as string;
    const told = await postNotification(h(), 'sandbox-apm', providerNotification(h(), card, 'approve'));
    expect(told.body).to.deep.equal({ result: 'OK' });
    expect((await h().status(merchant, card)).body.status).to.equal('REDIRECT');
  });

  it('Given a payment on the provider page, When gateway sandbox decide approves it, Then it settles through the same signed path', async () => {
    const sale = await apmSale(h(), merchant, { brand: 'sb-details' });
    const provider = h().gateway.sandboxApm!;
    const found = await provider.find(sale.body.trans_id);
    const result = await provider.decide(found!, 'approve', 'test');
    expect(result).to.include({ kind: 'recorded', changed: true });
    expect(await statusOf(sale.body.trans_id)).to.equal('SETTLED');
  });

  it('Given refunds and a void, Then CREDITVOID callbacks carry creditvoid_date and status SETTLED then REFUND, VOID callbacks status VOID', async () => {
    const refunded = (await apmSale(h(), merchant, { payer_email: 'success@gmail.com' })).body.trans_id as string;
    await apmCreditVoid(h(), merchant, refunded, '3.00');
    await apmCreditVoid(h(), merchant, refunded);
    const refunds = (await callbacksOf(h(), receiver, refunded)).filter((c) => c.fields.get('action') === 'CREDITVOID');
    expect(refunds.map((c) => [c.fields.get('status'), c.fields.get('amount')])).to.have.deep.members([
      ['SETTLED', '3.00'],
      ['REFUND', '7.00'],
    ]);
    for (const c of refunds) expect(c.fields.get('creditvoid_date')).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const voided = (await apmSale(h(), merchant, { payer_email: 'success@gmail.com' })).body.trans_id as string;
    await apmByTransId(h(), 'VOID', merchant, voided);
    const [voidCallback] = (await callbacksOf(h(), receiver, voided)).filter((c) => c.fields.get('action') === 'VOID');
    expect(voidCallback.fields.get('status')).to.equal('VOID');
    expect(voidCallback.fields.get('hash')).to.equal(apmCallbackBodyHash(voidCallback.body, merchant.password));
  });
});

forEachStore(
  'S2S APM: notifications and the limits on failed authentication',
  (h) => {
    it('Given forged notifications from one address, Then after the limit it is refused with 429 before its signature is looked at', async () => {
      const merchant = await h().createMerchant();
      const sale = await apmSale(h(), merchant, { brand: 'sb-app' });
      const forged = providerNotification(h(), sale.body.trans_id, 'approve', { secret: randomBytes(32) });
      expect((await postNotification(h(), 'sandbox-apm', forged)).status).to.equal(401);
      expect((await postNotification(h(), 'sandbox-apm', forged)).status).to.equal(401);
      const locked = await postNotification(h(), 'sandbox-apm', providerNotification(h(), sale.body.trans_id, 'approve'));
      expect(locked.status).to.equal(429);
      expect(locked.headers.get('retry-after')).to.match(/^\d+$/);
      expect((await apmByTransId(h(), 'GET_TRANS_STATUS', merchant, sale.body.trans_id)).body.status).to.equal('PENDING');
    });
  },
  { env: { AUTH_FAILURE_IP_LIMIT: '2' } },
);
