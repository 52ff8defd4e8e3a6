/**
 * Return URLs are appended to, never rebuilt: a merchant's query keeps its bytes (an OpenCart shop
 * returns to `index.php?route=checkout/success`, which must not come back as `checkout%2Fsuccess`),
 * the gateway's parameters follow with `&` or `?`, before any `#fragment`.
 */
import { expect } from 'chai';
import { returnParameters, s2sCardReturnUrl, withQueryParameters } from '../../src/domain/callback/return-url';
import { noProtocolMapping, type ProtocolMapping } from '../../src/domain/merchant/protocol-mapping';
import { foldPayment, type ExistingPayment } from '../../src/domain/payment/state';
import { paymentInitiated, paymentSettled } from '../support/payment-fixtures';

const PAYMENT_ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const PASSWORD = '13a4822c5907ed235f3a068c76184fc3';

describe('return URL: appended to as sent', () => {
  it('keeps the merchant query byte for byte and appends with &', () => {
    const url = withQueryParameters('https://shop.example/index.php?route=checkout/success&x=1', [['payment_id', 'p-1'], ['order_id', 'A 1&2']]);
    expect(url).to.equal('https://shop.example/index.php?route=checkout/success&x=1&payment_id=p-1&order_id=A+1%262');
  });

  it('starts a query with ? when the URL has none, and inserts before the fragment', () => {
    expect(withQueryParameters('https://shop.example/done', [['a', '1']])).to.equal('https://shop.example/done?a=1');
    expect(withQueryParameters('https://shop.example/done#top', [['a', '1']])).to.equal('https://shop.example/done?a=1#top');
    expect(withQueryParameters('https://shop.example/done?route=a/b#/cart?x=1', [['a', '1']])).to.equal('https://shop.example/done?route=a/b&a=1#/cart?x=1');
  });

  it('adds no second separator after a trailing ? or &', () => {
    expect(withQueryParameters('https://shop.example/done?', [['a', '1']])).to.equal('https://shop.example/done?a=1');
    expect(withQueryParameters('https://shop.example/done?x=%2F&', [['a', '1']])).to.equal('https://shop.example/done?x=%2F&a=1');
  });

  it('drops a merchant parameter named like one of ours, keeping the others as they were', () => {
    expect(withQueryParameters('https://shop.example/r?trans_id=forged&q=a%20b+c&hash=x', [['trans_id', 't-1'], ['hash', 'h']])).to.equal(
      'https://shop.example/r?q=a%20b+c&trans_id=t-1&hash=h',
    );
  });

  it('S2S term_url_3ds: the route of the shop survives the return from 3-D Secure', () => {
    const payment = foldPayment([
      paymentInitiated({ paymentId: PAYMENT_ID, orderId: 'order-42', termUrl3ds: 'https://shop.example/index.php?route=checkout/success&x=1#done' }),
      paymentSettled(PAYMENT_ID),
    ]) as ExistingPayment;
    const url = s2sCardReturnUrl(payment, { password: PASSWORD, protocolMapping: noProtocolMapping() })!;
    expect(url.startsWith('https://shop.example/index.php?route=checkout/success&x=1&payment_id=')).to.equal(true);
    expect(url.endsWith('#done')).to.equal(true);
    expect(new URL(url).searchParams.get('trans_id')).to.equal(PAYMENT_ID);
  });
});

describe('return parameters: payment_method and brand', () => {
  const mapping: ProtocolMapping = { ...noProtocolMapping(), returnParameters: ['payment_method', 'brand'] };
  it('Given a card payment, Then card and the card brand', () => {
    expect(returnParameters({ card: { mask: '411111******1111', brand: 'VISA' } as ExistingPayment['card'], method: undefined }, mapping)).to.deep.equal([
      ['payment_method', 'card'],
      ['brand', 'VISA'],
    ]);
  });
  it('Given a payment made with an alternative method, Then the method names both', () => {
    expect(returnParameters({ card: undefined, method: { brand: 'sb-qr', parameters: {} } }, mapping)).to.deep.equal([
      ['payment_method', 'sb-qr'],
      ['brand', 'sb-qr'],
    ]);
  });
});
