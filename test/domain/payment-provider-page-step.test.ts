/**
 * A provider's page that shows the payer something (payment details) or takes something from them
 * (a one-time code): the payment records it with the page, so a page of the gateway's own (the
 * hosted Checkout page) can stand in for the provider's; once decided, nothing of it is kept.
 */
import type { InitiatePayment, PaymentCommand } from '../../src/domain/payment/commands';
import { decidePayment } from '../../src/domain/payment/decide';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { evolvePayment, initialPaymentState } from '../../src/domain/payment/state';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for({ decide: decidePayment, evolve: evolvePayment, initialState: initialPaymentState });

const PAYMENT_ID = '3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const T0 = '2030-05-01T12:00:00.000Z';
const T1 = '2030-05-01T12:00:01.000Z';
const T2 = '2030-05-01T12:00:20.000Z';
const PAGE = 'https://gateway.test/sandbox/provider/3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f?return=x&sig=y';
const REFERENCE = 'sbapm_redirect_00112233445566aa';

const initiate: InitiatePayment['data'] = {
  paymentId: PAYMENT_ID,
  merchantId: 'merchant-1',
  channel: 'checkout',
  kind: 'sale',
  orderId: 'ORDER-9',
  orderDescription: 'Two paperbacks',
  currency: 'USD',
  amount: 1050,
  amountText: '10.50',
  method: { brand: 'sb-otp', parameters: { phone: '+441234567890' } },
  payer: { email: 'doe@example.com' },
  termUrl3ds: null,
  notificationUrl: null,
  customData: null,
  parameters: null,
  recurringInit: false,
  connector: 'sandbox-apm',
  now: T0,
};
const { now: _now, ...initiatedData } = initiate;
const initiated: PaymentEvent = { type: 'PaymentInitiated', data: { ...initiatedData, initiatedAt: T0 } };

const record = (result: Extract<PaymentCommand, { type: 'RecordAuthorization' }>['data']['result']): PaymentCommand => ({
  type: 'RecordAuthorization',
  data: { result, now: T1 },
});

describe('payment decider, a provider page that shows or takes something', () => {
  it('Given a method payment, When the provider\'s page takes a one-time code, Then the redirect records it and the payer action says so, with what the page shows', () => {
    spec
      .given([initiated])
      .when(record({ outcome: 'redirect', reference: REFERENCE, redirectUrl: PAGE, collects: 'otp', instructions: { phone: '+441234567890' } }))
      .then([
        {
          type: 'PayerRedirectRequired',
          data: { paymentId: PAYMENT_ID, redirectUrl: PAGE, instructions: { phone: '+441234567890' }, collects: 'otp', reference: REFERENCE, requiredAt: T1 },
        },
      ])
      .thenState({
        phase: 'awaiting_redirect',
        status: 'REDIRECT',
        payerAction: { kind: 'redirect', url: PAGE, params: {}, collects: 'otp' },
        providerInstructions: { phone: '+441234567890' },
      });
  });

  it('Given a provider page showing payment details, When the payment is decided, Then the details are no longer kept', () => {
    const shown: PaymentEvent = {
      type: 'PayerRedirectRequired',
      data: { paymentId: PAYMENT_ID, redirectUrl: PAGE, instructions: { iban: 'XX00' }, reference: REFERENCE, requiredAt: T1 },
    };
    spec
      .given([initiated, shown])
      .when({ type: 'RecordProviderNotification', data: { result: { outcome: 'success', reference: REFERENCE, descriptor: 'SANDBOX*APM' }, now: T2 } })
      .thenState({ phase: 'settled', providerInstructions: undefined, payerAction: null });
  });

  it('Given a redirect without anything shown or taken, Then its event and state are as before', () => {
    spec
      .given([initiated])
      .when(record({ outcome: 'redirect', reference: REFERENCE, redirectUrl: PAGE, instructions: {} }))
      .then([{ type: 'PayerRedirectRequired', data: { paymentId: PAYMENT_ID, redirectUrl: PAGE, reference: REFERENCE, requiredAt: T1 } }])
      .thenState({ payerAction: { kind: 'redirect', url: PAGE, params: {} }, providerInstructions: undefined });
  });
});
