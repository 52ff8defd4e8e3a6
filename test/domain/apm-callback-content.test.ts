/**
 * What an S2S APM merchant is told on each state change (docs/reference/callbacks.md#s2s-apm-callbacks): the SALE callback of the
 * §7 test vector byte for byte, then every other event's action/result/status and its fields.
 */
import { expect } from 'chai';
import { callbackFieldsFor, type CallbackContext } from '../../src/domain/callback/callback-content';
import { encodeCallbackBody } from '../../src/domain/callback/callback-encoding';
import { noProtocolMapping, protocolMapping } from '../../src/domain/merchant/protocol-mapping';
import type { PaymentEvent, PaymentInitiated } from '../../src/domain/payment/events';
import { evolvePayment, foldPayment, type ExistingPayment } from '../../src/domain/payment/state';
import { apmCallbackBodyHash } from '../../src/domain/signatures';

const PASSWORD = '13a4822c5907ed235f3a068c76184fc3';
const TRANS_ID = 'c3b0f6a2-7d5e-11ef-9f3a-0242ac120002';
const CTX: CallbackContext = { password: PASSWORD, protocolMapping: noProtocolMapping() };
const AT = '2025-03-01T12:00:00.000Z';
const LATER = '2025-03-01T12:30:00.000Z';

function initiated(over: Partial<PaymentInitiated['data']> = {}): PaymentInitiated {
  return {
    type: 'PaymentInitiated',
    data: {
      paymentId: TRANS_ID,
      merchantId: 'm-1',
      channel: 's2s_apm',
      kind: 'sale',
      orderId: 'ORDER-1001',
      orderDescription: 'Order 1001',
      currency: 'USD',
      amount: 1000,
      amountText: '10.00',
      method: { brand: 'sb-redirect', parameters: {}, identifier: 'payer-1', returnUrl: 'https://shop.test/back' },
      payer: { ip: '203.0.113.1' },
      termUrl3ds: null,
      notificationUrl: null,
      customData: { client: 'abc', basket: '42' },
      parameters: null,
      recurringInit: false,
      connector: 'sandbox-apm',
      initiatedAt: AT,
      ...over,
    },
  };
}

const settled: PaymentEvent = { type: 'PaymentSettled', data: { paymentId: TRANS_ID, amount: 1000, descriptor: 'SANDBOX', reference: 'r', settledAt: AT } };

function callback(history: PaymentEvent[], event: PaymentEvent, ctx = CTX): Record<string, string> {
  const before = foldPayment(history) as ExistingPayment;
  const after = evolvePayment(before, event) as ExistingPayment;
  const fields = callbackFieldsFor(event, after, ctx);
  if (!fields) throw new Error(`no callback for ${event.type}`);
  return Object.fromEntries(fields);
}

describe('S2S APM callbacks', () => {
  it('Given the §7 vector payment, When it settles, Then the body is the vector body and its hash the vector hash', () => {
    const after = evolvePayment(foldPayment([initiated()]), settled) as ExistingPayment;
    const fields = callbackFieldsFor(settled, after, CTX)!;
    const body = encodeCallbackBody(fields);
    expect(body).to.equal(
      'action=SALE&result=SUCCESS&status=SETTLED&order_id=ORDER-1001&trans_id=c3b0f6a2-7d5e-11ef-9f3a-0242ac120002&trans_date=2025-03-01+12%3A00%3A00&descriptor=SANDBOX&amount=10.00&currency=USD&custom_data%5Bclient%5D=abc&custom_data%5Bbasket%5D=42&hash=18922d38039c11030f448594b8c5bf5a',
    );
    // What a merchant checks on receipt: the hash over the rest of the raw body.
    expect(apmCallbackBodyHash(body, PASSWORD)).to.equal('18922d38039c11030f448594b8c5bf5a');
  });

  it('Given a redirect, a QR code, a provider pending and no answer, Then REDIRECT, REDIRECT/PENDING with qr_code, INIT with the crypto fields, UNDEFINED/PREPARE', () => {
    const page = 'https://gw.test/sandbox/provider/x';
    const redirect = callback([initiated()], { type: 'PayerRedirectRequired', data: { paymentId: TRANS_ID, redirectUrl: page, requiredAt: AT } });
    expect(redirect).to.include({ action: 'SALE', result: 'REDIRECT', status: 'REDIRECT', redirect_url: page, redirect_method: 'GET' });
    const qr = callback([initiated()], {
      type: 'PayerRedirectRequired',
      data: { paymentId: TRANS_ID, redirectUrl: page, display: 'qr', params: { qr_code: 'QUJD' }, expiresAt: LATER, requiredAt: AT },
    });
    expect(qr).to.include({ result: 'REDIRECT', status: 'PENDING', 'redirect_params[qr_code]': 'QUJD' });
    const init = callback([initiated()], { type: 'PaymentPending', data: { paymentId: TRANS_ID, instructions: { crypto_address: 'bc1q', crypto_network: 'btc' }, pendingAt: AT } });
    expect(init).to.include({ result: 'INIT', status: 'PENDING', crypto_address: 'bc1q', crypto_network: 'btc' });
    const silent = callback([initiated()], { type: 'PaymentOutcomeUnknown', data: { paymentId: TRANS_ID, detail: 'timeout', at: AT } });
    expect(silent).to.include({ result: 'UNDEFINED', status: 'PREPARE' });
    for (const body of [redirect, qr, init, silent]) expect(body).to.have.property('hash').that.matches(/^[0-9a-f]{32}$/);
  });

  it('Given a decline, Then DECLINED/DECLINED with the reason after the currency', () => {
    const body = callback([initiated()], {
      type: 'PaymentDeclined',
      data: { paymentId: TRANS_ID, reason: 'QR code expired', code: 'payer_timeout', stage: 'timeout', declinedAt: LATER },
    });
    expect(Object.keys(body).slice(0, 10)).to.deep.equal(['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'descriptor', 'amount', 'currency', 'decline_reason']);
    expect(body).to.include({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'QR code expired', trans_date: '2025-03-01 12:30:00' });
  });

  it('Given CREDITVOID refunds, Then SETTLED after a partial one, REFUND after the rest, each with creditvoid_date and its amount; a declined one SETTLED', () => {
    const requested = (op: string, amount: number): PaymentEvent => ({
      type: 'CreditVoidRequested',
      data: { paymentId: TRANS_ID, operationId: op, kind: 'refund', amount, amountText: String(amount / 100), requestedAt: LATER },
    });
    const partial = callback([initiated(), settled, requested('op1', 400)], { type: 'RefundSucceeded', data: { paymentId: TRANS_ID, operationId: 'op1', amount: 400, refundedAt: LATER } });
    expect(partial).to.include({ action: 'CREDITVOID', result: 'SUCCESS', status: 'SETTLED', amount: '4.00', creditvoid_date: '2025-03-01 12:30:00' });
    expect(partial).not.to.have.property('descriptor');
    const full = callback(
      [initiated(), settled, requested('op1', 400), { type: 'RefundSucceeded', data: { paymentId: TRANS_ID, operationId: 'op1', amount: 400, refundedAt: LATER } }, requested('op2', 600)],
      { type: 'RefundSucceeded', data: { paymentId: TRANS_ID, operationId: 'op2', amount: 600, refundedAt: LATER } },
    );
    expect(full).to.include({ status: 'REFUND', amount: '6.00' });
    const refused = callback([initiated(), settled, requested('op1', 400)], { type: 'RefundDeclined', data: { paymentId: TRANS_ID, operationId: 'op1', amount: 400, reason: 'no', declinedAt: LATER } });
    expect(refused).to.include({ action: 'CREDITVOID', result: 'DECLINED', status: 'SETTLED', decline_reason: 'no' });
  });

  it('Given a hold released by CREDITVOID, Then REVERSAL; Given VOID, Then VOID, or SETTLED when declined', () => {
    const auth = initiated({ kind: 'authorization' });
    const authorized: PaymentEvent = { type: 'PaymentAuthorized', data: { paymentId: TRANS_ID, amount: 1000, descriptor: 'W', authorizedAt: AT } };
    const release: PaymentEvent = { type: 'CreditVoidRequested', data: { paymentId: TRANS_ID, operationId: 'op', kind: 'reversal', amount: 1000, amountText: '10.00', requestedAt: LATER } };
    expect(callback([auth, authorized, release], { type: 'AuthorizationReversed', data: { paymentId: TRANS_ID, operationId: 'op', amount: 1000, reversedAt: LATER } })).to.include({
      action: 'CREDITVOID',
      status: 'REVERSAL',
    });
    const voiding: PaymentEvent = { type: 'VoidRequested', data: { paymentId: TRANS_ID, operationId: 'v', amount: 1000, requestedAt: LATER } };
    expect(callback([initiated(), settled, voiding], { type: 'PaymentVoided', data: { paymentId: TRANS_ID, operationId: 'v', amount: 1000, voidedAt: LATER } })).to.include({
      action: 'VOID',
      result: 'SUCCESS',
      status: 'VOID',
    });
    expect(callback([initiated(), settled, voiding], { type: 'VoidDeclined', data: { paymentId: TRANS_ID, operationId: 'v', amount: 1000, reason: 'late', declinedAt: LATER } })).to.include({
      action: 'VOID',
      result: 'DECLINED',
      status: 'SETTLED',
    });
  });

  it('Given a zero-exponent currency, Then the amount has no decimals', () => {
    const yen = initiated({ currency: 'JPY', amount: 1500, amountText: '1500' });
    const body = callback([yen], { type: 'PaymentSettled', data: { paymentId: TRANS_ID, amount: 1500, descriptor: 'D', settledAt: AT } });
    expect(body.amount).to.equal('1500');
  });

  it('Given Protocol Mapping switched on, Then brand is the method and the card fields are sent empty', () => {
    const ctx: CallbackContext = { password: PASSWORD, protocolMapping: protocolMapping({ fields: ['brand', 'card', 'checkout_payment_method'] }) };
    const body = callback([initiated()], settled, ctx);
    expect(body).to.include({ brand: 'sb-redirect', checkout_payment_method: 'sb-redirect' });
    expect(body).not.to.have.property('card');
  });
});
