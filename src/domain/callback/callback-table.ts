/**
 * The one table from payment events to what each kind of callback tells the merchant
 * (docs/reference/callbacks.md). A row per payment event, a cell per kind of callback; an empty
 * cell, or a cell that answers null, means no callback. Each kind's content builder (s2s-card-,
 * apm-, payout- and checkout-callback-content.ts) lays the outcome and the payment out as fields.
 *
 * | Event | S2S CARD action / result | S2S APM action / result | Payout result / status | Checkout type / status |
 * |---|---|---|---|---|
 * | PaymentSettled | SALE / SUCCESS | SALE / SUCCESS | SUCCESS / SETTLED | sale, debit, credit or recurring / success |
 * | PaymentAuthorized | SALE / SUCCESS | SALE / SUCCESS | | sale / success |
 * | PaymentDeclined | SALE / DECLINED | SALE / DECLINED | DECLINED / DECLINED | as settled / fail |
 * | PaymentCascaded, the first of a payment | SALE / DECLINED, status DECLINED | the same | DECLINED / DECLINED | as settled / fail, order_status decline |
 * | ThreeDSChallengeRequired | SALE / REDIRECT | SALE / REDIRECT | | 3ds / waiting |
 * | PayerRedirectRequired | SALE / REDIRECT | SALE / REDIRECT | | redirect / waiting |
 * | PaymentPending | | SALE / INIT | UNDEFINED / PREPARE | |
 * | PaymentOutcomeUnknown | | SALE / UNDEFINED | UNDEFINED / PREPARE | |
 * | CaptureSucceeded / CaptureDeclined | CAPTURE / SUCCESS, DECLINED | the same | | capture / success, fail |
 * | PaymentVoided / VoidDeclined | VOID / SUCCESS, DECLINED | the same | | void / success, fail |
 * | RefundSucceeded / RefundDeclined | CREDITVOID / SUCCESS, DECLINED | the same | | refund / success, fail |
 * | AuthorizationReversed / ReversalDeclined | CREDITVOID / SUCCESS, DECLINED | the same | | void / success, fail |
 *
 * Unless a cell says otherwise the status is where the payment stands after the event. Merchants
 * hear of a cascade's first declined attempt and of the final outcome, not of each attempt between.
 * A chain's later charge reports the S2S CARD SALE rows under RECURRING_SALE, or RECURRING_DEBIT
 * for a debit chain. Checkout releases a hold with its void and its clients wait for `type=void`:
 * a released hold is a void in Checkout's words, whatever released it.
 *
 * No callback: PaymentInitiated and the *Requested intents (nothing was decided yet); on S2S CARD
 * and Checkout PaymentPending and PaymentOutcomeUnknown (the outcome calls back when it is recorded).
 */
import { paymentTypeOf } from '../checkout/order-status';
import type { PaymentEvent, PaymentEventType } from '../payment/events';
import type { ExistingPayment } from '../payment/state';
import type { CallbackFamily, FamilyOutcome, S2sOutcome, SaleAction } from './callback-outcomes';
import { isChainCharge } from './recurring-fields';

type EventOf<T extends PaymentEventType> = Extract<PaymentEvent, { type: T }>;
type Cell<E, O> = (event: E, after: ExistingPayment) => O | null;
type Row<E> = { [F in CallbackFamily]?: Cell<E, FamilyOutcome[F]> };

/** The action a payment's own outcome is reported under on S2S CARD: the request that made it. */
function saleActionOf(p: ExistingPayment): SaleAction {
  if (!isChainCharge(p)) return 'SALE';
  return p.kind === 'debit' ? 'RECURRING_DEBIT' : 'RECURRING_SALE';
}

/** Only a cascade's first declined attempt calls back. */
const firstCascade = (p: ExistingPayment): boolean => p.cascadedFrom?.length === 1;

/** A SALE outcome on both S2S kinds: S2S CARD names a chain's charges by their request, S2S APM always SALE. */
function s2sSale<E>(outcome: (event: E, after: ExistingPayment, action: SaleAction) => S2sOutcome | null): Row<E> {
  return { s2s_card: (e, p) => outcome(e, p, saleActionOf(p)), s2s_apm: (e, p) => outcome(e, p, 'SALE') };
}

/** A follow-up's outcome, the same on both S2S kinds. */
function s2sFollowUp<E>(outcome: (event: E) => S2sOutcome): Row<E> {
  return { s2s_card: outcome, s2s_apm: outcome };
}

export const CALLBACK_TABLE: { [T in PaymentEventType]: Row<EventOf<T>> } = {
  PaymentInitiated: {},
  PaymentSettled: {
    ...s2sSale((e, _p, action) => ({ action, result: 'SUCCESS', amount: e.data.amount, at: e.data.settledAt })),
    payout: (e) => ({ result: 'SUCCESS', status: 'SETTLED', at: e.data.settledAt }),
    checkout: (e, p) => ({ type: paymentTypeOf(p), status: 'success', at: e.data.settledAt }),
  },
  PaymentAuthorized: {
    ...s2sSale((e, _p, action) => ({ action, result: 'SUCCESS', amount: e.data.amount, at: e.data.authorizedAt })),
    checkout: (e, p) => ({ type: paymentTypeOf(p), status: 'success', at: e.data.authorizedAt }),
  },
  PaymentDeclined: {
    ...s2sSale((e, p, action) => ({ action, result: 'DECLINED', amount: p.amount, at: e.data.declinedAt, declineReason: e.data.reason })),
    payout: (e) => ({ result: 'DECLINED', status: 'DECLINED', at: e.data.declinedAt, declineReason: e.data.reason }),
    checkout: (e, p) => ({ type: paymentTypeOf(p), status: 'fail', at: e.data.declinedAt, reason: e.data.reason }),
  },
  PaymentCascaded: {
    ...s2sSale((e, p, action) =>
      firstCascade(p)
        ? { action, result: 'DECLINED', status: 'DECLINED', amount: p.amount, at: e.data.cascadedAt, declineReason: e.data.reason }
        : null,
    ),
    payout: (e, p) => (firstCascade(p) ? { result: 'DECLINED', status: 'DECLINED', at: e.data.cascadedAt, declineReason: e.data.reason } : null),
    checkout: (e, p) =>
      firstCascade(p) ? { type: paymentTypeOf(p), status: 'fail', at: e.data.cascadedAt, reason: e.data.reason, orderStatus: 'decline' } : null,
  },
  ThreeDSChallengeRequired: {
    ...s2sSale((e, p, action) => ({ action, result: 'REDIRECT', amount: p.amount, at: e.data.requiredAt })),
    checkout: (e) => ({ type: '3ds', status: 'waiting', at: e.data.requiredAt }),
  },
  PayerRedirectRequired: {
    ...s2sSale((e, p, action) => ({ action, result: 'REDIRECT', amount: p.amount, at: e.data.requiredAt })),
    checkout: (e) => ({ type: 'redirect', status: 'waiting', at: e.data.requiredAt }),
  },
  PaymentPending: {
    s2s_apm: (e, p) => ({ action: 'SALE', result: 'INIT', amount: p.amount, at: e.data.pendingAt }),
    payout: (e) => ({ result: 'UNDEFINED', status: 'PREPARE', at: e.data.pendingAt }),
  },
  PaymentOutcomeUnknown: {
    s2s_apm: (e, p) => ({ action: 'SALE', result: 'UNDEFINED', amount: p.amount, at: e.data.at }),
    payout: (e) => ({ result: 'UNDEFINED', status: 'PREPARE', at: e.data.at }),
  },
  CaptureRequested: {},
  CaptureSucceeded: {
    ...s2sFollowUp((e) => ({ action: 'CAPTURE', result: 'SUCCESS', amount: e.data.amount, at: e.data.capturedAt })),
    checkout: (e) => ({ type: 'capture', status: 'success', at: e.data.capturedAt }),
  },
  CaptureDeclined: {
    ...s2sFollowUp((e) => ({ action: 'CAPTURE', result: 'DECLINED', amount: e.data.amount, at: e.data.declinedAt, declineReason: e.data.reason })),
    checkout: (e) => ({ type: 'capture', status: 'fail', at: e.data.declinedAt, reason: e.data.reason }),
  },
  VoidRequested: {},
  VoidDeclined: {
    ...s2sFollowUp((e) => ({ action: 'VOID', result: 'DECLINED', amount: e.data.amount, at: e.data.declinedAt, declineReason: e.data.reason })),
    checkout: (e) => ({ type: 'void', status: 'fail', at: e.data.declinedAt, reason: e.data.reason }),
  },
  PaymentVoided: {
    ...s2sFollowUp((e) => ({ action: 'VOID', result: 'SUCCESS', amount: e.data.amount, at: e.data.voidedAt })),
    checkout: (e) => ({ type: 'void', status: 'success', at: e.data.voidedAt }),
  },
  CreditVoidRequested: {},
  RefundSucceeded: {
    ...s2sFollowUp((e) => ({ action: 'CREDITVOID', result: 'SUCCESS', amount: e.data.amount, at: e.data.refundedAt })),
    checkout: (e) => ({ type: 'refund', status: 'success', at: e.data.refundedAt }),
  },
  RefundDeclined: {
    ...s2sFollowUp((e) => ({ action: 'CREDITVOID', result: 'DECLINED', amount: e.data.amount, at: e.data.declinedAt, declineReason: e.data.reason })),
    checkout: (e) => ({ type: 'refund', status: 'fail', at: e.data.declinedAt, reason: e.data.reason }),
  },
  AuthorizationReversed: {
    ...s2sFollowUp((e) => ({ action: 'CREDITVOID', result: 'SUCCESS', amount: e.data.amount, at: e.data.reversedAt })),
    checkout: (e) => ({ type: 'void', status: 'success', at: e.data.reversedAt }),
  },
  ReversalDeclined: {
    ...s2sFollowUp((e) => ({ action: 'CREDITVOID', result: 'DECLINED', amount: e.data.amount, at: e.data.declinedAt, declineReason: e.data.reason })),
    checkout: (e) => ({ type: 'void', status: 'fail', at: e.data.declinedAt, reason: e.data.reason }),
  },
};

/** What `event` tells a merchant on callbacks of `family`; null when it calls for none. */
export function outcomeOf<F extends CallbackFamily>(family: F, event: PaymentEvent, after: ExistingPayment): FamilyOutcome[F] | null {
  const row = CALLBACK_TABLE[event.type] as unknown as Row<PaymentEvent>;
  const cell = row[family] as Cell<PaymentEvent, FamilyOutcome[F]> | undefined;
  return cell ? cell(event, after) : null;
}
