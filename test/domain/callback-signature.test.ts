/**
 * The wire form of a callback and how a merchant checks it: the form-encoded body, the X-Signature
 * header over the raw body, and the body's own hash. Also the S2S APM callback hash.
 */
import { expect } from 'chai';
import { createHash, createHmac } from 'node:crypto';
import { callbackFieldsFor } from '../../src/domain/callback/callback-content';
import {
  callbackSignatureHeader,
  encodeCallbackBody,
  verifyCallbackSignature,
} from '../../src/domain/callback/callback-encoding';
import { protocolMapping } from '../../src/domain/merchant/protocol-mapping';
import { evolvePayment, foldPayment, type ExistingPayment } from '../../src/domain/payment/state';
import { apmCallbackHash } from '../../src/domain/signatures';
import { paymentInitiated, paymentSettled } from '../support/payment-fixtures';

const PASSWORD = 'p4ssw0rd-of-the-merchant';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z

describe('callback body encoding', () => {
  it('is application/x-www-form-urlencoded with bracketed nested names, and decodes back to the same fields', () => {
    const fields: Array<[string, string]> = [
      ['action', 'SALE'],
      ['custom_data[note]', 'a&b=c d+é'],
      ['custom_data[list][0]', ''],
    ];
    const body = encodeCallbackBody(fields);
    expect(body).to.equal('action=SALE&custom_data%5Bnote%5D=a%26b%3Dc+d%2B%C3%A9&custom_data%5Blist%5D%5B0%5D=');
    expect([...new URLSearchParams(body)]).to.deep.equal(fields);
  });
});

describe('X-Signature', () => {
  const body = 'action=SALE&result=SUCCESS&trans_id=6f1c2a3b';

  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" keyed by the password>', () => {
    const header = callbackSignatureHeader(PASSWORD, body, NOW);
    const hmac = createHmac('sha256', PASSWORD).update(`${NOW}.${body}`).digest('hex');
    expect(header).to.equal(`t=${NOW},v1=${hmac}`);
  });

  describe('verified by the merchant', () => {
    const header = callbackSignatureHeader(PASSWORD, body, NOW);

    it('accepts the body as sent, also a little later and with upper-case hex', () => {
      expect(verifyCallbackSignature(PASSWORD, body, header, NOW)).to.equal(true);
      expect(verifyCallbackSignature(PASSWORD, body, header, NOW + 299)).to.equal(true);
      expect(verifyCallbackSignature(PASSWORD, body, header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), NOW)).to.equal(true);
    });

    it('refuses a changed body, another password, or a changed timestamp', () => {
      expect(verifyCallbackSignature(PASSWORD, body.replace('SUCCESS', 'DECLINED'), header, NOW)).to.equal(false);
      expect(verifyCallbackSignature('other-password', body, header, NOW)).to.equal(false);
      expect(verifyCallbackSignature(PASSWORD, body, header.replace(`t=${NOW}`, `t=${NOW + 1}`), NOW)).to.equal(false);
    });

    it('refuses a replay older than the tolerance, and a timestamp from the future beyond it', () => {
      expect(verifyCallbackSignature(PASSWORD, body, header, NOW + 301)).to.equal(false);
      expect(verifyCallbackSignature(PASSWORD, body, header, NOW + 60, 30)).to.equal(false);
      expect(verifyCallbackSignature(PASSWORD, body, header, NOW - 301)).to.equal(false);
    });

    it('refuses malformed headers without throwing', () => {
      for (const bad of ['', 'v1=abc', `t=${NOW}`, `t=${NOW},v1=zz`, `t=soon,v1=${'a'.repeat(64)}`, `t=${NOW},t=${NOW},${header.split(',')[1]}`, 'garbage']) {
        expect(verifyCallbackSignature(PASSWORD, body, bad, NOW), bad).to.equal(false);
      }
    });

    it('accepts a header with several v1 signatures when one of them matches', () => {
      const v1 = header.split(',')[1];
      expect(verifyCallbackSignature(PASSWORD, body, `t=${NOW},v1=${'0'.repeat(64)},${v1}`, NOW)).to.equal(true);
    });
  });

  it('end to end: a merchant verifies the header over the raw body, then the hash field in it', () => {
    const history = [
      paymentInitiated({
        card: { mask: '555555******4444', brand: 'MASTERCARD', expMonth: '01', expYear: '2038', token: null },
        payer: { email: 'doe@example.com', ip: '198.51.100.7' },
        customData: { ref: 'R 1' },
      }),
    ];
    const id = history[0].data.paymentId;
    const settled = paymentSettled(id);
    const after = evolvePayment(foldPayment(history), settled) as ExistingPayment;
    const fields = callbackFieldsFor(settled, after, { password: PASSWORD, protocolMapping: protocolMapping({ fields: ['brand'] }) })!;
    const rawBody = encodeCallbackBody(fields);
    const header = callbackSignatureHeader(PASSWORD, rawBody, NOW);

    // The merchant's side: raw body first, then the parsed fields.
    expect(verifyCallbackSignature(PASSWORD, rawBody, header, NOW + 2)).to.equal(true);
    const received = new URLSearchParams(rawBody);
    const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
    const rev = (s: string) => Buffer.from(s).reverse();
    const mine = md5(
      Buffer.from(
        Buffer.concat([rev(received.get('payer_email') ?? 'doe@example.com'), Buffer.from(PASSWORD), Buffer.from(received.get('trans_id')!), rev('5555554444')])
          .toString('latin1')
          .toUpperCase(),
        'latin1',
      ),
    );
    expect(received.get('hash')).to.equal(mine);
    expect(received.get('custom_data[ref]')).to.equal('R 1');
    expect(received.get('brand')).to.equal('MASTERCARD');
    expect(rawBody).not.to.include(PASSWORD);
  });
});

describe('S2S APM callback hash', () => {
  it('sorts by name, reverses each value, appends the password and upper-cases it all, md5', () => {
    const fields: Array<[string, string]> = [
      ['status', 'settled'],
      ['amount', '10.00'],
      ['custom_data[b]', 'xy'],
      ['hash', 'ignored'],
      ['custom_data[a]', 'q'],
    ];
    // Sorted: amount, custom_data (a, b), status → '00.01' 'q' 'yx' 'delttes'; the password too is upper-cased (docs/reference/hashes.md#s2s-apm)
    const expected = createHash('md5').update(`00.01QYXDELTTES${PASSWORD.toUpperCase()}`).digest('hex');
    expect(apmCallbackHash(fields, PASSWORD)).to.equal(expected);
  });
});
