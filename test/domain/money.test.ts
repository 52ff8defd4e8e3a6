import { expect } from 'chai';
import { CURRENCY_CODES, currencyExponent, formatMinor, isCurrency, parseAmount } from '../../src/domain/money';

describe('money', () => {
  describe('currency table', () => {
    it('has the ISO 4217 exponents', () => {
      const expected: Record<string, number> = {
        USD: 2, EUR: 2, GBP: 2, JPY: 0, KRW: 0, XOF: 0, XAF: 0, CLP: 0, VND: 0,
        BHD: 3, KWD: 3, JOD: 3, OMR: 3, TND: 3, IQD: 3, LYD: 3, CLF: 4, UYW: 4,
        GHS: 2, KES: 2, TZS: 2, EGP: 2, ZWG: 2, XCG: 2, SLE: 2, VED: 2,
      };
      for (const [code, exponent] of Object.entries(expected)) {
        expect(currencyExponent(code), code).to.equal(exponent);
      }
    });

    it('covers the active list and nothing that cannot be paid in', () => {
      expect(CURRENCY_CODES.length).to.be.greaterThan(150);
      for (const code of ['XAU', 'XXX', 'XTS', 'XDR', 'HRK', 'usd', 'US', 'constructor', 'toString']) {
        expect(isCurrency(code), code).to.equal(false);
      }
      expect(isCurrency('USD')).to.equal(true);
    });
  });

  describe('parseAmount', () => {
    const ok = (text: string, currency: string, minor: number) =>
      expect(parseAmount(text, currency), `${text} ${currency}`).to.deep.equal({ ok: true, minor });
    const bad = (text: string, currency: string) =>
      expect(parseAmount(text, currency).ok, `${text} ${currency}`).to.equal(false);

    it('reads decimal strings into minor units', () => {
      ok('100', 'USD', 10000);
      ok('100.5', 'USD', 10050);
      ok('100.50', 'USD', 10050);
      ok('0.00', 'USD', 0);
      ok('0.01', 'USD', 1);
      ok('1.005', 'BHD', 1005);
      ok('2', 'XOF', 2);
      ok('1.2345', 'CLF', 12345);
    });

    it('accepts surplus fraction digits only when they are zeros', () => {
      ok('10.500', 'USD', 1050);
      bad('10.505', 'USD');
      ok('100.0', 'JPY', 100);
      ok('100.000', 'JPY', 100);
      bad('100.5', 'JPY');
    });

    it('is exact where floating point is not', () => {
      ok('0.29', 'USD', 29); // 0.29 * 100 = 28.999999999999996 in floating point
      ok('1.15', 'USD', 115);
      ok('90071992547409.91', 'USD', 9007199254740991);
    });

    it('refuses everything but plain decimals', () => {
      for (const text of ['-1', '+1', '1e3', '1E3', ' 1', '1 ', '.5', '5.', '1,000', '1,5', '', '0x10', 'NaN', 'Infinity', '１']) {
        bad(text, 'USD');
      }
    });

    it('refuses more than 2^53-1 minor units', () => {
      bad('90071992547409.92', 'USD');
      bad('9007199254740992', 'JPY');
      ok('9007199254740991', 'JPY', Number.MAX_SAFE_INTEGER);
    });

    it('refuses an unknown currency', () => {
      expect(parseAmount('10', 'ABC')).to.deep.equal({ ok: false, reason: 'Unknown currency' });
    });
  });

  describe('formatMinor', () => {
    it('gives the canonical text for each exponent', () => {
      expect(formatMinor(1050, 'USD')).to.equal('10.50');
      expect(formatMinor(5, 'USD')).to.equal('0.05');
      expect(formatMinor(0, 'EUR')).to.equal('0.00');
      expect(formatMinor(100, 'JPY')).to.equal('100');
      expect(formatMinor(1005, 'KWD')).to.equal('1.005');
      expect(formatMinor(1, 'CLF')).to.equal('0.0001');
      expect(formatMinor(-1050, 'USD')).to.equal('-10.50');
    });

    it('round-trips with parseAmount', () => {
      for (const [text, currency] of [['10.5', 'USD'], ['7', 'XAF'], ['0.1', 'BHD']]) {
        const parsed = parseAmount(text, currency);
        if (!parsed.ok) throw new Error('parse failed');
        expect(parseAmount(formatMinor(parsed.minor, currency), currency)).to.deep.equal(parsed);
      }
    });

    it('refuses non-integers and unknown currencies', () => {
      expect(() => formatMinor(10.5, 'USD')).to.throw(RangeError);
      expect(() => formatMinor(10, 'ABC')).to.throw(RangeError);
    });
  });
});
