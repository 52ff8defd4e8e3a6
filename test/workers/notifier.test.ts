/**
 * Merchant callbacks end to end, with a real HTTP receiver on loopback playing the merchant. Given a
 * payment whose state changes, when the notifier runs, then the merchant receives a signed callback,
 * and every attempt is recorded on the delivery's stream. Time between retries is moved with the
 * test clock (the notifier is told to look for due work), never waited out.
 */
import { expect } from 'chai';
import { allProjectionNames } from '../../projections';
import { callbackStreamId } from '../../src/domain/callback-delivery/events';
import { verifyCallbackSignature } from '../../src/domain/callback/callback-encoding';
import { s2sCardPaymentHash } from '../../src/domain/signatures';
import { CallbackReceiver } from '../support/callback-receiver';
import { forEachStore, TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const MINUTE = 60_000;

async function settle(g: TestGateway): Promise<void> {
  await g.gateway.notifier.catchUp();
  await g.gateway.readModels.catchUpToHead(5000, allProjectionNames());
}

async function deliveryEvents(g: TestGateway, deliveryId: string) {
  return g.gateway.store.readStream(callbackStreamId(deliveryId));
}

async function newMerchantWithReceiver(g: TestGateway, receivers: CallbackReceiver[]): Promise<{ merchant: TestMerchant; receiver: CallbackReceiver }> {
  const receiver = await new CallbackReceiver().start();
  receivers.push(receiver);
  const merchant = await g.createMerchant({ notificationUrl: receiver.url });
  return { merchant, receiver };
}

forEachStore(
  'notifier: merchant callbacks',
  (h) => {
    const receivers: CallbackReceiver[] = [];
    before(async () => {
      await h().gateway.notifier.start();
    });
    afterEach(async () => {
      for (const r of receivers.splice(0)) await r.stop();
    });
    const clock = () => h().clock as TestClock;

    it('delivers a signed callback the merchant can verify, and records scheduled, attempted and delivered', async () => {
      const g = h();
      const { merchant, receiver } = await newMerchantWithReceiver(g, receivers);
      const sale = await g.sale(merchant, { payer_email: 'doe@example.com' });
      expect(sale.body.status).to.equal('SETTLED');
      await settle(g);

      const got = receiver.ofTransaction(sale.body.trans_id);
      expect(got).to.have.length(1);
      const callback = got[0];
      expect(callback.headers['content-type']).to.equal('application/x-www-form-urlencoded');
      expect(callback.fields.get('action')).to.equal('SALE');
      expect(callback.fields.get('result')).to.equal('SUCCESS');
      expect(callback.fields.get('status')).to.equal('SETTLED');
      expect(callback.fields.get('order_id')).to.equal(sale.fields.order_id);
      expect(callback.fields.get('card')).to.equal('411111******1111');
      expect(callback.body).to.not.contain('4111111111111111');

      // What a merchant does on receipt: check the header over the raw body, then the body's hash.
      const now = Math.floor(g.clock.now().getTime() / 1000);
      expect(verifyCallbackSignature(merchant.password, callback.body, String(callback.headers['x-signature']), now)).to.equal(true);
      expect(verifyCallbackSignature('not-the-password', callback.body, String(callback.headers['x-signature']), now)).to.equal(false);
      expect(verifyCallbackSignature(merchant.password, `${callback.body}&amount=1`, String(callback.headers['x-signature']), now)).to.equal(false);
      const expectedHash = s2sCardPaymentHash({
        payerEmail: 'doe@example.com',
        password: merchant.password,
        transId: sale.body.trans_id,
        cardMask: '411111******1111',
      });
      expect(callback.fields.get('hash')).to.equal(expectedHash);

      const events = await deliveryEvents(g, callback.deliveryId);
      expect(events.map((e) => e.type)).to.deep.equal(['CallbackScheduled', 'CallbackAttemptStarted', 'CallbackDelivered']);
      expect(events[0].data.body).to.equal(callback.body);
      expect(events[0].data.url).to.equal(receiver.url);
      expect(events[0].metadata.causationId).to.be.a('string');
      expect(events[2].data.statusCode).to.equal(200);
      expect(events[2].data.latencyMs).to.be.a('number');
    });

    it('uses the notification_url of the request before the merchant default, and sends nothing when neither exists', async () => {
      const g = h();
      const { merchant, receiver } = await newMerchantWithReceiver(g, receivers);
      const other = await new CallbackReceiver().start();
      receivers.push(other);
      const sale = await g.sale(merchant, { notification_url: other.url });
      const silent = await g.createMerchant();
      const unnotified = await g.sale(silent);
      await settle(g);
      expect(other.ofTransaction(sale.body.trans_id)).to.have.length(1);
      expect(receiver.ofTransaction(sale.body.trans_id)).to.have.length(0);
      expect(await g.gateway.callbackQueries.list({ paymentId: unnotified.body.trans_id })).to.have.length(0);
    });

    it('retries after a 500 on the schedule, with the same body and delivery id, until a 2xx', async () => {
      // 55 s must stay short of the minute however slow the machine: the gateway's clock stands
      // still while the test runs and moves only as far as the test advances it.
      clock().freeze();
      try {
        const g = h();
        const { merchant, receiver } = await newMerchantWithReceiver(g, receivers);
        receiver.script.push(500);
        const sale = await g.sale(merchant);
        await settle(g);
        const [first] = receiver.ofTransaction(sale.body.trans_id);
        expect(first.answeredWith).to.equal(500);

        // Not due before one minute has passed.
        clock().advance(MINUTE - 5_000);
        await g.gateway.notifier.runDue();
        await settle(g);
        expect(receiver.ofTransaction(sale.body.trans_id)).to.have.length(1);

        clock().advance(5_000);
        await g.gateway.notifier.runDue();
        await settle(g);
        const got = receiver.ofTransaction(sale.body.trans_id);
        expect(got).to.have.length(2);
        expect(got[1].deliveryId).to.equal(first.deliveryId);
        expect(got[1].body).to.equal(first.body);
        expect(got[1].headers['x-delivery-attempt']).to.equal('2');

        const types = (await deliveryEvents(g, first.deliveryId)).map((e) => e.type);
        expect(types).to.deep.equal(['CallbackScheduled', 'CallbackAttemptStarted', 'CallbackAttemptFailed', 'CallbackAttemptStarted', 'CallbackDelivered']);
        const [row] = await g.gateway.callbackQueries.list({ paymentId: sale.body.trans_id });
        expect(row).to.include({ status: 'delivered', attempts: 2, last_status_code: 200 });

        // Delivered: never sent again on its own.
        clock().advance(30 * 60 * MINUTE);
        await g.gateway.notifier.runDue();
        await settle(g);
        expect(receiver.ofTransaction(sale.body.trans_id)).to.have.length(2);
      } finally {
        clock().resume();
      }
    });

    it('records a timeout as a failed attempt and retries it', async () => {
      const g = h();
      const { merchant, receiver } = await newMerchantWithReceiver(g, receivers);
      receiver.script.push('hang');
      const sale = await g.sale(merchant);
      await settle(g);
      const [first] = receiver.ofTransaction(sale.body.trans_id);
      const failed = (await deliveryEvents(g, first.deliveryId)).find((e) => e.type === 'CallbackAttemptFailed')!;
      expect(failed.data).to.include({ timedOut: true, statusCode: null });
      expect(String(failed.data.error)).to.match(/no answer within 300 ms/);

      clock().advance(MINUTE);
      await g.gateway.notifier.runDue();
      await settle(g);
      expect(receiver.ofTransaction(sale.body.trans_id).map((r) => r.answeredWith)).to.deep.equal(['hang', 200]);
    });

    it('records a refused connection, and delivers once the receiver is back after being down a while', async () => {
      const g = h();
      const { merchant, receiver } = await newMerchantWithReceiver(g, receivers);
      await receiver.stop();
      const sale = await g.sale(merchant);
      await settle(g);
      const [row] = await g.gateway.callbackQueries.list({ paymentId: sale.body.trans_id });
      expect(row.status).to.equal('pending');
      expect(row.last_error).to.match(/ECONNREFUSED/);

      // Down for the first three retries (after 1, 5 and 15 minutes)...
      for (const wait of [1, 5, 15]) {
        clock().advance(wait * MINUTE);
        await g.gateway.notifier.runDue();
        await settle(g);
      }
      const [stillDown] = await g.gateway.callbackQueries.list({ paymentId: sale.body.trans_id });
      expect(stillDown).to.include({ status: 'pending', attempts: 4 });

      // ...then back: the next retry (30 minutes later) gets through, exactly once.
      await receiver.start();
      clock().advance(30 * MINUTE);
      await g.gateway.notifier.runDue();
      await settle(g);
      expect(receiver.ofTransaction(sale.body.trans_id)).to.have.length(1);
      const found = await g.gateway.callbackQueries.byId(row.delivery_id);
      expect(found!.delivery).to.include({ status: 'delivered', attempts: 5 });
      expect(found!.attempts.map((a) => a.outcome)).to.deep.equal(['failure', 'failure', 'failure', 'failure', 'success']);
    });

    it('marks a delivery failed for good after the last retry, and an operator can redeliver it over the admin API', async () => {
      const g = h();
      const { merchant, receiver } = await newMerchantWithReceiver(g, receivers);
      receiver.defaultAnswer = 503;
      const sale = await g.sale(merchant);
      await settle(g);
      for (const wait of [1, 5, 15, 30, 60, 120, 240, 480, 960, 1440]) {
        clock().advance(wait * MINUTE);
        await g.gateway.notifier.runDue();
        await settle(g);
      }
      expect(receiver.ofTransaction(sale.body.trans_id)).to.have.length(11);
      const [row] = await g.gateway.callbackQueries.list({ paymentId: sale.body.trans_id, failed: true });
      expect(row).to.include({ status: 'failed', attempts: 11, last_status_code: 503 });

      const unauthorised = await g.request(`/admin/callbacks/${row.delivery_id}/redeliver`, { method: 'POST' });
      expect(unauthorised.status).to.equal(401);
      expect(receiver.ofTransaction(sale.body.trans_id)).to.have.length(11);

      receiver.defaultAnswer = 200;
      const auth = { Authorization: `Bearer ${g.gateway.adminToken}` };
      const redelivered = await g.request(`/admin/callbacks/${row.delivery_id}/redeliver`, { method: 'POST', headers: auth });
      expect(redelivered.status).to.equal(200);
      expect(redelivered.body).to.include({ delivery_id: row.delivery_id, status: 'delivered', attempts: 12, last_status_code: 200 });
      const got = receiver.ofTransaction(sale.body.trans_id);
      expect(got).to.have.length(12);
      expect(got[11].deliveryId).to.equal(row.delivery_id);

      const shown = await g.request(`/admin/callbacks/${row.delivery_id}`, { headers: auth });
      expect(shown.body.attempts).to.have.length(12);
      expect(shown.body.body).to.equal(got[0].body);
      const listed = await g.request(`/admin/callbacks?payment_id=${sale.body.trans_id}`, { headers: auth });
      expect(listed.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id)).to.include(row.delivery_id);
      const bad = await g.request('/admin/callbacks/not-a-uuid', { headers: auth });
      expect(bad.status).to.equal(400);
      const missing = await g.request('/admin/callbacks/00000000-0000-4000-8000-000000000000/redeliver', { method: 'POST', headers: auth });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Callback delivery not found.' });
    });

    it('blocks a URL after five timeouts within five minutes: its deliveries wait, none is dropped', async () => {
      const g = h();
      const { merchant, receiver } = await newMerchantWithReceiver(g, receivers);
      receiver.defaultAnswer = 'hang';
      const first = [];
      for (let i = 0; i < 5; i++) first.push(await g.sale(merchant));
      await settle(g);
      expect(receiver.received).to.have.length(5);

      // A sixth payment while the URL is blocked: scheduled, not sent, also not when its turn comes.
      receiver.defaultAnswer = 200;
      const sixth = await g.sale(merchant);
      await settle(g);
      clock().advance(2 * MINUTE);
      await g.gateway.notifier.runDue();
      await settle(g);
      expect(receiver.received).to.have.length(5);
      const [waiting] = await g.gateway.callbackQueries.list({ paymentId: sixth.body.trans_id });
      expect(waiting).to.include({ status: 'pending', attempts: 0 });

      // Fifteen minutes after the fifth timeout the block ends and everything goes out.
      clock().advance(13 * MINUTE + 1_000);
      await g.gateway.notifier.runDue();
      await settle(g);
      for (const sale of [...first, sixth]) {
        const got = receiver.ofTransaction(sale.body.trans_id);
        expect(got.at(-1)!.answeredWith, sale.body.trans_id).to.equal(200);
      }
      expect(receiver.received).to.have.length(11);
    });

    it('refuses a notification_url callbacks could never reach', async () => {
      const g = h();
      const merchant = await g.createMerchant();
      for (const [url, message] of [
        ['ftp://merchant.example/cb', 'notification_url: This value is not a valid URL.'],
        ['https://user:secret@merchant.example/cb', 'notification_url: The URL must not contain credentials.'],
        ['https://no-such-host.invalid/cb', 'notification_url: The host of the URL does not resolve.'],
      ]) {
        const response = await g.sale(merchant, { notification_url: url });
        expect(response.status, url).to.equal(400);
        expect(response.body.error_code, url).to.equal(100000);
        expect(response.body.errors, url).to.deep.include({ error_code: 100000, error_message: message });
      }
    });
  },
  { env: { CALLBACK_TIMEOUT: '300ms', NOTIFIER_POLL_MS: '600000' } },
);
