/**
 * A production gateway never calls inside its own network on a merchant's behalf. Given a merchant
 * endpoint on loopback, when a SALE or a Checkout session names it in an IPv6 spelling
 * (`[::ffff:127.0.0.1]` and friends), then the request is refused with the field error; and when a
 * merchant's default URL was stored pointing there before the rule existed, then the callback
 * attempt is refused at send time and nothing reaches the endpoint.
 */
import { expect } from 'chai';
import { handleCommand } from '../../src/application/command-handler';
import { merchantDecider } from '../../src/domain/merchant/decider';
import { merchantStreamId } from '../../src/domain/merchant/events';
import { expectFieldError } from '../support/api-errors';
import { CallbackReceiver } from '../support/callback-receiver';
import { postJson, sessionBody, sessionHash } from '../support/checkout-client';
import { forEachStore } from '../support/gateway-harness';

const REFUSED = 'notification_url: The URL must point to a public address.';

forEachStore(
  'Production: callbacks never go to non-public addresses',
  (h) => {
    const receiver = new CallbackReceiver();
    let port = 0;
    const probes = () => [
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
      `http://[::127.0.0.1]:${port}/`,
      'http://[::ffff:169.254.169.254]/',
      'http://[64:ff9b::a9fe:a9fe]/',
    ];
    before(async () => {
      await receiver.start();
      port = Number(new URL(receiver.url).port);
      await h().gateway.notifier.start();
    });
    after(async () => {
      await receiver.stop();
    });

    it('refuses a SALE whose notification_url hides loopback or the metadata service, and starts no payment', async () => {
      const merchant = await h().createMerchant();
      for (const url of probes()) {
        const res = await h().sale(merchant, { notification_url: url });
        expectFieldError(res, REFUSED);
        expect(await h().initiatedForOrder(merchant, res.fields.order_id!), url).to.deep.equal([]);
      }
    });

    it('refuses a Checkout session whose notification_url hides loopback', async () => {
      const merchant = await h().createMerchant();
      const body = sessionBody(merchant, { notification_url: `http://[::ffff:127.0.0.1]:${port}/` });
      body.hash = sessionHash(body, merchant.password);
      expectFieldError(await postJson(h(), '/api/v1/session', body), REFUSED);
    });

    it('never calls a default URL stored before the rule: the attempt is refused at send time', async () => {
      const merchant = await h().createMerchant();
      const stored = `http://[::ffff:127.0.0.1]:${port}/`;
      // Written as an earlier release would have, past today's check in the merchant service.
      await handleCommand(h().gateway.store, merchantStreamId(merchant.merchant_id), merchantDecider, {
        type: 'ChangeMerchantSettings',
        data: { changes: { notificationUrl: stored }, now: new Date().toISOString() },
      });
      const sale = await h().sale(merchant);
      expect(sale.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });

      await h().gateway.notifier.catchUp();
      const events = await h().gateway.store.readAll();
      const scheduled = events.find((e) => e.type === 'CallbackScheduled' && e.data.paymentId === sale.body.trans_id);
      expect(scheduled?.data.url).to.equal(stored);
      const attempts = events.filter((e) => e.type === 'CallbackAttemptFailed' && e.data.deliveryId === scheduled!.data.deliveryId);
      expect(attempts.map((e) => e.data.error)).to.deep.equal(['non-public address refused']);
      expect(events.some((e) => e.type === 'CallbackDelivered' && e.data.deliveryId === scheduled!.data.deliveryId)).to.equal(false);
      expect(receiver.received).to.deep.equal([]);
    });
  },
  { env: { GATEWAY_ENV: 'production' } },
);
