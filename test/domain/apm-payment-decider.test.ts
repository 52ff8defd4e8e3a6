/**
 * The payment decider for payments made with an alternative method (S2S APM): no card, a method
 * instead; answers that send the payer to a page, show a QR code or leave the decision to the
 * provider; the provider's later notifications, duplicates and late ones included; the QR code's
 * lifetime; and the follow-ups with their APM rules (docs/reference/s2s-apm.md#follow-ups).
 */
import type { AuthorizationResult, InitiatePayment, PaymentCommand } from '../../src/domain/payment/commands';
import { decidePayment } from '../../src/domain/payment/decide';
import type { PaymentEvent, PaymentKind } from '../../src/domain/payment/events';
import { evolvePayment, initialPaymentState } from '../../src/domain/payment/state';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for({ decide: decidePayment, evolve: evolvePayment, initialState: initialPaymentState });

const PAYMENT_ID = '5d2b8c1e-3f4a-4b5c-9d6e-7f8a9b0c1d2e';
const MERCHANT_ID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const T0 = '2025-03-01T10:00:00.000Z';
const T1 = '2025-03-01T10:00:01.000Z';
const T2 = '2025-03-01T10:00:30.000Z';
const T3 = '2025-03-01T10:01:05.000Z'; // after a 60 s QR code's lifetime
const NEXT_DAY = '2025-03-02T09:00:00.000Z';
const OP1 = 'b1000000-0000-4000-8000-000000000001';
const REFERENCE = 'sbapm_redirect_0123456789abcdef';
const PAGE = 'https://gateway.test/sandbox/provider/5d2b8c1e-3f4a-4b5c-9d6e-7f8a9b0c1d2e?ref=x';
const QR_EXPIRES = '2025-03-01T10:01:01.000Z';

function initiate(brand = 'sb-redirect', kind: PaymentKind = 'sale'): InitiatePayment {
  return {
    type: 'InitiatePayment',
    data: {
      paymentId: PAYMENT_ID,
      merchantId: MERCHANT_ID,
      channel: 's2s_apm',
      kind,
      orderId: 'ORDER-APM-1',
      orderDescription: 'Concert tickets',
      currency: 'EUR',
      amount: 2500,
      amountText: '25.00',
      method: { brand, parameters: {}, identifier: 'payer-42', returnUrl: 'https://shop.test/back' },
      payer: { email: 'ada@example.test', ip: '203.0.113.9' },
      termUrl3ds: null,
      notificationUrl: null,
      customData: null,
      parameters: null,
      recurringInit: false,
      connector: 'sandbox-apm',
      now: T0,
    },
  };
}

const initiated = (brand?: string, kind?: PaymentKind): PaymentEvent[] => {
  const { now, ...data } = initiate(brand, kind).data;
  return [{ type: 'PaymentInitiated', data: { ...data, initiatedAt: now } }];
};

const record = (result: AuthorizationResult, now = T1): PaymentCommand => ({ type: 'RecordAuthorization', data: { result, now } });
const notify = (result: AuthorizationResult, now = T2): PaymentCommand => ({ type: 'RecordProviderNotification', data: { result, now } });
const expire = (now: string, reason: string): PaymentCommand => ({ type: 'ExpirePayerAction', data: { now, reason } });

const settled: PaymentEvent = { type: 'PaymentSettled', data: { paymentId: PAYMENT_ID, amount: 2500, descriptor: 'SANDBOX APM', reference: REFERENCE, settledAt: T1 } };
const redirected: PaymentEvent = { type: 'PayerRedirectRequired', data: { paymentId: PAYMENT_ID, redirectUrl: PAGE, reference: REFERENCE, requiredAt: T1 } };
const qrShown: PaymentEvent = {
  type: 'PayerRedirectRequired',
  data: { paymentId: PAYMENT_ID, redirectUrl: PAGE, display: 'qr', params: { qr_code: 'MDAwMjAx' }, expiresAt: QR_EXPIRES, reference: REFERENCE, requiredAt: T1 },
};
const pending: PaymentEvent = {
  type: 'PaymentPending',
  data: { paymentId: PAYMENT_ID, instructions: { crypto_address: '0xabc', crypto_network: 'eth' }, reference: REFERENCE, pendingAt: T1 },
};
const declined: PaymentEvent = {
  type: 'PaymentDeclined',
  data: { paymentId: PAYMENT_ID, reason: 'Declined by the payment provider', code: 'redirect_declined', stage: 'redirect', reference: REFERENCE, declinedAt: T2 },
};

describe('payment decider, alternative methods', () => {
  describe('InitiatePayment', () => {
    it('Given nothing, When a method payment is initiated, Then it records the method and no card, and stands at PREPARE', () => {
      spec
        .given([])
        .when(initiate())
        .then(initiated())
        .thenState({ phase: 'initiated', status: 'PREPARE', card: undefined, method: { brand: 'sb-redirect', parameters: {}, identifier: 'payer-42', returnUrl: 'https://shop.test/back' } });
    });
  });

  describe('RecordAuthorization', () => {
    it('Given an initiated method payment, When the provider settles it at once, Then it is SETTLED on that day', () => {
      spec
        .given(initiated())
        .when(record({ outcome: 'success', reference: REFERENCE, descriptor: 'SANDBOX APM' }))
        .then([{ ...settled }])
        .thenState({ phase: 'settled', status: 'SETTLED', settledAt: T1, acquirerReference: REFERENCE });
    });

    it('Given an initiated method payment, When the provider sends the payer to its page, Then it is REDIRECT with no form fields', () => {
      spec
        .given(initiated())
        .when(record({ outcome: 'redirect', reference: REFERENCE, redirectUrl: PAGE }))
        .then([redirected])
        .thenState({ phase: 'awaiting_redirect', status: 'REDIRECT', payerAction: { kind: 'redirect', url: PAGE, params: {} } });
    });

    it('Given an initiated method payment, When the provider shows a QR code, Then it is PENDING with the code and its lifetime', () => {
      spec
        .given(initiated('sb-qr'))
        .when(record({ outcome: 'redirect', reference: REFERENCE, redirectUrl: PAGE, display: 'qr', params: { qr_code: 'MDAwMjAx' }, expiresAt: QR_EXPIRES }))
        .then([qrShown])
        .thenState({
          phase: 'awaiting_redirect',
          status: 'PENDING',
          payerAction: { kind: 'redirect', url: PAGE, params: { qr_code: 'MDAwMjAx' }, display: 'qr' },
          expiresAt: QR_EXPIRES,
        });
    });

    it('Given an initiated method payment, When the provider accepts it and waits for the payer, Then it awaits the provider, PENDING, with the instructions', () => {
      spec
        .given(initiated('sb-crypto'))
        .when(record({ outcome: 'pending', reference: REFERENCE, instructions: { crypto_address: '0xabc', crypto_network: 'eth' } }))
        .then([pending])
        .thenState({ phase: 'awaiting_provider', status: 'PENDING', providerInstructions: { crypto_address: '0xabc', crypto_network: 'eth' } });
    });

    it('Given an initiated method payment, When the provider does not answer, Then it stays PREPARE', () => {
      spec
        .given(initiated())
        .when(record({ outcome: 'unknown', detail: 'timeout' }))
        .then([{ type: 'PaymentOutcomeUnknown', data: { paymentId: PAYMENT_ID, detail: 'timeout', at: T1 } }])
        .thenState({ phase: 'outcome_unknown', status: 'PREPARE' });
    });

    it('Given a method payment its provider already decided by a notification, When the provider\'s own answer arrives, Then nothing is recorded', () => {
      spec.given([...initiated(), { ...settled }]).when(record({ outcome: 'pending', reference: REFERENCE })).thenNothing();
      spec.given([...initiated(), { ...settled }]).when(record({ outcome: 'redirect', reference: REFERENCE, redirectUrl: PAGE })).thenNothing();
    });

    it('Given a method payment a notification already said is pending, When the provider\'s own answer shows a QR code, Then the code is still shown', () => {
      spec
        .given([...initiated('sb-qr'), pending])
        .when(record({ outcome: 'redirect', reference: REFERENCE, redirectUrl: PAGE, display: 'qr', params: { qr_code: 'MDAwMjAx' }, expiresAt: QR_EXPIRES }))
        .thenState({ phase: 'awaiting_redirect', status: 'PENDING', expiresAt: QR_EXPIRES });
    });
  });

  describe('RecordProviderNotification', () => {
    for (const [name, history] of [
      ['awaiting the payer on the provider page', [redirected]],
      ['showing a QR code', [qrShown]],
      ['awaiting the provider', [pending]],
    ] as const) {
      it(`Given a method payment ${name}, When the provider notifies success, Then it settles and the payer's step is over`, () => {
        spec
          .given([...initiated(), ...history])
          .when(notify({ outcome: 'success', reference: REFERENCE, descriptor: 'SANDBOX APM' }))
          .then([{ type: 'PaymentSettled', data: { paymentId: PAYMENT_ID, amount: 2500, descriptor: 'SANDBOX APM', reference: REFERENCE, settledAt: T2 } }])
          .thenState({ phase: 'settled', status: 'SETTLED', payerAction: null, expiresAt: undefined, providerInstructions: undefined });
      });
    }

    it('Given a method payment on the provider page, When the provider notifies a decline, Then it is declined at the redirect stage', () => {
      spec
        .given([...initiated(), redirected])
        .when(notify({ outcome: 'declined', reference: REFERENCE, reason: 'Declined by the payment provider' }))
        .then([declined])
        .thenState({ phase: 'declined', status: 'DECLINED', declineReason: 'Declined by the payment provider' });
    });

    it('Given a method payment awaiting the provider, When the provider notifies a decline, Then it is declined at the authorization stage', () => {
      spec
        .given([...initiated('sb-app'), pending])
        .when(notify({ outcome: 'declined', reference: REFERENCE, reason: 'Rejected by the bank' }))
        .then([
          {
            type: 'PaymentDeclined',
            data: { paymentId: PAYMENT_ID, reason: 'Rejected by the bank', code: 'do_not_honor', stage: 'authorization', reference: REFERENCE, declinedAt: T2 },
          },
        ]);
    });

    it('Given a QR payment, When the provider notifies it is still pending, Then nothing is recorded', () => {
      spec.given([...initiated('sb-qr'), qrShown]).when(notify({ outcome: 'pending', reference: REFERENCE })).thenNothing();
    });

    it('Given an initiated method payment, When the provider notifies before its own answer was recorded, Then the notification decides', () => {
      spec
        .given(initiated())
        .when(notify({ outcome: 'success', reference: REFERENCE, descriptor: 'SANDBOX APM' }))
        .thenState({ phase: 'settled', status: 'SETTLED' });
    });

    for (const [name, history] of [
      ['settled', [settled]],
      ['declined', [redirected, declined]],
    ] as const) {
      for (const result of [
        { outcome: 'success', reference: REFERENCE, descriptor: 'X' },
        { outcome: 'declined', reference: REFERENCE, reason: 'late' },
        { outcome: 'pending', reference: REFERENCE },
      ] as AuthorizationResult[]) {
        it(`Given a ${name} method payment, When a duplicate or late notification (${result.outcome}) arrives, Then nothing changes`, () => {
          spec.given([...initiated(), ...history]).when(notify(result)).thenNothing();
        });
      }
    }

    it('Given a method payment on the provider page, When a notification names another page, Then nothing is recorded (a notification never sends the payer anywhere)', () => {
      spec.given([...initiated(), redirected]).when(notify({ outcome: 'redirect', reference: REFERENCE, redirectUrl: 'https://elsewhere.test' })).thenNothing();
    });

    it('Given no payment, When a notification arrives, Then it is payment_not_found', () => {
      spec.given([]).when(notify({ outcome: 'success', reference: REFERENCE, descriptor: 'X' })).thenThrows('payment_not_found');
    });
  });

  describe('ExpirePayerAction', () => {
    it("Given a QR code still within its lifetime, When the expiry asks, Then it is refused: the payer still has time", () => {
      spec.given([...initiated('sb-qr'), qrShown]).when(expire(T2, 'QR code expired')).thenThrows('unexpected_outcome');
    });

    it('Given a QR code past its lifetime, When the expiry asks, Then the payment is declined: QR code expired', () => {
      spec
        .given([...initiated('sb-qr'), qrShown])
        .when(expire(T3, 'QR code expired'))
        .then([{ type: 'PaymentDeclined', data: { paymentId: PAYMENT_ID, reason: 'QR code expired', code: 'payer_timeout', stage: 'timeout', declinedAt: T3 } }])
        .thenState({ status: 'DECLINED', declineReason: 'QR code expired', expiresAt: undefined });
    });

    it('Given a payment awaiting its provider, When the payer-action timeout passes, Then it is declined', () => {
      spec
        .given([...initiated('sb-app'), pending])
        .when(expire(T3, 'The payer did not confirm the payment in time'))
        .thenState({ phase: 'declined', status: 'DECLINED', declineCode: 'payer_timeout' });
    });
  });

  describe('follow-ups', () => {
    it('Given a settled method payment, When VOID is asked on its settlement day, Then the void is requested', () => {
      spec
        .given([...initiated(), settled])
        .when({ type: 'RequestVoid', data: { operationId: OP1, now: T2 } })
        .then([{ type: 'VoidRequested', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: 2500, requestedAt: T2 } }]);
    });

    it('Given a settled method payment, When VOID is asked the next day (UTC), Then Void is not allowed', () => {
      spec.given([...initiated(), settled]).when({ type: 'RequestVoid', data: { operationId: OP1, now: NEXT_DAY } }).thenThrows('void_not_allowed', 'Void is not allowed.');
    });

    it('Given a method payment awaiting its provider, When VOID is asked, Then Void is not allowed', () => {
      spec.given([...initiated('sb-app'), pending]).when({ type: 'RequestVoid', data: { operationId: OP1, now: T2 } }).thenThrows('void_not_allowed');
    });

    it('Given a method payment awaiting its provider, When CAPTURE is asked, Then it is not a pending authorization (208003)', () => {
      spec.given([...initiated('sb-app'), pending]).when({ type: 'RequestCapture', data: { operationId: OP1, now: T2 } }).thenThrows('capture_not_allowed');
    });

    it('Given a method authorization (a hold), When it is captured, Then it settles and a VOID that day is allowed', () => {
      const authorized: PaymentEvent = { type: 'PaymentAuthorized', data: { paymentId: PAYMENT_ID, amount: 2500, descriptor: 'W', reference: REFERENCE, authorizedAt: T1 } };
      const captured: PaymentEvent[] = [
        { type: 'CaptureRequested', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: 2500, amountText: '25.00', requestedAt: T2 } },
        { type: 'CaptureSucceeded', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: 2500, amountText: '25.00', capturedAt: T2 } },
      ];
      spec
        .given([...initiated('wallet', 'authorization'), authorized, ...captured])
        .when({ type: 'RequestVoid', data: { operationId: 'b2000000-0000-4000-8000-000000000002', now: T3 } })
        .thenState({ pendingOperation: { operationId: 'b2000000-0000-4000-8000-000000000002', kind: 'void', amount: 2500, amountText: '25.00' } });
    });

    it('Given a method authorization, When CREDITVOID releases it, Then it is a reversal (status REVERSAL once recorded)', () => {
      const authorized: PaymentEvent = { type: 'PaymentAuthorized', data: { paymentId: PAYMENT_ID, amount: 2500, descriptor: 'W', reference: REFERENCE, authorizedAt: T1 } };
      spec
        .given([
          ...initiated('wallet', 'authorization'),
          authorized,
          { type: 'CreditVoidRequested', data: { paymentId: PAYMENT_ID, operationId: OP1, kind: 'reversal', amount: 2500, amountText: '25.00', requestedAt: T2 } },
        ])
        .when({ type: 'RecordCreditVoid', data: { operationId: OP1, result: { outcome: 'success' }, now: T2 } })
        .thenState({ status: 'REVERSAL', phase: 'reversed', heldAmount: 0 });
    });

    it('Given a settled method payment, When CREDITVOID refunds part of it, Then it stays SETTLED; the rest makes it REFUND', () => {
      const partial: PaymentEvent[] = [
        { type: 'CreditVoidRequested', data: { paymentId: PAYMENT_ID, operationId: OP1, kind: 'refund', amount: 1000, amountText: '10.00', requestedAt: T2 } },
        { type: 'RefundSucceeded', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: 1000, refundedAt: T2 } },
      ];
      spec.given([...initiated(), settled, ...partial]).when({ type: 'RequestCreditVoid', data: { operationId: 'b3000000-0000-4000-8000-000000000003', amount: 1500, amountText: '15.00', refundsEnabled: true, now: T3 } }).thenState({ status: 'SETTLED' });
      spec
        .given([
          ...initiated(),
          settled,
          ...partial,
          { type: 'CreditVoidRequested', data: { paymentId: PAYMENT_ID, operationId: 'b3000000-0000-4000-8000-000000000003', kind: 'refund', amount: 1500, amountText: '15.00', requestedAt: T3 } },
        ])
        .when({ type: 'RecordCreditVoid', data: { operationId: 'b3000000-0000-4000-8000-000000000003', result: { outcome: 'success' }, now: T3 } })
        .thenState({ status: 'REFUND', refundedAmount: 2500 });
    });
  });
});
