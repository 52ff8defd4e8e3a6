import { expect } from 'chai';
import type { AuthorizationResult, FollowUpResult, InitiatePayment, PaymentCommand } from '../../src/domain/payment/commands';
import { decidePayment } from '../../src/domain/payment/decide';
import type { DeclineCode } from '../../src/domain/payment/decline-code';
import type { DeclineStage, PaymentEvent, PaymentInitiated, PaymentKind } from '../../src/domain/payment/events';
import { evolvePayment, foldPayment, initialPaymentState, type ExistingPayment, type PaymentState } from '../../src/domain/payment/state';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for({ decide: decidePayment, evolve: evolvePayment, initialState: initialPaymentState });

// ---------------------------------------------------------------------------------------------
// Fixed ids and times
// ---------------------------------------------------------------------------------------------

const PAYMENT_ID = '3f1c2a9e-7b4d-4e0a-9c61-2d5e8f7a1b30';
const MERCHANT_ID = 'b7e4d2c1-5a3f-4b6e-8d90-1c2e3f4a5b6c';
const T0 = '2024-05-01T10:00:00.000Z'; // initiated
const T1 = '2024-05-01T10:00:02.000Z'; // acquirer answered
const T2 = '2024-05-01T10:03:00.000Z'; // payer came back / first follow-up
const T3 = '2024-05-01T11:00:00.000Z'; // follow-up requested
const T4 = '2024-05-01T11:00:01.000Z'; // follow-up answered
const T5 = '2024-05-02T09:00:00.000Z'; // second follow-up requested
const T6 = '2024-05-02T09:00:01.000Z'; // second follow-up answered
const OP1 = 'a1000000-0000-4000-8000-000000000001';
const OP2 = 'a2000000-0000-4000-8000-000000000002';
const OP3 = 'a3000000-0000-4000-8000-000000000003';

const AMOUNT = 10_000; // 100.00 USD
const AMOUNT_TEXT = '100.00';
const DESCRIPTOR = 'LEDGER*SHOP';
const ACS_URL = 'https://acs.example.test/challenge';
const REDIRECT_URL = 'https://bank.example.test/approve?ref=77';
const THREE_DS_PARAMS = { PaReq: 'eJxVUttu2zAM/RVB7/EtaZoGigrXdbFhzRLEXofuZVAtIzUay', MD: 'md-3f1c2a9e', TermUrl: 'https://merchant.example.test/3ds-return' };

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

function initiate(kind: PaymentKind = 'sale'): InitiatePayment {
  return {
    type: 'InitiatePayment',
    data: {
      paymentId: PAYMENT_ID,
      merchantId: MERCHANT_ID,
      channel: 's2s_card',
      kind,
      orderId: 'ORDER-2024-0001',
      orderDescription: 'Two tickets, row 7',
      currency: 'USD',
      amount: AMOUNT,
      amountText: AMOUNT_TEXT,
      card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: null },
      payer: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.test',
        phone: '+441234567890',
        address: '12 Analytical Row',
        country: 'GB',
        city: 'London',
        zip: 'N1 9GU',
        ip: '203.0.113.7',
      },
      termUrl3ds: 'https://merchant.example.test/3ds-return',
      notificationUrl: 'https://merchant.example.test/callback',
      customData: { cart: 'c-81', gift: true },
      parameters: { locale: 'en' },
      recurringInit: false,
      connector: 'sandbox',
      now: T0,
    },
  };
}

const recordAuthorization = (result: AuthorizationResult, now = T1): PaymentCommand => ({
  type: 'RecordAuthorization',
  data: { result, now },
});
const completePayerAction = (result: AuthorizationResult, now = T2): PaymentCommand => ({
  type: 'CompletePayerAction',
  data: { result, now },
});
const expirePayerAction = (reason = 'Payer did not complete the challenge in time', now = T2): PaymentCommand => ({
  type: 'ExpirePayerAction',
  data: { reason, now },
});
const requestCapture = (operationId = OP1, amount?: number, amountText?: string, now = T3): PaymentCommand => ({
  type: 'RequestCapture',
  data: amount === undefined ? { operationId, now } : { operationId, amount, amountText, now },
});
const recordCapture = (result: FollowUpResult, operationId = OP1, now = T4): PaymentCommand => ({
  type: 'RecordCapture',
  data: { operationId, result, now },
});
const requestVoid = (operationId = OP1, now = T3): PaymentCommand => ({ type: 'RequestVoid', data: { operationId, now } });
const recordVoid = (result: FollowUpResult, operationId = OP1, now = T4): PaymentCommand => ({
  type: 'RecordVoid',
  data: { operationId, result, now },
});
const requestCreditVoid = (
  amount: number,
  amountText: string,
  { operationId = OP1, refundsEnabled = true, now = T3 }: { operationId?: string; refundsEnabled?: boolean; now?: string } = {},
): PaymentCommand => ({ type: 'RequestCreditVoid', data: { operationId, amount, amountText, refundsEnabled, now } });
const recordCreditVoid = (result: FollowUpResult, operationId = OP1, now = T4): PaymentCommand => ({
  type: 'RecordCreditVoid',
  data: { operationId, result, now },
});

const SUCCESS: AuthorizationResult = { outcome: 'success', descriptor: DESCRIPTOR };
const DECLINED: AuthorizationResult = { outcome: 'declined', reason: 'Insufficient funds' };
const CHALLENGE: AuthorizationResult = { outcome: 'challenge', acsUrl: ACS_URL, params: THREE_DS_PARAMS };
const REDIRECT: AuthorizationResult = { outcome: 'redirect', redirectUrl: REDIRECT_URL };
const UNKNOWN: AuthorizationResult = { outcome: 'unknown', detail: 'acquirer timed out after 30 s' };
const OK: FollowUpResult = { outcome: 'success' };
const LOST: FollowUpResult = { outcome: 'unknown', detail: 'connection reset' };
const refusedBy = (reason: string): FollowUpResult => ({ outcome: 'declined', reason });

// ---------------------------------------------------------------------------------------------
// Events (the past, for `given`)
// ---------------------------------------------------------------------------------------------

function initiated(kind: PaymentKind = 'sale'): PaymentInitiated {
  const { now, ...data } = initiate(kind).data;
  return { type: 'PaymentInitiated', data: { ...data, initiatedAt: now } };
}
const settledEvent = (at = T1): PaymentEvent => ({
  type: 'PaymentSettled',
  data: { paymentId: PAYMENT_ID, amount: AMOUNT, descriptor: DESCRIPTOR, settledAt: at },
});
const authorizedEvent = (at = T1): PaymentEvent => ({
  type: 'PaymentAuthorized',
  data: { paymentId: PAYMENT_ID, amount: AMOUNT, descriptor: DESCRIPTOR, authorizedAt: at },
});
const declinedEvent = (stage: DeclineStage, code: DeclineCode, reason = 'Insufficient funds', at = T1): PaymentEvent => ({
  type: 'PaymentDeclined',
  data: { paymentId: PAYMENT_ID, reason, code, stage, declinedAt: at },
});
const challengeEvent = (at = T1): PaymentEvent => ({
  type: 'ThreeDSChallengeRequired',
  data: { paymentId: PAYMENT_ID, acsUrl: ACS_URL, params: THREE_DS_PARAMS, requiredAt: at },
});
const redirectEvent = (at = T1): PaymentEvent => ({
  type: 'PayerRedirectRequired',
  data: { paymentId: PAYMENT_ID, redirectUrl: REDIRECT_URL, requiredAt: at },
});
const unknownEvent = (at = T1): PaymentEvent => ({
  type: 'PaymentOutcomeUnknown',
  data: { paymentId: PAYMENT_ID, detail: 'acquirer timed out after 30 s', at },
});
const captureRequested = (amount = AMOUNT, amountText = AMOUNT_TEXT, operationId = OP1, at = T3): PaymentEvent => ({
  type: 'CaptureRequested',
  data: { paymentId: PAYMENT_ID, operationId, amount, amountText, requestedAt: at },
});
const captureSucceeded = (amount = AMOUNT, amountText = AMOUNT_TEXT, operationId = OP1, at = T4): PaymentEvent => ({
  type: 'CaptureSucceeded',
  data: { paymentId: PAYMENT_ID, operationId, amount, amountText, capturedAt: at },
});
const captureDeclined = (amount = AMOUNT, operationId = OP1, at = T4): PaymentEvent => ({
  type: 'CaptureDeclined',
  data: { paymentId: PAYMENT_ID, operationId, amount, reason: 'Authorization expired', declinedAt: at },
});
const voidRequested = (amount = AMOUNT, operationId = OP1, at = T3): PaymentEvent => ({
  type: 'VoidRequested',
  data: { paymentId: PAYMENT_ID, operationId, amount, requestedAt: at },
});
const voidDeclined = (amount = AMOUNT, operationId = OP1, at = T4): PaymentEvent => ({
  type: 'VoidDeclined',
  data: { paymentId: PAYMENT_ID, operationId, amount, reason: 'Cut-off passed', declinedAt: at },
});
const voided = (amount = AMOUNT, operationId = OP1, at = T4): PaymentEvent => ({
  type: 'PaymentVoided',
  data: { paymentId: PAYMENT_ID, operationId, amount, voidedAt: at },
});
const creditVoidRequested = (
  kind: 'refund' | 'reversal',
  amount: number,
  amountText: string,
  operationId = OP1,
  at = T3,
): PaymentEvent => ({
  type: 'CreditVoidRequested',
  data: { paymentId: PAYMENT_ID, operationId, kind, amount, amountText, requestedAt: at },
});
const refundSucceeded = (amount: number, operationId = OP1, at = T4): PaymentEvent => ({
  type: 'RefundSucceeded',
  data: { paymentId: PAYMENT_ID, operationId, amount, refundedAt: at },
});
const refundDeclined = (amount: number, operationId = OP1, at = T4): PaymentEvent => ({
  type: 'RefundDeclined',
  data: { paymentId: PAYMENT_ID, operationId, amount, reason: 'Refund window closed', declinedAt: at },
});
const reversed = (amount: number, operationId = OP1, at = T4): PaymentEvent => ({
  type: 'AuthorizationReversed',
  data: { paymentId: PAYMENT_ID, operationId, amount, reversedAt: at },
});

// ---------------------------------------------------------------------------------------------
// Histories, one per place a payment can be in
// ---------------------------------------------------------------------------------------------

const H = {
  initiatedSale: (): PaymentEvent[] => [initiated('sale')],
  initiatedAuth: (): PaymentEvent[] => [initiated('authorization')],
  unknownSale: (): PaymentEvent[] => [initiated('sale'), unknownEvent()],
  unknownAuth: (): PaymentEvent[] => [initiated('authorization'), unknownEvent()],
  settledSale: (): PaymentEvent[] => [initiated('sale'), settledEvent()],
  declinedSale: (): PaymentEvent[] => [initiated('sale'), declinedEvent('authorization', 'insufficient_funds')],
  threeDsSale: (): PaymentEvent[] => [initiated('sale'), challengeEvent()],
  threeDsAuth: (): PaymentEvent[] => [initiated('authorization'), challengeEvent()],
  redirectSale: (): PaymentEvent[] => [initiated('sale'), redirectEvent()],
  redirectAuth: (): PaymentEvent[] => [initiated('authorization'), redirectEvent()],
  authorized: (): PaymentEvent[] => [initiated('authorization'), authorizedEvent()],
  capturePending: (): PaymentEvent[] => [...H.authorized(), captureRequested()],
  captured: (): PaymentEvent[] => [...H.capturePending(), captureSucceeded()],
  voidPending: (): PaymentEvent[] => [...H.settledSale(), voidRequested()],
  voidedSale: (): PaymentEvent[] => [...H.voidPending(), voided()],
  voidedCapture: (): PaymentEvent[] => [...H.captured(), voidRequested(AMOUNT, OP2, T5), voided(AMOUNT, OP2, T6)],
  refundPending: (): PaymentEvent[] => [...H.settledSale(), creditVoidRequested('refund', 4_000, '40.00')],
  partiallyRefunded: (): PaymentEvent[] => [...H.refundPending(), refundSucceeded(4_000)],
  refunded: (): PaymentEvent[] => [
    ...H.settledSale(),
    creditVoidRequested('refund', AMOUNT, AMOUNT_TEXT),
    refundSucceeded(AMOUNT),
  ],
  reversalPending: (): PaymentEvent[] => [...H.authorized(), creditVoidRequested('reversal', AMOUNT, AMOUNT_TEXT)],
  reversed: (): PaymentEvent[] => [...H.reversalPending(), reversed(AMOUNT)],
  partiallyReversed: (): PaymentEvent[] => [
    ...H.authorized(),
    creditVoidRequested('reversal', 4_000, '40.00'),
    reversed(4_000),
  ],
  expired3ds: (): PaymentEvent[] => [...H.threeDsSale(), declinedEvent('timeout', 'payer_timeout', 'ACS timeout', T2)],
};

type HistoryName = keyof typeof H;

const existing = (state: PaymentState): ExistingPayment => {
  if (!state.exists) throw new Error('expected an existing payment');
  return state;
};

// =============================================================================================

describe('payment decider', () => {
  describe('InitiatePayment', () => {
    it('on an empty stream records PaymentInitiated with every field and `now` as initiatedAt', () => {
      const outcome = spec
        .given([])
        .when(initiate('sale'))
        .then([
          {
            type: 'PaymentInitiated',
            data: {
              paymentId: PAYMENT_ID,
              merchantId: MERCHANT_ID,
              channel: 's2s_card',
              kind: 'sale',
              orderId: 'ORDER-2024-0001',
              orderDescription: 'Two tickets, row 7',
              currency: 'USD',
              amount: AMOUNT,
              amountText: AMOUNT_TEXT,
              card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: null },
              payer: {
                firstName: 'Ada',
                lastName: 'Lovelace',
                email: 'ada@example.test',
                phone: '+441234567890',
                address: '12 Analytical Row',
                country: 'GB',
                city: 'London',
                zip: 'N1 9GU',
                ip: '203.0.113.7',
              },
              termUrl3ds: 'https://merchant.example.test/3ds-return',
              notificationUrl: 'https://merchant.example.test/callback',
              customData: { cart: 'c-81', gift: true },
              parameters: { locale: 'en' },
              recurringInit: false,
              connector: 'sandbox',
              initiatedAt: T0,
            },
          },
        ]);
      expect(outcome.events[0].data).not.to.have.property('now');
      outcome.thenState({
        exists: true,
        phase: 'initiated',
        status: 'PENDING',
        kind: 'sale',
        heldAmount: 0,
        settledAmount: 0,
        refundedAmount: 0,
        reversedAmount: 0,
        pendingOperation: null,
        payerAction: null,
        descriptor: null,
        declineReason: null,
        initiatedAt: T0,
        updatedAt: T0,
      });
    });

    it('carries the authorization kind, a stored-card token, null urls and recurring init unchanged', () => {
      const command = initiate('authorization');
      command.data.card = { ...command.data.card!, token: 'tok_9f8e7d6c' };
      command.data.termUrl3ds = null;
      command.data.notificationUrl = null;
      command.data.customData = null;
      command.data.parameters = null;
      command.data.recurringInit = true;
      const { now, ...rest } = command.data;
      spec
        .given([])
        .when(command)
        .then([{ type: 'PaymentInitiated', data: { ...rest, initiatedAt: now } }])
        .thenState({ kind: 'authorization', recurringInit: true, card: { ...command.data.card! }, termUrl3ds: null });
    });

    for (const name of ['initiatedSale', 'settledSale', 'declinedSale', 'authorized', 'voidedSale'] as HistoryName[]) {
      it(`on an existing payment (${name}) is refused with payment_exists`, () => {
        spec.given(H[name]()).when(initiate('sale')).thenThrows('payment_exists');
      });
    }
  });

  describe('any other command on a missing payment', () => {
    const commands: PaymentCommand[] = [
      recordAuthorization(SUCCESS),
      completePayerAction(SUCCESS),
      expirePayerAction(),
      requestCapture(),
      recordCapture(OK),
      requestVoid(),
      recordVoid(OK),
      requestCreditVoid(AMOUNT, AMOUNT_TEXT),
      recordCreditVoid(OK),
    ];
    for (const command of commands) {
      it(`${command.type} is refused with payment_not_found`, () => {
        spec.given([]).when(command).thenThrows('payment_not_found');
      });
    }
  });

  describe('RecordAuthorization', () => {
    it('sale success settles the payment for the sale amount with the descriptor', () => {
      spec
        .given(H.initiatedSale())
        .when(recordAuthorization(SUCCESS))
        .then([{ type: 'PaymentSettled', data: { paymentId: PAYMENT_ID, amount: AMOUNT, descriptor: DESCRIPTOR, settledAt: T1 } }])
        .thenState({ phase: 'settled', status: 'SETTLED', settledAmount: AMOUNT, heldAmount: 0, descriptor: DESCRIPTOR, updatedAt: T1 });
    });

    it('authorization success holds the amount (status PENDING)', () => {
      spec
        .given(H.initiatedAuth())
        .when(recordAuthorization(SUCCESS))
        .then([
          { type: 'PaymentAuthorized', data: { paymentId: PAYMENT_ID, amount: AMOUNT, descriptor: DESCRIPTOR, authorizedAt: T1 } },
        ])
        .thenState({ phase: 'authorized', status: 'PENDING', heldAmount: AMOUNT, settledAmount: 0, descriptor: DESCRIPTOR });
    });

    it('declined records PaymentDeclined at stage authorization with the reason', () => {
      spec
        .given(H.initiatedSale())
        .when(recordAuthorization(DECLINED))
        .then([
          {
            type: 'PaymentDeclined',
            data: { paymentId: PAYMENT_ID, reason: 'Insufficient funds', code: 'insufficient_funds', stage: 'authorization', declinedAt: T1 },
          },
        ])
        .thenState({
          phase: 'declined',
          status: 'DECLINED',
          declineReason: 'Insufficient funds',
          declineCode: 'insufficient_funds',
          settledAmount: 0,
          heldAmount: 0,
        });
    });

    it('declined authorization (DMS) holds nothing', () => {
      spec
        .given(H.initiatedAuth())
        .when(recordAuthorization(DECLINED))
        .then([declinedEvent('authorization', 'insufficient_funds')])
        .thenState({ status: 'DECLINED', heldAmount: 0 });
    });

    it('challenge asks for 3DS with the PaReq/MD/TermUrl form parameters', () => {
      spec
        .given(H.initiatedSale())
        .when(recordAuthorization(CHALLENGE))
        .then([
          {
            type: 'ThreeDSChallengeRequired',
            data: { paymentId: PAYMENT_ID, acsUrl: ACS_URL, params: THREE_DS_PARAMS, requiredAt: T1 },
          },
        ])
        .thenState({
          phase: 'awaiting_3ds',
          status: '3DS',
          payerAction: { kind: '3ds', url: ACS_URL, params: { ...THREE_DS_PARAMS } },
        });
    });

    it('redirect sends the payer to the redirect url (status REDIRECT)', () => {
      spec
        .given(H.initiatedSale())
        .when(recordAuthorization(REDIRECT))
        .then([{ type: 'PayerRedirectRequired', data: { paymentId: PAYMENT_ID, redirectUrl: REDIRECT_URL, requiredAt: T1 } }])
        .thenState({
          phase: 'awaiting_redirect',
          status: 'REDIRECT',
          payerAction: { kind: 'redirect', url: REDIRECT_URL, params: {} },
        });
    });

    it('unknown records PaymentOutcomeUnknown and the payment stays PENDING', () => {
      spec
        .given(H.initiatedSale())
        .when(recordAuthorization(UNKNOWN))
        .then([
          { type: 'PaymentOutcomeUnknown', data: { paymentId: PAYMENT_ID, detail: 'acquirer timed out after 30 s', at: T1 } },
        ])
        .thenState({ phase: 'outcome_unknown', status: 'PENDING', settledAmount: 0, heldAmount: 0 });
    });

    it('unknown again on an outcome_unknown payment records nothing', () => {
      spec
        .given(H.unknownSale())
        .when(recordAuthorization(UNKNOWN, T2))
        .thenNothing()
        .thenState({ phase: 'outcome_unknown', status: 'PENDING', updatedAt: T1 });
    });

    it('a later success on an outcome_unknown sale settles it', () => {
      spec
        .given(H.unknownSale())
        .when(recordAuthorization(SUCCESS, T2))
        .then([settledEvent(T2)])
        .thenState({ phase: 'settled', status: 'SETTLED', settledAmount: AMOUNT });
    });

    it('a later success on an outcome_unknown authorization holds the amount', () => {
      spec
        .given(H.unknownAuth())
        .when(recordAuthorization(SUCCESS, T2))
        .then([authorizedEvent(T2)])
        .thenState({ phase: 'authorized', status: 'PENDING', heldAmount: AMOUNT });
    });

    it('a later decline on an outcome_unknown payment declines it at stage authorization', () => {
      spec
        .given(H.unknownSale())
        .when(recordAuthorization(DECLINED, T2))
        .then([declinedEvent('authorization', 'insufficient_funds', 'Insufficient funds', T2)])
        .thenState({ status: 'DECLINED' });
    });

    it('a later challenge on an outcome_unknown payment asks for 3DS', () => {
      spec
        .given(H.unknownSale())
        .when(recordAuthorization(CHALLENGE, T2))
        .then([challengeEvent(T2)])
        .thenState({ status: '3DS' });
    });

    const decided: HistoryName[] = [
      'settledSale',
      'declinedSale',
      'authorized',
      'threeDsSale',
      'redirectSale',
      'captured',
      'voidedSale',
      'refunded',
      'reversed',
    ];
    for (const name of decided) {
      for (const result of [SUCCESS, DECLINED, UNKNOWN]) {
        it(`on an already decided payment (${name}) a ${result.outcome} answer is unexpected_outcome`, () => {
          spec.given(H[name]()).when(recordAuthorization(result, T2)).thenThrows('unexpected_outcome');
        });
      }
    }
  });

  describe('CompletePayerAction', () => {
    describe('after 3DS', () => {
      it('success settles a sale and clears the payer action', () => {
        spec
          .given(H.threeDsSale())
          .when(completePayerAction(SUCCESS))
          .then([settledEvent(T2)])
          .thenState({ phase: 'settled', status: 'SETTLED', settledAmount: AMOUNT, payerAction: null, descriptor: DESCRIPTOR });
      });

      it('success on an authorization holds the amount', () => {
        spec
          .given(H.threeDsAuth())
          .when(completePayerAction(SUCCESS))
          .then([authorizedEvent(T2)])
          .thenState({ phase: 'authorized', status: 'PENDING', heldAmount: AMOUNT, payerAction: null });
      });

      it("declined declines at stage '3ds'", () => {
        spec
          .given(H.threeDsSale())
          .when(completePayerAction({ outcome: 'declined', reason: 'Authentication failed' }))
          .then([declinedEvent('3ds', '3ds_failed', 'Authentication failed', T2)])
          .thenState({ status: 'DECLINED', declineReason: 'Authentication failed', payerAction: null });
      });

      it('unknown records PaymentOutcomeUnknown (status PENDING)', () => {
        spec
          .given(H.threeDsSale())
          .when(completePayerAction(UNKNOWN))
          .then([unknownEvent(T2)])
          .thenState({ phase: 'outcome_unknown', status: 'PENDING' });
      });
    });

    describe('after a redirect', () => {
      it('success settles a sale', () => {
        spec
          .given(H.redirectSale())
          .when(completePayerAction(SUCCESS))
          .then([settledEvent(T2)])
          .thenState({ status: 'SETTLED', payerAction: null });
      });

      it('success on an authorization holds the amount', () => {
        spec
          .given(H.redirectAuth())
          .when(completePayerAction(SUCCESS))
          .then([authorizedEvent(T2)])
          .thenState({ status: 'PENDING', phase: 'authorized', heldAmount: AMOUNT });
      });

      it("declined declines at stage 'redirect'", () => {
        spec
          .given(H.redirectSale())
          .when(completePayerAction({ outcome: 'declined', reason: 'Payer cancelled' }))
          .then([declinedEvent('redirect', 'payer_cancelled', 'Payer cancelled', T2)])
          .thenState({ status: 'DECLINED', declineReason: 'Payer cancelled', declineCode: 'payer_cancelled', payerAction: null });
      });
    });

    const notAwaiting: HistoryName[] = [
      'initiatedSale',
      'unknownSale',
      'settledSale',
      'declinedSale',
      'authorized',
      'expired3ds',
      'voidedSale',
    ];
    for (const name of notAwaiting) {
      it(`when no payer action is awaited (${name}) is unexpected_outcome`, () => {
        spec.given(H[name]()).when(completePayerAction(SUCCESS)).thenThrows('unexpected_outcome');
      });
    }

    for (const name of ['threeDsSale', 'redirectSale'] as HistoryName[]) {
      for (const result of [CHALLENGE, REDIRECT]) {
        it(`a ${result.outcome} result after the payer came back (${name}) is unexpected_outcome`, () => {
          spec.given(H[name]()).when(completePayerAction(result)).thenThrows('unexpected_outcome');
        });
      }
    }
  });

  describe('ExpirePayerAction', () => {
    it("an abandoned 3DS challenge declines at stage 'timeout' with the reason", () => {
      spec
        .given(H.threeDsSale())
        .when(expirePayerAction('3DS session timed out'))
        .then([
          {
            type: 'PaymentDeclined',
            data: { paymentId: PAYMENT_ID, reason: '3DS session timed out', code: 'payer_timeout', stage: 'timeout', declinedAt: T2 },
          },
        ])
        .thenState({ phase: 'declined', status: 'DECLINED', declineReason: '3DS session timed out', payerAction: null });
    });

    it("an abandoned redirect declines at stage 'timeout'", () => {
      spec
        .given(H.redirectAuth())
        .when(expirePayerAction('Redirect session timed out'))
        .then([declinedEvent('timeout', 'payer_timeout', 'Redirect session timed out', T2)])
        .thenState({ status: 'DECLINED', heldAmount: 0, payerAction: null });
    });

    const notAwaiting: HistoryName[] = [
      'initiatedSale',
      'unknownSale',
      'settledSale',
      'declinedSale',
      'authorized',
      'expired3ds',
      'captured',
      'voidedSale',
    ];
    for (const name of notAwaiting) {
      it(`when no payer action is awaited (${name}) is unexpected_outcome`, () => {
        spec.given(H[name]()).when(expirePayerAction()).thenThrows('unexpected_outcome');
      });
    }
  });

  describe('RequestCapture', () => {
    it('without an amount captures the whole hold, echoing the original amount text', () => {
      spec
        .given(H.authorized())
        .when(requestCapture(OP1))
        .then([
          {
            type: 'CaptureRequested',
            data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, amountText: AMOUNT_TEXT, requestedAt: T3 },
          },
        ])
        .thenState({
          phase: 'authorized',
          status: 'PENDING',
          heldAmount: AMOUNT,
          pendingOperation: { operationId: OP1, kind: 'capture', amount: AMOUNT, amountText: AMOUNT_TEXT },
        });
    });

    it('with a partial amount requests exactly that amount', () => {
      spec
        .given(H.authorized())
        .when(requestCapture(OP1, 2_500, '25.00'))
        .then([captureRequested(2_500, '25.00')])
        .thenState({ pendingOperation: { operationId: OP1, kind: 'capture', amount: 2_500, amountText: '25.00' } });
    });

    it('with exactly the held amount is accepted', () => {
      spec.given(H.authorized()).when(requestCapture(OP1, AMOUNT, '100')).then([captureRequested(AMOUNT, '100')]);
    });

    it('with an amount above the hold is amount_exceeds_available', () => {
      spec.given(H.authorized()).when(requestCapture(OP1, AMOUNT + 1, '100.01')).thenThrows('amount_exceeds_available');
    });

    it('with a zero amount is amount_not_positive', () => {
      spec.given(H.authorized()).when(requestCapture(OP1, 0, '0.00')).thenThrows('amount_not_positive');
    });

    it('with a negative amount is amount_not_positive', () => {
      spec.given(H.authorized()).when(requestCapture(OP1, -100, '-1.00')).thenThrows('amount_not_positive');
    });

    const notCapturable: HistoryName[] = [
      'initiatedAuth',
      'initiatedSale',
      'unknownAuth',
      'settledSale',
      'declinedSale',
      'threeDsAuth',
      'redirectAuth',
      'voidedSale',
      'voidedCapture',
      'refunded',
      'reversed',
    ];
    for (const name of notCapturable) {
      it(`on a payment that is not a pending authorization (${name}) is capture_not_allowed`, () => {
        spec.given(H[name]()).when(requestCapture(OP2)).thenThrows('capture_not_allowed');
      });
    }

    it('while a capture is pending is operation_in_progress', () => {
      spec.given(H.capturePending()).when(requestCapture(OP2)).thenThrows('operation_in_progress');
    });

    it('while a reversal is pending is operation_in_progress', () => {
      spec.given(H.reversalPending()).when(requestCapture(OP2)).thenThrows('operation_in_progress');
    });

    it('a second capture after a successful one is capture_not_allowed', () => {
      spec.given(H.captured()).when(requestCapture(OP2, 100, '1.00', T5)).thenThrows('capture_not_allowed');
    });

    it('a second capture after a successful partial one is capture_not_allowed (the rest was released)', () => {
      spec
        .given([...H.authorized(), captureRequested(2_500, '25.00'), captureSucceeded(2_500, '25.00')])
        .when(requestCapture(OP2, 2_500, '25.00', T5))
        .thenThrows('capture_not_allowed');
    });

    it('after a declined capture the capture can be retried', () => {
      spec
        .given([...H.capturePending(), captureDeclined()])
        .when(requestCapture(OP2, undefined, undefined, T5))
        .then([captureRequested(AMOUNT, AMOUNT_TEXT, OP2, T5)]);
    });

    it('after a partial reversal is limited to the remaining hold', () => {
      spec.given(H.partiallyReversed()).when(requestCapture(OP2, 6_001, '60.01', T5)).thenThrows('amount_exceeds_available');
      spec
        .given(H.partiallyReversed())
        .when(requestCapture(OP2, 6_000, '60.00', T5))
        .then([captureRequested(6_000, '60.00', OP2, T5)]);
    });

    it('without an amount after a partial reversal captures the remaining hold, as a decimal amount text', () => {
      // amountText is a decimal string in the payment currency (events.ts), never minor units.
      spec
        .given(H.partiallyReversed())
        .when(requestCapture(OP2, undefined, undefined, T5))
        .then([captureRequested(6_000, '60.00', OP2, T5)]);
    });
  });

  describe('RecordCapture', () => {
    it('success settles the captured amount and releases the hold', () => {
      spec
        .given(H.capturePending())
        .when(recordCapture(OK))
        .then([
          {
            type: 'CaptureSucceeded',
            data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, amountText: AMOUNT_TEXT, capturedAt: T4 },
          },
        ])
        .thenState({ phase: 'settled', status: 'SETTLED', settledAmount: AMOUNT, heldAmount: 0, pendingOperation: null });
    });

    it('success of a partial capture settles only the captured amount; the rest of the hold is released', () => {
      spec
        .given([...H.authorized(), captureRequested(2_500, '25.00')])
        .when(recordCapture(OK))
        .then([captureSucceeded(2_500, '25.00')])
        .thenState({ status: 'SETTLED', settledAmount: 2_500, heldAmount: 0, pendingOperation: null });
    });

    it('declined keeps the authorization PENDING with its hold and nothing pending', () => {
      spec
        .given(H.capturePending())
        .when(recordCapture(refusedBy('Authorization expired')))
        .then([
          {
            type: 'CaptureDeclined',
            data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, reason: 'Authorization expired', declinedAt: T4 },
          },
        ])
        .thenState({ phase: 'authorized', status: 'PENDING', heldAmount: AMOUNT, settledAmount: 0, pendingOperation: null });
    });

    it('unknown records nothing: the capture stays pending', () => {
      spec
        .given(H.capturePending())
        .when(recordCapture(LOST))
        .thenNothing()
        .thenState({
          status: 'PENDING',
          pendingOperation: { operationId: OP1, kind: 'capture', amount: AMOUNT, amountText: AMOUNT_TEXT },
        });
    });

    it('for another operation id is unexpected_outcome', () => {
      spec.given(H.capturePending()).when(recordCapture(OK, OP2)).thenThrows('unexpected_outcome');
    });

    it('when no capture is pending is unexpected_outcome', () => {
      spec.given(H.authorized()).when(recordCapture(OK)).thenThrows('unexpected_outcome');
      spec.given(H.captured()).when(recordCapture(OK)).thenThrows('unexpected_outcome');
    });

    it('for a pending operation of another kind is unexpected_outcome', () => {
      spec.given(H.reversalPending()).when(recordCapture(OK, OP1)).thenThrows('unexpected_outcome');
    });
  });

  describe('RequestVoid', () => {
    it('on a settled sale requests a void of the settled amount (status stays SETTLED meanwhile)', () => {
      spec
        .given(H.settledSale())
        .when(requestVoid(OP1))
        .then([{ type: 'VoidRequested', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, requestedAt: T3 } }])
        .thenState({ status: 'SETTLED', pendingOperation: { operationId: OP1, kind: 'void', amount: AMOUNT, amountText: '100.00' } });
    });

    it('on a settled partial capture voids the captured amount', () => {
      spec
        .given([...H.authorized(), captureRequested(2_500, '25.00'), captureSucceeded(2_500, '25.00')])
        .when(requestVoid(OP2, T5))
        .then([voidRequested(2_500, OP2, T5)]);
    });

    const notVoidable: HistoryName[] = [
      'authorized',
      'initiatedSale',
      'unknownSale',
      'partiallyRefunded',
      'refunded',
      'declinedSale',
      'voidedSale',
      'voidedCapture',
      'threeDsSale',
      'redirectSale',
      'reversed',
      'partiallyReversed',
    ];
    for (const name of notVoidable) {
      it(`on ${name} is void_not_allowed`, () => {
        spec.given(H[name]()).when(requestVoid(OP2, T5)).thenThrows('void_not_allowed');
      });
    }

    it('while a refund is pending is operation_in_progress', () => {
      spec.given(H.refundPending()).when(requestVoid(OP2)).thenThrows('operation_in_progress');
    });

    it('while another void is pending is operation_in_progress', () => {
      spec.given(H.voidPending()).when(requestVoid(OP2)).thenThrows('operation_in_progress');
    });

    it('after a declined void can be requested again', () => {
      spec.given([...H.voidPending(), voidDeclined()]).when(requestVoid(OP2, T5)).then([voidRequested(AMOUNT, OP2, T5)]);
    });

    it('after a declined refund (nothing refunded) is still allowed', () => {
      spec
        .given([...H.refundPending(), refundDeclined(4_000)])
        .when(requestVoid(OP2, T5))
        .then([voidRequested(AMOUNT, OP2, T5)]);
    });
  });

  describe('RecordVoid', () => {
    it('success voids the payment (status VOID)', () => {
      spec
        .given(H.voidPending())
        .when(recordVoid(OK))
        .then([{ type: 'PaymentVoided', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, voidedAt: T4 } }])
        .thenState({ phase: 'voided', status: 'VOID', pendingOperation: null });
    });

    it('success on a voided capture makes it VOID too', () => {
      spec
        .given([...H.captured(), voidRequested(AMOUNT, OP2, T5)])
        .when(recordVoid(OK, OP2, T6))
        .then([voided(AMOUNT, OP2, T6)])
        .thenState({ status: 'VOID' });
    });

    it('declined records VoidDeclined; the payment stays SETTLED with nothing pending', () => {
      spec
        .given(H.voidPending())
        .when(recordVoid(refusedBy('Cut-off passed')))
        .then([
          {
            type: 'VoidDeclined',
            data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, reason: 'Cut-off passed', declinedAt: T4 },
          },
        ])
        .thenState({ phase: 'settled', status: 'SETTLED', pendingOperation: null });
    });

    it('unknown records nothing: the void stays pending', () => {
      spec
        .given(H.voidPending())
        .when(recordVoid(LOST))
        .thenNothing()
        .thenState({ pendingOperation: { operationId: OP1, kind: 'void', amount: AMOUNT, amountText: '100.00' } });
    });

    it('for another operation id, none pending, or another kind pending is unexpected_outcome', () => {
      spec.given(H.voidPending()).when(recordVoid(OK, OP2)).thenThrows('unexpected_outcome');
      spec.given(H.settledSale()).when(recordVoid(OK)).thenThrows('unexpected_outcome');
      spec.given(H.refundPending()).when(recordVoid(OK, OP1)).thenThrows('unexpected_outcome');
    });
  });

  describe('RequestCreditVoid', () => {
    it("on a pending authorization is a 'reversal', even with refunds disabled", () => {
      spec
        .given(H.authorized())
        .when(requestCreditVoid(AMOUNT, AMOUNT_TEXT, { refundsEnabled: false }))
        .then([
          {
            type: 'CreditVoidRequested',
            data: { paymentId: PAYMENT_ID, operationId: OP1, kind: 'reversal', amount: AMOUNT, amountText: AMOUNT_TEXT, requestedAt: T3 },
          },
        ])
        .thenState({
          status: 'PENDING',
          heldAmount: AMOUNT,
          pendingOperation: { operationId: OP1, kind: 'reversal', amount: AMOUNT, amountText: AMOUNT_TEXT },
        });
    });

    it("on a pending authorization with refunds enabled is also a 'reversal'", () => {
      spec
        .given(H.authorized())
        .when(requestCreditVoid(4_000, '40.00', { refundsEnabled: true }))
        .then([creditVoidRequested('reversal', 4_000, '40.00')]);
    });

    it("on a settled payment with refunds enabled is a 'refund'", () => {
      spec
        .given(H.settledSale())
        .when(requestCreditVoid(4_000, '40.00'))
        .then([
          {
            type: 'CreditVoidRequested',
            data: { paymentId: PAYMENT_ID, operationId: OP1, kind: 'refund', amount: 4_000, amountText: '40.00', requestedAt: T3 },
          },
        ])
        .thenState({ status: 'SETTLED', pendingOperation: { operationId: OP1, kind: 'refund', amount: 4_000, amountText: '40.00' } });
    });

    it("on a captured authorization with refunds enabled is a 'refund' of at most the captured amount", () => {
      const partialCapture = [...H.authorized(), captureRequested(2_500, '25.00'), captureSucceeded(2_500, '25.00')];
      spec
        .given(partialCapture)
        .when(requestCreditVoid(2_500, '25.00', { operationId: OP2, now: T5 }))
        .then([creditVoidRequested('refund', 2_500, '25.00', OP2, T5)]);
      spec
        .given(partialCapture)
        .when(requestCreditVoid(2_501, '25.01', { operationId: OP2, now: T5 }))
        .thenThrows('amount_exceeds_available');
    });

    it('on a settled payment with refunds disabled is refund_not_allowed', () => {
      spec.given(H.settledSale()).when(requestCreditVoid(4_000, '40.00', { refundsEnabled: false })).thenThrows('refund_not_allowed');
    });

    const notCreditVoidable: HistoryName[] = [
      'initiatedSale',
      'initiatedAuth',
      'unknownAuth',
      'declinedSale',
      'voidedSale',
      'voidedCapture',
      'threeDsSale',
      'threeDsAuth',
      'redirectAuth',
      'refunded',
      'reversed',
      'expired3ds',
    ];
    for (const name of notCreditVoidable) {
      it(`on ${name} is refund_not_allowed`, () => {
        spec.given(H[name]()).when(requestCreditVoid(1_000, '10.00', { operationId: OP2, now: T5 })).thenThrows('refund_not_allowed');
      });
    }

    it('above the settled amount is amount_exceeds_available', () => {
      spec.given(H.settledSale()).when(requestCreditVoid(AMOUNT + 1, '100.01')).thenThrows('amount_exceeds_available');
    });

    it('above what remains unrefunded is amount_exceeds_available; exactly the rest is accepted', () => {
      spec
        .given(H.partiallyRefunded())
        .when(requestCreditVoid(6_001, '60.01', { operationId: OP2, now: T5 }))
        .thenThrows('amount_exceeds_available');
      spec
        .given(H.partiallyRefunded())
        .when(requestCreditVoid(6_000, '60.00', { operationId: OP2, now: T5 }))
        .then([creditVoidRequested('refund', 6_000, '60.00', OP2, T5)]);
    });

    it('above the hold is amount_exceeds_available', () => {
      spec.given(H.authorized()).when(requestCreditVoid(AMOUNT + 1, '100.01')).thenThrows('amount_exceeds_available');
      spec
        .given(H.partiallyReversed())
        .when(requestCreditVoid(6_001, '60.01', { operationId: OP2, now: T5 }))
        .thenThrows('amount_exceeds_available');
    });

    it('with a zero or negative amount is amount_not_positive', () => {
      spec.given(H.settledSale()).when(requestCreditVoid(0, '0.00')).thenThrows('amount_not_positive');
      spec.given(H.authorized()).when(requestCreditVoid(0, '0')).thenThrows('amount_not_positive');
      spec.given(H.settledSale()).when(requestCreditVoid(-1, '-0.01')).thenThrows('amount_not_positive');
    });

    it('while another operation is pending is operation_in_progress', () => {
      spec.given(H.refundPending()).when(requestCreditVoid(1_000, '10.00', { operationId: OP2 })).thenThrows('operation_in_progress');
      spec.given(H.voidPending()).when(requestCreditVoid(1_000, '10.00', { operationId: OP2 })).thenThrows('operation_in_progress');
      spec.given(H.capturePending()).when(requestCreditVoid(1_000, '10.00', { operationId: OP2 })).thenThrows('operation_in_progress');
      spec.given(H.reversalPending()).when(requestCreditVoid(1_000, '10.00', { operationId: OP2 })).thenThrows('operation_in_progress');
    });
  });

  describe('RecordCreditVoid', () => {
    it('refund success records RefundSucceeded; a partial refund leaves the payment SETTLED', () => {
      spec
        .given(H.refundPending())
        .when(recordCreditVoid(OK))
        .then([{ type: 'RefundSucceeded', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: 4_000, refundedAt: T4 } }])
        .thenState({ phase: 'settled', status: 'SETTLED', refundedAmount: 4_000, settledAmount: AMOUNT, pendingOperation: null });
    });

    it('refunding the rest makes the payment REFUND, and further refunds are refused', () => {
      const history = [...H.partiallyRefunded(), creditVoidRequested('refund', 6_000, '60.00', OP2, T5)];
      const outcome = spec
        .given(history)
        .when(recordCreditVoid(OK, OP2, T6))
        .then([refundSucceeded(6_000, OP2, T6)])
        .thenState({ phase: 'refunded', status: 'REFUND', refundedAmount: AMOUNT, pendingOperation: null });
      const after = [...history, ...outcome.events];
      spec.given(after).when(requestCreditVoid(1, '0.01', { operationId: OP3 })).thenThrows('refund_not_allowed');
      spec.given(after).when(requestVoid(OP3)).thenThrows('void_not_allowed');
    });

    it('a full refund at once makes the payment REFUND', () => {
      spec
        .given([...H.settledSale(), creditVoidRequested('refund', AMOUNT, AMOUNT_TEXT)])
        .when(recordCreditVoid(OK))
        .then([refundSucceeded(AMOUNT)])
        .thenState({ status: 'REFUND', refundedAmount: AMOUNT });
    });

    it('reversal success of the whole hold makes the payment REVERSAL', () => {
      spec
        .given(H.reversalPending())
        .when(recordCreditVoid(OK))
        .then([{ type: 'AuthorizationReversed', data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, reversedAt: T4 } }])
        .thenState({ phase: 'reversed', status: 'REVERSAL', heldAmount: 0, reversedAmount: AMOUNT, settledAmount: 0, pendingOperation: null });
    });

    it('a partial reversal keeps the authorization PENDING with the smaller hold, still capturable', () => {
      const history = [...H.authorized(), creditVoidRequested('reversal', 4_000, '40.00')];
      spec
        .given(history)
        .when(recordCreditVoid(OK))
        .then([reversed(4_000)])
        .thenState({ phase: 'authorized', status: 'PENDING', heldAmount: 6_000, reversedAmount: 4_000, pendingOperation: null });
      spec
        .given([...history, reversed(4_000)])
        .when(requestCapture(OP2, 6_000, '60.00', T5))
        .then([captureRequested(6_000, '60.00', OP2, T5)]);
    });

    it('releasing the rest after a partial reversal makes the payment REVERSAL', () => {
      spec
        .given([...H.partiallyReversed(), creditVoidRequested('reversal', 6_000, '60.00', OP2, T5)])
        .when(recordCreditVoid(OK, OP2, T6))
        .then([reversed(6_000, OP2, T6)])
        .thenState({ status: 'REVERSAL', heldAmount: 0, reversedAmount: AMOUNT });
    });

    it('a declined refund records RefundDeclined; nothing stays pending and nothing was refunded', () => {
      const outcome = spec
        .given(H.refundPending())
        .when(recordCreditVoid(refusedBy('Refund window closed')))
        .then([
          {
            type: 'RefundDeclined',
            data: { paymentId: PAYMENT_ID, operationId: OP1, amount: 4_000, reason: 'Refund window closed', declinedAt: T4 },
          },
        ])
        .thenState({ status: 'SETTLED', refundedAmount: 0, pendingOperation: null });
      spec
        .given([...H.refundPending(), ...outcome.events])
        .when(requestCreditVoid(AMOUNT, AMOUNT_TEXT, { operationId: OP2, now: T5 }))
        .then([creditVoidRequested('refund', AMOUNT, AMOUNT_TEXT, OP2, T5)]);
    });

    it('a declined reversal records ReversalDeclined; the hold is intact and nothing stays pending', () => {
      spec
        .given(H.reversalPending())
        .when(recordCreditVoid(refusedBy('Hold already released')))
        .then([
          {
            type: 'ReversalDeclined',
            data: { paymentId: PAYMENT_ID, operationId: OP1, amount: AMOUNT, reason: 'Hold already released', declinedAt: T4 },
          },
        ])
        .thenState({ phase: 'authorized', status: 'PENDING', heldAmount: AMOUNT, reversedAmount: 0, pendingOperation: null });
    });

    it('unknown records nothing: the refund or reversal stays pending', () => {
      spec
        .given(H.refundPending())
        .when(recordCreditVoid(LOST))
        .thenNothing()
        .thenState({ pendingOperation: { operationId: OP1, kind: 'refund', amount: 4_000, amountText: '40.00' } });
      spec
        .given(H.reversalPending())
        .when(recordCreditVoid(LOST))
        .thenNothing()
        .thenState({ pendingOperation: { operationId: OP1, kind: 'reversal', amount: AMOUNT, amountText: AMOUNT_TEXT } });
    });

    it('for another operation id, none pending, or a capture/void pending is unexpected_outcome', () => {
      spec.given(H.refundPending()).when(recordCreditVoid(OK, OP2)).thenThrows('unexpected_outcome');
      spec.given(H.settledSale()).when(recordCreditVoid(OK)).thenThrows('unexpected_outcome');
      spec.given(H.partiallyRefunded()).when(recordCreditVoid(OK)).thenThrows('unexpected_outcome');
      spec.given(H.capturePending()).when(recordCreditVoid(OK, OP1)).thenThrows('unexpected_outcome');
      spec.given(H.voidPending()).when(recordCreditVoid(OK, OP1)).thenThrows('unexpected_outcome');
    });
  });

  describe('status a merchant sees at each step (foldPayment)', () => {
    const statuses = (events: PaymentEvent[]) =>
      events.map((_, i) => existing(foldPayment(events.slice(0, i + 1))).status);

    it('sale with 3DS, then a partial and a final refund: PENDING, 3DS, SETTLED, SETTLED, SETTLED, SETTLED, REFUND', () => {
      const events = [
        initiated('sale'),
        challengeEvent(),
        settledEvent(T2),
        creditVoidRequested('refund', 3_000, '30.00'),
        refundSucceeded(3_000),
        creditVoidRequested('refund', 7_000, '70.00', OP2, T5),
        refundSucceeded(7_000, OP2, T6),
      ];
      expect(statuses(events)).to.deep.equal(['PENDING', '3DS', 'SETTLED', 'SETTLED', 'SETTLED', 'SETTLED', 'REFUND']);
    });

    it('authorization captured then voided: PENDING, PENDING, PENDING, SETTLED, SETTLED, VOID', () => {
      const events = [
        initiated('authorization'),
        authorizedEvent(),
        captureRequested(),
        captureSucceeded(),
        voidRequested(AMOUNT, OP2, T5),
        voided(AMOUNT, OP2, T6),
      ];
      expect(statuses(events)).to.deep.equal(['PENDING', 'PENDING', 'PENDING', 'SETTLED', 'SETTLED', 'VOID']);
    });

    it('redirect abandoned: PENDING, REDIRECT, DECLINED', () => {
      expect(statuses([initiated('sale'), redirectEvent(), declinedEvent('timeout', 'payer_timeout', 'Redirect timed out', T2)])).to.deep.equal([
        'PENDING',
        'REDIRECT',
        'DECLINED',
      ]);
    });

    it('outcome lost then settled: PENDING, PENDING, SETTLED', () => {
      expect(statuses([initiated('sale'), unknownEvent(), settledEvent(T2)])).to.deep.equal(['PENDING', 'PENDING', 'SETTLED']);
    });

    it('authorization released in two parts: PENDING, PENDING, PENDING, PENDING, PENDING, REVERSAL', () => {
      const events = [
        initiated('authorization'),
        authorizedEvent(),
        creditVoidRequested('reversal', 4_000, '40.00'),
        reversed(4_000),
        creditVoidRequested('reversal', 6_000, '60.00', OP2, T5),
        reversed(6_000, OP2, T6),
      ];
      expect(statuses(events)).to.deep.equal(['PENDING', 'PENDING', 'PENDING', 'PENDING', 'PENDING', 'REVERSAL']);
    });

    it('the decider and the fold agree: replaying what the decider decided gives the same state', () => {
      const commands: PaymentCommand[] = [
        initiate('authorization'),
        recordAuthorization(CHALLENGE),
        completePayerAction(SUCCESS),
        requestCapture(OP1, 2_500, '25.00'),
        recordCapture(OK),
        requestCreditVoid(1_000, '10.00', { operationId: OP2, now: T5 }),
        recordCreditVoid(OK, OP2, T6),
      ];
      let state = initialPaymentState();
      const log: PaymentEvent[] = [];
      for (const command of commands) {
        const events = decidePayment(command, state);
        log.push(...events);
        state = events.reduce(evolvePayment, state);
      }
      expect(foldPayment(log)).to.deep.equal(state);
      expect(existing(state)).to.include({ status: 'SETTLED', settledAmount: 2_500, refundedAmount: 1_000, heldAmount: 0 });
      expect(log.map((e) => e.type)).to.deep.equal([
        'PaymentInitiated',
        'ThreeDSChallengeRequired',
        'PaymentAuthorized',
        'CaptureRequested',
        'CaptureSucceeded',
        'CreditVoidRequested',
        'RefundSucceeded',
      ]);
    });

    it('events stray before PaymentInitiated are ignored by the fold', () => {
      expect(foldPayment([settledEvent()])).to.deep.equal({ exists: false });
    });
  });
});
