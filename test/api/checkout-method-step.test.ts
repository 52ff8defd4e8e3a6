/**
 * The pieces of an alternative method's step on the hosted page that stand alone: the QR code drawn
 * on the server, the countdown's words, and why an unfinished step is declined.
 */
import { expect } from 'chai';
import { countdownText } from '../../src/api/checkout-page/method-step-page';
import { qrCodeSvg, qrPayloadOf } from '../../src/api/checkout-page/qr-svg';
import { QR_CODE_EXPIRED, payerTimeoutReason } from '../../src/domain/payment/payer-timeout';

describe('the hosted page\'s method step', () => {
  it('Given a Base64 payload, Then it is read as text; anything else (not Base64, not text) is no payload', () => {
    expect(qrPayloadOf(Buffer.from('000201010212', 'utf8').toString('base64'))).to.equal('000201010212');
    expect(qrPayloadOf('not base64!')).to.equal(null);
    expect(qrPayloadOf(Buffer.from([0xff, 0xfe, 0xfd]).toString('base64'))).to.equal(null);
  });

  it('Given a payload, Then the QR code is an SVG image named for screen readers, with no style or script in it', () => {
    const svg = qrCodeSvg('000201010212', 'QR code to pay "10.50 USD"');
    expect(svg).to.match(/^<svg role="img" aria-label="QR code to pay 10.50 USD" focusable="false" /);
    expect(svg).to.match(/<path d="M/);
    expect(svg).not.to.match(/style=|<script/);
    expect(qrCodeSvg('000201010212', 'x')).to.not.equal(qrCodeSvg('000201010213', 'x'));
  });

  it('Given seconds left, Then the countdown reads m:ss and never below 0:00', () => {
    expect(countdownText(60)).to.equal('1:00');
    expect(countdownText(9)).to.equal('0:09');
    expect(countdownText(-3)).to.equal('0:00');
  });

  it('Given the step a payer never finished, Then the decline says which', () => {
    expect(payerTimeoutReason('awaiting_redirect', true)).to.equal(QR_CODE_EXPIRED).and.to.equal('QR code expired');
    expect(payerTimeoutReason('awaiting_redirect', false)).to.equal('The payer did not return from the redirect in time');
    expect(payerTimeoutReason('awaiting_provider', false)).to.equal('The payer did not confirm the payment in time');
    expect(payerTimeoutReason('awaiting_3ds', false)).to.equal('3-D Secure authentication was not completed in time');
  });
});
