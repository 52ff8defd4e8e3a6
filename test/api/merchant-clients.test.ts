/**
 * What the public merchant clients of the protocol family (an Odoo module, a Laravel package, an
 * OpenCart extension, an Android SDK and a Flutter SDK) rely on where the spec leaves the choice
 * open: given a merchant as those clients drive it, when they do what they do, then what they see.
 */
import { expect } from 'chai';
import { createSession } from '../support/checkout-client';
import { checkoutPayment } from '../support/checkout-payments';
import { forEachStore, type TestMerchant } from '../support/gateway-harness';
import { checkoutHash } from '../../src/domain/signatures';

forEachStore('Merchant clients of the protocol family', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  describe('return URLs are appended to, never rebuilt', () => {
    it('a shop route in success_url comes back as the shop wrote it, the gateway\'s parameters after it', async () => {
      const { payment } = await checkoutPayment(h(), merchant, { success_url: 'https://shop.example/index.php?route=checkout/success&x=1' });
      const next = await h().gateway.checkout.afterPayerAction(payment);

      expect(next.kind).to.equal('merchant');
      const url = (next as { url: string }).url;
      expect(url.startsWith(`https://shop.example/index.php?route=checkout/success&x=1&payment_id=${payment.paymentId}&trans_id=`)).to.equal(true);
    });
  });

  describe('a cancel before any attempt', () => {
    it('appends what exists: order_id, and the hash with the absent payment id left out of its input', async () => {
      const { sessionId, body } = await createSession(h(), merchant, { cancel_url: 'https://shop.example/index.php?route=checkout/cart' });

      const next = await h().gateway.checkout.cancel(sessionId, 'test');

      const o = body.order;
      const hash = checkoutHash([o.number, o.amount, o.currency, o.description], merchant.password);
      expect(next).to.deep.include({ kind: 'merchant', url: `https://shop.example/index.php?route=checkout/cart&order_id=${o.number}&hash=${hash}` });
    });
  });
});
