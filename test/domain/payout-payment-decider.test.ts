/**
 * A payout (CREDIT2VIRTUAL) as the payment decider sees it: a payment of kind `credit` made with a
 * payout method, answered PREPARE while its provider decides, and never captured, voided or
 * refunded (docs/payouts.md#how-it-works: 204005).
 */
import type { InitiatePayment } from '../../src/domain/payment/commands';
import { decidePayment } from '../../src/domain/payment/decide';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { evolvePayment, initialPaymentState } from '../../src/domain/payment/state';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for({ decide: decidePayment, evolve: evolvePayment, initialState: initialPaymentState });

const PAYMENT_ID = '6e2b8c1e-3f4a-4b5c-9d6e-7f8a9b0c1d2e';
const T0 = '2025-03-01T10:00:00.000Z';
const T1 = '2025-03-01T10:00:01.000Z';
const OP = 'b1000000-0000-4000-8000-000000000001';

const initiate: InitiatePayment = {
  type: 'InitiatePayment',
  data: {
    paymentId: PAYMENT_ID,
    merchantId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    channel: 's2s_apm',
    kind: 'credit',
    orderId: 'ORDER-2001',
    orderDescription: '',
    currency: 'KES',
    amount: 150_000,
    amountText: '1500.00',
    method: { brand: 'sb-momo', parameters: { mobile_money_operator: 'safaricom-ke', mobile_number: '254712345678', customer_email: 'payee@example.com' } },
    payer: { firstName: 'Ama', lastName: 'Mensah', email: 'ama@example.com' },
    termUrl3ds: null,
    notificationUrl: null,
    customData: null,
    parameters: null,
    recurringInit: false,
    connector: 'sandbox-apm',
    now: T0,
  },
};
const initiated = spec.given([]).when(initiate).events();
const settled: PaymentEvent = { type: 'PaymentSettled', data: { paymentId: PAYMENT_ID, amount: 150_000, descriptor: 'SANDBOX*APM', reference: 'r', settledAt: T1 } };
const pending: PaymentEvent = { type: 'PaymentPending', data: { paymentId: PAYMENT_ID, reference: 'r', pendingAt: T1 } };

describe('payment decider: payouts', () => {
  it('Given a payout initiated, When its provider accepts it to decide later, Then it stands as PREPARE, not PENDING', () => {
    spec.given(initiated).when({ type: 'RecordAuthorization', data: { result: { outcome: 'pending', reference: 'r' }, now: T1 } }).thenState({ phase: 'awaiting_provider', status: 'PREPARE' });
  });

  it('Given a payout waiting for its provider, When the provider settles it, Then it is SETTLED', () => {
    spec
      .given([...initiated, pending])
      .when({ type: 'RecordProviderNotification', data: { result: { outcome: 'success', reference: 'r', descriptor: 'SANDBOX*APM' }, now: T1 } })
      .thenState({ phase: 'settled', status: 'SETTLED', settledAmount: 150_000 });
  });

  for (const [name, command] of [
    ['CAPTURE', { type: 'RequestCapture', data: { operationId: OP, now: T1 } }],
    ['VOID', { type: 'RequestVoid', data: { operationId: OP, now: T1 } }],
    ['CREDITVOID', { type: 'RequestCreditVoid', data: { operationId: OP, amount: 100, amountText: '1.00', refundsEnabled: true, now: T1 } }],
    ['a Checkout refund', { type: 'RequestRefund', data: { operationId: OP, amount: 100, amountText: '1.00', refundsEnabled: true, now: T1 } }],
  ] as const) {
    it(`Given a settled payout, When ${name} is asked, Then the action is not supported`, () => {
      spec.given([...initiated, settled]).when(command).thenThrows('action_not_supported', 'Payment action not supported');
    });

    it(`Given a payout still waiting for its provider, When ${name} is asked, Then the action is not supported`, () => {
      spec.given([...initiated, pending]).when(command).thenThrows('action_not_supported');
    });
  }
});
