/**
 * The S2S APM answer shapes for the states an HTTP test cannot reach with the sandbox: a provider
 * that has not answered (UNDEFINED/PREPARE), and a repeat of a SALE arriving after later operations.
 */
import { expect } from 'chai';
import { apmSaleResponse } from '../../src/api/s2s/apm-responses';
import { viewOf } from '../../src/api/s2s/responses';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { foldPayment, type ExistingPayment } from '../../src/domain/payment/state';

const ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const AT = '2025-03-01T12:00:00.000Z';
const initiated: PaymentEvent = {
  type: 'PaymentInitiated',
  data: {
    paymentId: ID,
    merchantId: 'm',
    channel: 's2s_apm',
    kind: 'sale',
    orderId: 'O-1',
    orderDescription: 'd',
    currency: 'XOF',
    amount: 5000,
    amountText: '5000',
    method: { brand: 'sb-redirect', parameters: {} },
    payer: {},
    termUrl3ds: null,
    notificationUrl: null,
    customData: null,
    parameters: null,
    recurringInit: false,
    connector: 'sandbox-apm',
    initiatedAt: AT,
  },
};
const answer = (events: PaymentEvent[]) => apmSaleResponse(viewOf(foldPayment(events) as ExistingPayment));

describe('S2S APM answers', () => {
  it('Given a payment whose provider has not answered (or whose answer was lost), Then UNDEFINED/PREPARE with the amount as sent', () => {
    const expected = { action: 'SALE', result: 'UNDEFINED', status: 'PREPARE', order_id: 'O-1', trans_id: ID, trans_date: '2025-03-01 12:00:00', amount: '5000', currency: 'XOF' };
    expect(answer([initiated])).to.deep.equal(expected);
    expect(answer([initiated, { type: 'PaymentOutcomeUnknown', data: { paymentId: ID, detail: 'timeout', at: AT } }])).to.deep.equal(expected);
  });

  it('Given a repeat after the payment was refunded, Then SUCCESS with where it stands now', () => {
    const events: PaymentEvent[] = [
      initiated,
      { type: 'PaymentSettled', data: { paymentId: ID, amount: 5000, descriptor: 'D', settledAt: AT } },
      { type: 'CreditVoidRequested', data: { paymentId: ID, operationId: 'op', kind: 'refund', amount: 5000, amountText: '5000', requestedAt: AT } },
      { type: 'RefundSucceeded', data: { paymentId: ID, operationId: 'op', amount: 5000, refundedAt: AT } },
    ];
    expect(answer(events)).to.include({ result: 'SUCCESS', status: 'REFUND' });
  });
});
