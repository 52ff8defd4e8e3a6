import { expect } from 'chai';
import { DUPLICATE_WINDOW_MS, judgeRepeat, orderStreamId, type OrderIdReserved } from '../../src/domain/order/order-reservation';

const MERCHANT_A = '11111111-1111-4111-8111-111111111111';
const MERCHANT_B = '22222222-2222-4222-8222-222222222222';
const PAYMENT_ID = '9d2f4c1a-6b7e-4f80-a1b2-c3d4e5f60718';
const RESERVED_AT = '2024-06-10T12:00:00.000Z';

const reservation: OrderIdReserved['data'] = {
  merchantId: MERCHANT_A,
  orderId: 'ORDER-42',
  paymentId: PAYMENT_ID,
  reservedAt: RESERVED_AT,
};

const at = (iso: string) => new Date(iso);

describe('order reservation', () => {
  describe('judgeRepeat', () => {
    it('the window is 15 seconds', () => {
      expect(DUPLICATE_WINDOW_MS).to.equal(15_000);
    });

    it('a repeat at the same instant is a replay of the original payment', () => {
      expect(judgeRepeat(reservation, at(RESERVED_AT))).to.deep.equal({ kind: 'replay', paymentId: PAYMENT_ID });
    });

    it('a repeat within 15 s is a replay', () => {
      expect(judgeRepeat(reservation, at('2024-06-10T12:00:09.999Z'))).to.deep.equal({ kind: 'replay', paymentId: PAYMENT_ID });
    });

    it('a repeat exactly 15 s later is still a replay (inclusive)', () => {
      expect(judgeRepeat(reservation, at('2024-06-10T12:00:15.000Z'))).to.deep.equal({ kind: 'replay', paymentId: PAYMENT_ID });
    });

    it('a repeat 1 ms after the window is a duplicate', () => {
      expect(judgeRepeat(reservation, at('2024-06-10T12:00:15.001Z'))).to.deep.equal({ kind: 'duplicate' });
    });

    it('a repeat much later is a duplicate', () => {
      expect(judgeRepeat(reservation, at('2024-06-11T12:00:00.000Z'))).to.deep.equal({ kind: 'duplicate' });
    });

    it('reads a reservation time written with an offset', () => {
      const withOffset = { ...reservation, reservedAt: '2024-06-10T14:00:00.000+02:00' };
      expect(judgeRepeat(withOffset, at('2024-06-10T12:00:15.000Z'))).to.deep.equal({ kind: 'replay', paymentId: PAYMENT_ID });
      expect(judgeRepeat(withOffset, at('2024-06-10T12:00:15.001Z'))).to.deep.equal({ kind: 'duplicate' });
    });
  });

  describe('orderStreamId', () => {
    it('is stable for the same merchant and order id', () => {
      expect(orderStreamId(MERCHANT_A, 'ORDER-42')).to.equal(orderStreamId(MERCHANT_A, 'ORDER-42'));
    });

    it('starts with the order prefix and the merchant id', () => {
      expect(orderStreamId(MERCHANT_A, 'ORDER-42').startsWith(`order-${MERCHANT_A}-`)).to.equal(true);
    });

    it('differs per merchant for the same order id', () => {
      expect(orderStreamId(MERCHANT_A, 'ORDER-42')).not.to.equal(orderStreamId(MERCHANT_B, 'ORDER-42'));
    });

    it('differs per order id for the same merchant, including near-identical ids', () => {
      const ids = ['ORDER-42', 'ORDER-43', 'order-42', 'ORDER-42 ', ' ORDER-42', 'ORDER-420', ''];
      const streams = new Set(ids.map((id) => orderStreamId(MERCHANT_A, id)));
      expect(streams.size).to.equal(ids.length);
    });

    it('does not let a merchant id and an order id run into each other', () => {
      expect(orderStreamId('m1', '2-x')).not.to.equal(orderStreamId('m1-2', 'x'));
      expect(orderStreamId('m', '1-x')).not.to.equal(orderStreamId('m-1', 'x'));
    });

    it('accepts any string: unicode, 255 characters, slashes, control-looking characters', () => {
      const odd = [
        'заказ-№7',
        '注文🛒',
        'e\u0301', // decomposed é
        '\u00e9', // precomposed é
        'x'.repeat(255),
        'a/b/../c',
        '/leading/slash/',
        'a\\b',
        'tab\there',
        'new\nline',
        '$all',
        '%2F',
      ];
      const streams = odd.map((id) => orderStreamId(MERCHANT_A, id));
      for (const [i, stream] of streams.entries()) {
        expect(stream, JSON.stringify(odd[i])).to.match(new RegExp(`^order-${MERCHANT_A}-[0-9a-f]{64}$`));
        expect(stream, JSON.stringify(odd[i])).to.equal(orderStreamId(MERCHANT_A, odd[i]));
      }
      expect(new Set(streams).size).to.equal(odd.length);
    });

    it('keeps the stream id short whatever the order id length', () => {
      expect(orderStreamId(MERCHANT_A, 'y'.repeat(255)).length).to.equal(orderStreamId(MERCHANT_A, 'y').length);
    });
  });
});
