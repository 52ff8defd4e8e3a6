import { expect } from 'chai';
import { createHash } from 'node:crypto';
import {
  apmCallbackBodyHash,
  apmCallbackHash,
  apmCreditvoidHash,
  apmSaleHash,
  apmTransIdHash,
  asciiUpper,
  checkoutHash,
  constantTimeEqualHex,
  createScheduleHash,
  credit2VirtualHash,
  md5hex,
  orderIdHash,
  payoutCallbackHash,
  s2sCardCallbackHash,
  saleCardHash,
  saleTokenHash,
  scheduleIdHash,
  sha1hex,
  strrev,
  transIdHash,
  walletSaleHash,
} from '../../src/domain/signatures';

const PASSWORD = '13a4822c5907ed235f3a068c76184fc3';
const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest('hex');
const rev = (s: string) => s.split('').reverse().join('');

describe('signatures', () => {
  it('matches the Formula 1 test vector of docs/reference/hashes.md#test-vectors', () => {
    expect(
      saleCardHash({ payerEmail: 'doe@example.com', password: PASSWORD, cardNumber: '4111111111111111' }),
    ).to.equal('2702ae0c4f99506dc29b5615ba9ee3c0');
  });

  describe('PHP string semantics', () => {
    it('upper-cases ASCII letters only, like strtoupper', () => {
      expect(asciiUpper('abc-xyz_09')).to.equal('ABC-XYZ_09');
      expect(asciiUpper('ä')).to.equal('ä');
      expect(asciiUpper('straße é ß ǆ')).to.equal('STRAßE é ß ǆ');
      expect(asciiUpper(Buffer.from('aä', 'utf8'))).to.deep.equal(Buffer.from('Aä', 'utf8'));
    });

    it('reverses UTF-8 bytes, like strrev', () => {
      expect(strrev('abc').toString('latin1')).to.equal('cba');
      expect(strrev('ä')).to.deep.equal(Buffer.from([0xa4, 0xc3]));
      expect(strrev('a€')).to.deep.equal(Buffer.from([0xac, 0x82, 0xe2, 0x61]));
    });

    it('hashes the reversed bytes of a non-ASCII email, not a re-encoded string', () => {
      const email = 'jürgen@example.com';
      const expected = md5(
        Buffer.concat([
          Buffer.from(email, 'utf8').reverse().map((b) => (b >= 0x61 && b <= 0x7a ? b - 0x20 : b)),
          Buffer.from(PASSWORD.toUpperCase()),
          Buffer.from('1111111114'),
        ]),
      );
      const got = saleCardHash({ payerEmail: email, password: PASSWORD, cardNumber: '4111111111111111' });
      expect(got).to.equal(expected);
      const naive = md5((rev(email) + PASSWORD + rev('4111111111')).toUpperCase());
      expect(got).to.not.equal(naive);
    });

    it('md5hex and sha1hex give lowercase hex of the UTF-8 bytes', () => {
      expect(md5hex('abc')).to.equal('900150983cd24fb0d6963f7d28e17f72');
      expect(sha1hex('abc')).to.equal('a9993e364706816aba3e25717850c26c9cd0d89d');
      expect(md5hex('ä')).to.equal(md5(Buffer.from('ä', 'utf8')));
    });
  });

  describe('formulas', () => {
    it('leaves out an optional payer_email that was not sent', () => {
      expect(saleCardHash({ password: PASSWORD, cardNumber: '4111111111111111' })).to.equal(
        md5((PASSWORD + rev('4111111111')).toUpperCase()),
      );
    });

    it('uses strrev(card_token) for a token sale', () => {
      expect(saleTokenHash({ payerEmail: 'doe@example.com', password: 'pw', cardToken: 'ct_abc' })).to.equal(
        md5((rev('doe@example.com') + 'pw' + rev('ct_abc')).toUpperCase()),
      );
    });

    it('S2S follow-ups are sha1(md5(upper(field + password)))', () => {
      const id = '5b3c1d4e-0000-4000-8000-000000000001';
      const expected = sha1(md5((id + 'pw').toUpperCase()));
      expect(transIdHash(id, 'pw')).to.equal(expected);
      expect(orderIdHash(id, 'pw')).to.equal(expected);
      expect(scheduleIdHash(id, 'pw')).to.equal(expected);
    });

    it('CREATE_SCHEDULE and wallet SALE follow docs/reference/hashes.md#all-formulas', () => {
      expect(createScheduleHash('secret')).to.equal(md5('TERCES'));
      expect(walletSaleHash({ payerEmail: 'a@b.c', password: 'pw' })).to.equal(md5('C.B@APW'));
      expect(walletSaleHash({ password: 'pw' })).to.equal(md5('PW'));
    });

    it('S2S card callback hash takes card digits or the token', () => {
      const base = { payerEmail: 'doe@example.com', password: 'pw', transId: 't-1' };
      expect(s2sCardCallbackHash({ ...base, cardNumberFirst6Last4: '4111111111' })).to.equal(
        md5((rev('doe@example.com') + 'pw' + 't-1' + rev('4111111111')).toUpperCase()),
      );
      expect(s2sCardCallbackHash({ ...base, cardNumberFirst6Last4: '4111111111', cardToken: 'tok' })).to.equal(
        md5((rev('doe@example.com') + 'pw' + 't-1' + 'kot').toUpperCase()),
      );
    });

    it('checkoutHash concatenates parts then the password', () => {
      expect(checkoutHash(['order-1', '10.00', 'USD', 'Order 1'], 'pw')).to.equal(
        sha1(md5('ORDER-110.00USDORDER 1PW')),
      );
    });

    it('APM formulas place the password as docs/reference/hashes.md#s2s-apm says', () => {
      expect(apmSaleHash({ identifier: 'id', orderId: 'o1', orderAmount: '1.00', orderCurrency: 'USD', password: 'pw' }))
        .to.equal(md5(rev('ido11.00USDpw').toUpperCase()));
      // The password is appended after upper-casing, so its case matters.
      expect(apmTransIdHash('abc', 'pW')).to.equal(md5('CBApW'));
      expect(apmCreditvoidHash('abc', 'pw')).to.equal(md5('WPCBA'));
      expect(credit2VirtualHash({ orderId: 'o1', orderAmount: '5', orderCurrency: 'XOF', password: 'pW' }))
        .to.equal(md5('FOX51OpW'));
    });
  });

  describe('callback hashes a merchant verifies', () => {
    it('S2S APM callback matches the test vector of docs/reference/hashes.md#test-vectors', () => {
      const body =
        'action=SALE&result=SUCCESS&status=SETTLED&order_id=ORDER-1001&trans_id=c3b0f6a2-7d5e-11ef-9f3a-0242ac120002' +
        '&trans_date=2025-03-01+12%3A00%3A00&descriptor=SANDBOX&amount=10.00&currency=USD' +
        '&custom_data%5Bclient%5D=abc&custom_data%5Bbasket%5D=42';
      expect(apmCallbackBodyHash(body, PASSWORD)).to.equal('18922d38039c11030f448594b8c5bf5a');
      // A hash field in the body is left out, wherever it stands.
      expect(apmCallbackBodyHash(`hash=x&${body}`, PASSWORD)).to.equal('18922d38039c11030f448594b8c5bf5a');
    });

    it('S2S APM callback sorts nested keys as PHP ksort: integer keys numerically, each level on its own', () => {
      const fields: Array<[string, string]> = [
        ['items[10]', 'c'],
        ['items[9]', 'b'],
        ['items[]', 'd'],
        ['itemsA', 'a'],
      ];
      // Top level: items < itemsA (a prefix sorts first); in items: 9, 10, then [] appended as 11.
      expect(apmCallbackHash(fields, 'pw')).to.equal(md5('BCDAPW'));
    });

    it('S2S APM callback upper-cases the password with the rest and reverses bytes, not characters', () => {
      const expected = md5(Buffer.concat([Buffer.from('é', 'utf8').reverse(), Buffer.from('PW')]));
      expect(apmCallbackHash([['name', 'é']], 'Pw')).to.equal(expected);
    });

    it('payout callback matches the test vector of docs/reference/hashes.md#test-vectors', () => {
      expect(
        payoutCallbackHash({ transId: 'c3b0f6a2-7d5e-11ef-9f3a-0242ac120002', orderId: 'ORDER-2001', status: 'SETTLED', password: PASSWORD }),
      ).to.equal('2e9ad43836d4fbae5059662854083dd4');
    });

    it('S2S card callback of the Formula 1 vector payment', () => {
      const transId = 'c3b0f6a2-7d5e-11ef-9f3a-0242ac120002';
      expect(
        s2sCardCallbackHash({ payerEmail: 'doe@example.com', password: PASSWORD, transId, cardNumberFirst6Last4: '4111111111' }),
      ).to.equal(md5(`${rev('doe@example.com')}${PASSWORD}${transId}${rev('4111111111')}`.toUpperCase()));
    });
  });

  describe('constantTimeEqualHex', () => {
    it('compares digests, ignoring hex case', () => {
      const h = md5('x');
      expect(constantTimeEqualHex(h, h)).to.equal(true);
      expect(constantTimeEqualHex(h, h.toUpperCase())).to.equal(true);
      expect(constantTimeEqualHex(h, md5('y'))).to.equal(false);
    });

    it('returns false on a length mismatch instead of throwing', () => {
      expect(constantTimeEqualHex('abcd', 'abc')).to.equal(false);
      expect(constantTimeEqualHex('', 'a')).to.equal(false);
      expect(constantTimeEqualHex('ä', 'aa')).to.equal(false);
      expect(constantTimeEqualHex(undefined as unknown as string, 'a')).to.equal(false);
    });
  });
});
