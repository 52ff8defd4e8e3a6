import { expect } from 'chai';
import {
  detectBrand,
  luhnValid,
  maskPan,
  parseExpiry,
  validateCvv,
  validatePan,
} from '../../src/domain/card';

describe('card', () => {
  describe('luhnValid', () => {
    it('accepts well-known test numbers and refuses a changed digit', () => {
      expect(luhnValid('4111111111111111')).to.equal(true);
      expect(luhnValid('5555555555554444')).to.equal(true);
      expect(luhnValid('378282246310005')).to.equal(true);
      expect(luhnValid('4111111111111112')).to.equal(false);
    });

    it('refuses anything that is not only digits', () => {
      expect(luhnValid('4111 1111 1111 1111')).to.equal(false);
      expect(luhnValid('')).to.equal(false);
      expect(luhnValid('４１１１')).to.equal(false);
    });
  });

  describe('maskPan', () => {
    it('keeps first 6 and last 4 with always six stars', () => {
      expect(maskPan('4111111111111111')).to.equal('411111******1111');
      expect(maskPan('378282246310005')).to.equal('378282******0005');
      expect(maskPan('4000000000000000006')).to.equal('400000******0006');
    });

    it('refuses input that is not a card number rather than leak it', () => {
      expect(() => maskPan('12345')).to.throw(RangeError);
      expect(() => maskPan('4111-1111-1111-1111')).to.throw(RangeError);
    });
  });

  describe('detectBrand', () => {
    const cases: Array<[string, string]> = [
      ['4111111111111111', 'VISA'],
      ['5555555555554444', 'MASTERCARD'],
      ['2223003122003222', 'MASTERCARD'],
      ['378282246310005', 'AMEX'],
      ['341111111111111', 'AMEX'],
      ['6011111111111117', 'DISCOVER'],
      ['6445644564456445', 'DISCOVER'],
      ['6500000000000002', 'DISCOVER'],
      ['3530111333300000', 'JCB'],
      ['30569309025904', 'DINERS'],
      ['36227206271667', 'DINERS'],
      ['6200000000000005', 'UNIONPAY'],
      ['6759649826438453', 'MAESTRO'],
      ['5018000000000009', 'MAESTRO'],
      ['9999999999999995', 'UNKNOWN'],
    ];
    for (const [pan, brand] of cases) {
      it(`${pan.slice(0, 6)}… is ${brand}`, () => {
        expect(detectBrand(pan)).to.equal(brand);
      });
    }
  });

  describe('validatePan', () => {
    it('accepts a Luhn-valid 12 to 19 digit number', () => {
      expect(validatePan('4111111111111111')).to.deep.equal({ ok: true });
    });

    it('gives a reason for each kind of bad number', () => {
      expect(validatePan('4111 1111 1111 1111')).to.include({ ok: false });
      expect(validatePan('41111111111')).to.include({ ok: false }); // 11 digits
      expect(validatePan('41111111111111111111')).to.include({ ok: false }); // 20 digits
      const bad = validatePan('4111111111111112');
      expect(bad.ok).to.equal(false);
      if (!bad.ok) expect(bad.reason).to.match(/not valid/);
    });
  });

  describe('parseExpiry', () => {
    const now = new Date('2026-05-15T12:00:00Z');

    it('normalises month and two-digit year', () => {
      expect(parseExpiry('1', '2038', now)).to.deep.equal({ ok: true, expMonth: '01', expYear: '2038' });
      expect(parseExpiry('01', '38', now)).to.deep.equal({ ok: true, expMonth: '01', expYear: '2038' });
      expect(parseExpiry('12', '2039', now)).to.deep.equal({ ok: true, expMonth: '12', expYear: '2039' });
    });

    it('refuses malformed months and years', () => {
      for (const [m, y] of [['0', '2038'], ['13', '2038'], ['001', '2038'], ['1a', '2038'], ['01', '238'], ['01', '20388'], ['', '']]) {
        expect(parseExpiry(m, y, now).ok, `${m}/${y}`).to.equal(false);
      }
    });

    it('keeps a card valid through the last day of its expiry month', () => {
      expect(parseExpiry('05', '2026', now).ok).to.equal(true);
      expect(parseExpiry('05', '2026', new Date('2026-05-31T23:59:59Z')).ok).to.equal(true);
      const past = parseExpiry('04', '2026', now);
      expect(past.ok).to.equal(false);
      if (!past.ok) expect(past.reason).to.match(/expired/i);
      expect(parseExpiry('05', '2026', new Date('2026-06-02T00:00:00Z')).ok).to.equal(false);
    });

    it('refuses an expiry more than 50 years ahead', () => {
      expect(parseExpiry('12', '2076', now).ok).to.equal(true);
      expect(parseExpiry('01', '2077', now).ok).to.equal(false);
    });
  });

  describe('validateCvv', () => {
    it('wants 4 digits for AMEX and 3 for other known brands', () => {
      expect(validateCvv('1234', 'AMEX').ok).to.equal(true);
      expect(validateCvv('123', 'AMEX').ok).to.equal(false);
      expect(validateCvv('123', 'VISA').ok).to.equal(true);
      expect(validateCvv('1234', 'VISA').ok).to.equal(false);
    });

    it('accepts 3 or 4 digits for an unknown brand, never other shapes', () => {
      expect(validateCvv('123', 'UNKNOWN').ok).to.equal(true);
      expect(validateCvv('1234', 'UNKNOWN').ok).to.equal(true);
      expect(validateCvv('12', 'UNKNOWN').ok).to.equal(false);
      expect(validateCvv('12a', 'MASTERCARD').ok).to.equal(false);
      expect(validateCvv('', 'VISA').ok).to.equal(false);
    });
  });
});
