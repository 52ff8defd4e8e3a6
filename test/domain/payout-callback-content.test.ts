/**
 * A payout's callback (docs/reference/callbacks.md#payout-callbacks): given a payout's events, when one of them is told to the
 * merchant, then the fields in order and the payout family's hash, checked against the §8 test
 * vector (trans_id c3b0f6a2-7d5e-11ef-9f3a-0242ac120002, order ORDER-2001, SETTLED, the §7 password).
 */
import { expect } from 'chai';
import { callbackFieldsFor } from '../../src/domain/callback/callback-content';
import { noProtocolMapping } from '../../src/domain/merchant/protocol-mapping';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { evolvePayment, initialPaymentState, type ExistingPayment } from '../../src/domain/payment/state';
import { payoutCallbackHash } from '../../src/domain/signatures';

const TRANS_ID = 'c3b0f6a2-7d5e-11ef-9f3a-0242ac120002';
const PASSWORD = '13a4822c5907ed235f3a068c76184fc3';
const ctx = { password: PASSWORD, protocolMapping: noProtocolMapping() };

const initiated: PaymentEvent = {
  type: 'PaymentInitiated',
  data: {
    paymentId: TRANS_ID,
    merchantId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    channel: 's2s_apm',
    kind: 'credit',
    orderId: 'ORDER-2001',
    orderDescription: '',
    currency: 'XAF',
    amount: 25_000,
    amountText: '25000',
    method: { brand: 'sb-momo', parameters: { mobile_money_operator: 'mtn-cm', mobile_number: '237671234567', customer_email: 'payee@example.com' } },
    payer: { firstName: 'Ama', lastName: 'Mensah', email: 'ama@example.com' },
    termUrl3ds: null,
    notificationUrl: null,
    customData: null,
    parameters: null,
    recurringInit: false,
    connector: 'sandbox-apm',
    initiatedAt: '2025-03-01T10:00:00.000Z',
  },
} as unknown as PaymentEvent;

const fold = (events: PaymentEvent[]) => events.reduce(evolvePayment, initialPaymentState()) as ExistingPayment;
const fieldsAfter = (events: PaymentEvent[]) => {
  const last = events[events.length - 1]!;
  return callbackFieldsFor(last, fold(events), ctx);
};

describe('payout callback content', () => {
  it('Given a payout settled, Then CREDIT2VIRTUAL SUCCESS/SETTLED, the amount without decimals in XAF, and the §8 vector hash', () => {
    const settled: PaymentEvent = { type: 'PaymentSettled', data: { paymentId: TRANS_ID, amount: 25_000, descriptor: 'SANDBOX*APM', reference: 'r', settledAt: '2025-03-01T10:00:05.000Z' } };
    expect(fieldsAfter([initiated, settled])).to.deep.equal([
      ['action', 'CREDIT2VIRTUAL'],
      ['result', 'SUCCESS'],
      ['status', 'SETTLED'],
      ['order_id', 'ORDER-2001'],
      ['trans_id', TRANS_ID],
      ['trans_date', '2025-03-01 10:00:05'],
      ['amount', '25000'],
      ['currency', 'XAF'],
      ['hash', '2e9ad43836d4fbae5059662854083dd4'],
    ]);
  });

  it('Given a payout declined, Then DECLINED/DECLINED with its reason, hashed over DECLINED (not the vector)', () => {
    const declined: PaymentEvent = { type: 'PaymentDeclined', data: { paymentId: TRANS_ID, reason: 'Insufficient payout balance', declinedAt: '2025-03-01T10:00:01.000Z' } } as PaymentEvent;
    const fields = fieldsAfter([initiated, declined])!;
    expect(fields.map(([name]) => name)).to.deep.equal(['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency', 'decline_reason', 'hash']);
    expect(Object.fromEntries(fields)).to.include({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Insufficient payout balance' });
    expect(Object.fromEntries(fields).hash).to.match(/^[0-9a-f]{32}$/).and.not.equal('2e9ad43836d4fbae5059662854083dd4');
  });

  it('Given a payout the provider accepted to decide later, or has not answered, Then UNDEFINED/PREPARE, as the answer said, hashed over PREPARE', () => {
    const pending: PaymentEvent = { type: 'PaymentPending', data: { paymentId: TRANS_ID, reference: 'r', pendingAt: '2025-03-01T10:00:01.000Z' } };
    const prepare = [
      ['action', 'CREDIT2VIRTUAL'],
      ['result', 'UNDEFINED'],
      ['status', 'PREPARE'],
      ['order_id', 'ORDER-2001'],
      ['trans_id', TRANS_ID],
      ['trans_date', '2025-03-01 10:00:01'],
      ['amount', '25000'],
      ['currency', 'XAF'],
      ['hash', payoutCallbackHash({ transId: TRANS_ID, orderId: 'ORDER-2001', status: 'PREPARE', password: PASSWORD })],
    ];
    expect(fieldsAfter([initiated, pending])).to.deep.equal(prepare);
    const unknown = { type: 'PaymentOutcomeUnknown', data: { paymentId: TRANS_ID, detail: 'timeout', at: '2025-03-01T10:00:01.000Z' } } as unknown as PaymentEvent;
    expect(fieldsAfter([initiated, unknown])).to.deep.equal(prepare);
  });
});
