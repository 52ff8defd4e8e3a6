/** The payment decider for what Checkout adds: debit and credit kinds, and refunds that never release holds. */
import type { PaymentCommand } from '../../src/domain/payment/commands';
import { decidePayment } from '../../src/domain/payment/decide';
import type { PaymentEvent, PaymentInitiated, PaymentKind } from '../../src/domain/payment/events';
import { evolvePayment, initialPaymentState, type PaymentState } from '../../src/domain/payment/state';
import { postEvent, type LedgerPayment } from '../../src/domain/ledger/posting-rules';
import { DeciderSpecification } from '../support/decider-spec';
import { expect } from 'chai';

const spec = DeciderSpecification.for<PaymentCommand, PaymentState, PaymentEvent>({
  decide: decidePayment,
  evolve: evolvePayment,
  initialState: initialPaymentState,
});

const ID = '9d2f1a3b-4c5d-4e6f-8a7b-1c2d3e4f5a6b';
const OP = 'a1000000-0000-4000-8000-000000000001';
const T0 = '2026-04-01T10:00:00.000Z';
const T1 = '2026-04-01T10:00:01.000Z';
const T2 = '2026-04-01T11:00:00.000Z';

const initiated = (kind: PaymentKind): PaymentInitiated => ({
  type: 'PaymentInitiated',
  data: {
    paymentId: ID,
    merchantId: 'm-1',
    channel: 'checkout',
    kind,
    orderId: 'order-7',
    orderDescription: 'Checkout order',
    currency: 'EUR',
    amount: 2500,
    amountText: '25.00',
    card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: 'tok-1' },
    payer: { email: 'doe@example.com' },
    termUrl3ds: null,
    notificationUrl: null,
    customData: null,
    parameters: null,
    recurringInit: false,
    connector: 'sandbox',
    checkout: { sessionId: '5b0c8f3e-2d1a-4c7b-9e6f-0a1b2c3d4e5f', operation: kind === 'credit' ? 'credit' : 'debit', attempt: 1, hostedFields: false },
    initiatedAt: T0,
  },
});
const settled: PaymentEvent = { type: 'PaymentSettled', data: { paymentId: ID, amount: 2500, descriptor: 'SHOP', settledAt: T1 } };
const authorized: PaymentEvent = { type: 'PaymentAuthorized', data: { paymentId: ID, amount: 2500, descriptor: 'SHOP', authorizedAt: T1 } };
const refund = (amount: number, refundsEnabled = true): PaymentCommand => ({
  type: 'RequestRefund',
  data: { operationId: OP, amount, amountText: (amount / 100).toFixed(2), refundsEnabled, now: T2 },
});

describe('Checkout payments in the payment decider', () => {
  it('settles a debit and a credit at once, like a sale', () => {
    for (const kind of ['debit', 'credit'] as const) {
      spec
        .given([initiated(kind)])
        .when({ type: 'RecordAuthorization', data: { result: { outcome: 'success', descriptor: 'SHOP' }, now: T1 } })
        .then([settled]);
    }
  });

  it('refunds settled money, in part or in full, as a refund request', () => {
    spec
      .given([initiated('debit'), settled])
      .when(refund(1000))
      .then([{ type: 'CreditVoidRequested', data: { paymentId: ID, operationId: OP, kind: 'refund', amount: 1000, amountText: '10.00', requestedAt: T2 } }]);
  });

  it('never refunds a hold, a credit, a merchant without refunds, or more than is left', () => {
    spec.given([initiated('authorization'), authorized]).when(refund(1000)).thenThrows('refund_not_allowed');
    spec.given([initiated('credit'), settled]).when(refund(1000)).thenThrows('refund_not_allowed');
    spec.given([initiated('debit'), settled]).when(refund(1000, false)).thenThrows('refund_not_allowed');
    spec.given([initiated('debit'), settled]).when(refund(2501)).thenThrows('amount_exceeds_available');
    spec.given([initiated('debit'), settled]).when(refund(0)).thenThrows('amount_not_positive');
  });

  it('does not void or credit-void a payout', () => {
    spec.given([initiated('credit'), settled]).when({ type: 'RequestVoid', data: { operationId: OP, now: T2 } }).thenThrows('void_not_allowed');
    spec
      .given([initiated('credit'), settled])
      .when({ type: 'RequestCreditVoid', data: { operationId: OP, amount: 100, amountText: '1.00', refundsEnabled: true, now: T2 } })
      .thenThrows('refund_not_allowed');
  });
});

describe('ledger postings of Checkout payments', () => {
  it('pays a credit out of the merchant\'s money (paid out), and moves a debit from the payer to the merchant', () => {
    const post = (kind: PaymentKind) => {
      const start = postEvent(null, initiated(kind));
      return postEvent(start.payment as LedgerPayment, settled).lines;
    };
    expect(post('credit')).to.deep.equal([
      { account: 'merchant_receivable', amount: -2500 },
      { account: 'paid_out', amount: 2500 },
    ]);
    expect(post('debit')).to.deep.equal([
      { account: 'payer_funds', amount: -2500 },
      { account: 'merchant_receivable', amount: 2500 },
    ]);
  });
});
