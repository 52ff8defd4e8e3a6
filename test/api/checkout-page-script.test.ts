/**
 * The hosted payment page's own checks, run exactly as served (the script's text) in a sandbox:
 * what the payer is told before anything is sent, and how typed numbers are laid out.
 */
import { expect } from 'chai';
import vm from 'node:vm';
import { CARD_CHECKS_JS, CHECKOUT_PAGE_JS, timeLeftText } from '../../src/api/checkout-page/page-script';

interface Brand {
  name: string;
}
interface CardChecks {
  luhn(digits: string): boolean;
  brandOf(value: string): Brand | null;
  formatNumber(value: string): string;
  checkNumber(value: string): string;
  formatExpiry(value: string, deleting: boolean): string;
  checkExpiry(value: string, now?: Date): string;
  checkCvv(value: string, number: string): string;
}

const checks = vm.runInNewContext(`${CARD_CHECKS_JS}; CardChecks`, { Date }) as CardChecks;
const MAY_2030 = new Date(2030, 4, 15);

describe('hosted payment page script', () => {
  it('parses as a script and does nothing outside a page', () => {
    expect(() => vm.runInNewContext(CHECKOUT_PAGE_JS, {})).to.not.throw();
  });

  describe('card number', () => {
    it('passes a Luhn-valid number of 12 to 19 digits, spaces allowed', () => {
      expect(checks.checkNumber('4111 1111 1111 1111')).to.equal('');
      expect(checks.checkNumber('5555555555554444')).to.equal('');
      expect(checks.checkNumber('378282246310005')).to.equal('');
    });

    it('names what is wrong: empty, not digits, too short, failing the Luhn check', () => {
      expect(checks.checkNumber('')).to.equal('Enter your card number.');
      expect(checks.checkNumber('4111-1111-abcd-1111')).to.equal('Enter a card number using digits only.');
      expect(checks.checkNumber('4111 1111')).to.equal('The card number is too short.');
      expect(checks.checkNumber('3782 822463 1000'), 'American Express has 15 digits').to.equal('The card number is too short.');
      expect(checks.checkNumber('4111 1111 1111 1112')).to.equal('This card number is not valid. Check the digits and try again.');
    });

    it('detects the brand from the first digits', () => {
      const brand = (n: string) => checks.brandOf(n)?.name ?? null;
      expect(brand('4111')).to.equal('Visa');
      expect(brand('5100')).to.equal('Mastercard');
      expect(brand('2221 00')).to.equal('Mastercard');
      expect(brand('2720 99')).to.equal('Mastercard');
      expect(brand('2721 00')).to.equal(null);
      expect(brand('34')).to.equal('American Express');
      expect(brand('37')).to.equal('American Express');
      expect(brand('6011')).to.equal('Discover');
      expect(brand('3530')).to.equal('JCB');
      expect(brand('6304')).to.equal('Maestro');
      expect(brand('36')).to.equal('Diners Club');
      expect(brand('62')).to.equal('UnionPay');
      expect(brand('9')).to.equal(null);
    });

    it('lays digits out in groups: 4-4-4-4, 4-6-5 for American Express, 4-6-4 for 14 digits', () => {
      expect(checks.formatNumber('4111111111111111')).to.equal('4111 1111 1111 1111');
      expect(checks.formatNumber('411111')).to.equal('4111 11');
      expect(checks.formatNumber('378282246310005')).to.equal('3782 822463 10005');
      expect(checks.formatNumber('3782822463100059999'), 'American Express stops at 15 digits').to.equal('3782 822463 10005');
      expect(checks.formatNumber('36227206271667')).to.equal('3622 720627 1667');
      expect(checks.formatNumber('4111111111111111111')).to.equal('4111 1111 1111 1111 111');
    });
  });

  describe('expiry', () => {
    it('adds " / " once the month is typed, and not while deleting', () => {
      expect(checks.formatExpiry('0', false)).to.equal('0');
      expect(checks.formatExpiry('01', false)).to.equal('01 / ');
      expect(checks.formatExpiry('01', true)).to.equal('01');
      expect(checks.formatExpiry('013', false)).to.equal('01 / 3');
      expect(checks.formatExpiry('01 / 385', false)).to.equal('01 / 38');
    });

    it('reads a lone 2-9 as that month, and 13-19 as January of a year starting with the second digit', () => {
      expect(checks.formatExpiry('4', false)).to.equal('04 / ');
      expect(checks.formatExpiry('13', false)).to.equal('01 / 3');
      expect(checks.formatExpiry('1', false)).to.equal('1');
      expect(checks.formatExpiry('12', false)).to.equal('12 / ');
    });

    it('accepts this month and later; refuses a past month, a month 13, and a wrong shape', () => {
      expect(checks.checkExpiry('05 / 30', MAY_2030)).to.equal('');
      expect(checks.checkExpiry('01/2038', MAY_2030)).to.equal('');
      expect(checks.checkExpiry('04 / 30', MAY_2030)).to.equal('This card has expired. Check the date or use another card.');
      expect(checks.checkExpiry('13 / 31', MAY_2030)).to.equal('Enter the expiry date as MM / YY.');
      expect(checks.checkExpiry('0531', MAY_2030), 'without the separator').to.equal('');
      expect(checks.checkExpiry('5 / 3', MAY_2030)).to.equal('Enter the expiry date as MM / YY.');
      expect(checks.checkExpiry(' / ', MAY_2030)).to.equal('Enter the expiry date.');
    });
  });

  describe('security code', () => {
    it('3 digits for most brands, 4 for American Express, 3 or 4 when the brand is unknown', () => {
      expect(checks.checkCvv('123', '4111111111111111')).to.equal('');
      expect(checks.checkCvv('1234', '4111111111111111')).to.equal('Enter the 3 digit security code.');
      expect(checks.checkCvv('1234', '378282246310005')).to.equal('');
      expect(checks.checkCvv('123', '378282246310005')).to.equal('Enter the 4 digit security code.');
      expect(checks.checkCvv('1234', '9999')).to.equal('');
      expect(checks.checkCvv('12', '9999')).to.equal('Enter the 3 or 4 digit security code.');
      expect(checks.checkCvv('', '4111')).to.equal('Enter the security code.');
      expect(checks.checkCvv('12a', '4111')).to.equal('Enter the security code using digits only.');
    });
  });

  describe('time left', () => {
    it('reads naturally', () => {
      expect(timeLeftText(1)).to.equal('1 minute');
      expect(timeLeftText(45)).to.equal('45 minutes');
      expect(timeLeftText(60)).to.equal('1 hour');
      expect(timeLeftText(61)).to.equal('1 hour 1 minute');
      expect(timeLeftText(720)).to.equal('12 hours');
    });
  });
});
