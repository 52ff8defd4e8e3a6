/**
 * What a merchant is told about a payment event: the S2S CARD callback body (spec Events item 2,
 * docs/reference/callbacks.md#s2s-card-callbacks). Pure: the notifier folds the stream, asks this function for the fields,
 * encodes and signs them.
 *
 * Which events call back, and as what:
 *
 * | Event | action | result | status |
 * |---|---|---|---|
 * | PaymentSettled | SALE | SUCCESS | SETTLED |
 * | PaymentAuthorized | SALE | SUCCESS | PENDING |
 * | PaymentDeclined (acquirer, 3DS, redirect, timeout) | SALE | DECLINED | DECLINED |
 * | PaymentCascaded, the first of a payment (its first declined attempt, before the next connector decides) | SALE | DECLINED | DECLINED |
 * | ThreeDSChallengeRequired | SALE | REDIRECT | 3DS |
 * | PayerRedirectRequired | SALE | REDIRECT | REDIRECT |
 * | CaptureSucceeded | CAPTURE | SUCCESS | SETTLED |
 * | CaptureDeclined | CAPTURE | DECLINED | unchanged (PENDING) |
 * | PaymentVoided | VOID | SUCCESS | VOID |
 * | VoidDeclined | VOID | DECLINED | unchanged (SETTLED) |
 * | RefundSucceeded | CREDITVOID | SUCCESS | REFUND, or SETTLED after a partial refund |
 * | RefundDeclined | CREDITVOID | DECLINED | unchanged |
 * | AuthorizationReversed | CREDITVOID | SUCCESS | REVERSAL, or PENDING after a partial release |
 * | ReversalDeclined | CREDITVOID | DECLINED | unchanged (PENDING) |
 *
 * A chain's later charge (RECURRING_SALE, RECURRING_DEBIT or scheduled) reports the SALE rows under
 * RECURRING_SALE, or RECURRING_DEBIT when the chain is a debit chain. Every callback of a payment in
 * a chain also carries the chain's fields (recurring-fields.ts).
 *
 * No callback: PaymentInitiated and the *Requested intents (nothing was decided yet) and
 * PaymentOutcomeUnknown (nothing is known; the reconciled outcome calls back when it is recorded).
 */
import type { ProtocolMapping } from '../merchant/protocol-mapping';
import { formatMinor } from '../money';
import type { PaymentEvent } from '../payment/events';
import type { ExistingPayment, PaymentStatus } from '../payment/state';
import { s2sCardPaymentHash } from '../signatures';
import { apmCallbackFieldsFor } from './apm-callback-content';
import { isMethodPayout, payoutCallbackFieldsFor } from './payout-callback-content';
import { checkoutCallbackFieldsFor } from './checkout-callback-content';
import { conversionCallbackFields } from './conversion-fields';
import { flattenField, formDate, type FormFields } from './form-fields';
import { followUpOutcomeOf } from './follow-up-outcome';
import { cardExpirationDate, protocolMappingFields } from './protocol-mapping-fields';
import { isChainCharge, recurringFields } from './recurring-fields';

export interface CallbackContext {
  /** Merchant password: hash input, never sent. */
  password: string;
  /** The merchant's switches for optional fields. */
  protocolMapping: ProtocolMapping;
}

type SaleAction = 'SALE' | 'RECURRING_SALE' | 'RECURRING_DEBIT';

interface Outcome {
  action: SaleAction | 'CAPTURE' | 'VOID' | 'CREDITVOID';
  result: 'SUCCESS' | 'DECLINED' | 'REDIRECT';
  /** When the event reports an attempt rather than where the payment stands now. */
  status?: PaymentStatus;
  /** Minor units of the operation. */
  amount: number;
  at: string;
  declineReason?: string;
}

/** The action a payment's own outcome is reported under: the request that made it. */
function saleActionOf(p: ExistingPayment): SaleAction {
  if (!isChainCharge(p)) return 'SALE';
  return p.kind === 'debit' ? 'RECURRING_DEBIT' : 'RECURRING_SALE';
}

/** Null for an event merchants are not called about. */
function outcomeOf(event: PaymentEvent, after: ExistingPayment): Outcome | null {
  const sale = saleActionOf(after);
  switch (event.type) {
    case 'PaymentSettled':
      return { action: sale, result: 'SUCCESS', amount: event.data.amount, at: event.data.settledAt };
    case 'PaymentAuthorized':
      return { action: sale, result: 'SUCCESS', amount: event.data.amount, at: event.data.authorizedAt };
    case 'PaymentDeclined':
      return { action: sale, result: 'DECLINED', amount: after.amount, at: event.data.declinedAt, declineReason: event.data.reason };
    case 'PaymentCascaded':
      // Merchants hear of the first declined attempt and of the final outcome, not of each attempt between.
      return after.cascadedFrom?.length === 1
        ? { action: sale, result: 'DECLINED', status: 'DECLINED', amount: after.amount, at: event.data.cascadedAt, declineReason: event.data.reason }
        : null;
    case 'ThreeDSChallengeRequired':
      return { action: sale, result: 'REDIRECT', amount: after.amount, at: event.data.requiredAt };
    case 'PayerRedirectRequired':
      return { action: sale, result: 'REDIRECT', amount: after.amount, at: event.data.requiredAt };
    case 'CaptureSucceeded':
    case 'CaptureDeclined':
    case 'PaymentVoided':
    case 'VoidDeclined':
    case 'RefundSucceeded':
    case 'RefundDeclined':
    case 'AuthorizationReversed':
    case 'ReversalDeclined':
      return followUpOutcomeOf(event);
    case 'PaymentInitiated':
    case 'PaymentPending':
    case 'PaymentOutcomeUnknown':
    case 'CaptureRequested':
    case 'VoidRequested':
    case 'CreditVoidRequested':
      return null;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The S2S CARD callback hash (docs/reference/hashes.md#s2s-card-callback-and-return-url); the return URL carries the same one. */
export function s2sCardHashOf(payment: ExistingPayment, password: string): string {
  return s2sCardPaymentHash({
    payerEmail: payment.payer.email,
    password,
    transId: payment.paymentId,
    cardMask: payment.card?.mask ?? '',
    cardToken: payment.cardSource === 'card_token' && payment.card?.token ? payment.card.token : undefined,
  });
}

/**
 * The ordered form fields the merchant is told about this event, or null when the event is not a
 * state change merchants are called about. `after` is the payment state right after `event`.
 *
 * Always: action, result, status, order_id, trans_id, trans_date (of the event, UTC), descriptor
 * (empty until the acquirer gave one), amount (of the operation, in the currency's exponent),
 * currency, card (mask), card_expiration_date (MM/YYYY), hash (last). When they apply:
 * decline_reason; redirect_url, redirect_params[...] and redirect_method; customer_ip (the payer's
 * IP, when the SALE gave one); custom_data[...] (of the latest request that carried it); the
 * recurring chain's fields (recurring_token, recurring_first_trans_id, schedule_id, ...); then the
 * Protocol Mapping fields the merchant switched on.
 */
export function callbackFieldsFor(event: PaymentEvent, after: ExistingPayment, ctx: CallbackContext): FormFields | null {
  if (after.channel === 'checkout') return checkoutCallbackFieldsFor(event, after, ctx);
  if (after.channel === 's2s_apm') return isMethodPayout(after) ? payoutCallbackFieldsFor(event, after, ctx) : apmCallbackFieldsFor(event, after, ctx);
  if (after.channel !== 's2s_card') return null;
  const outcome = outcomeOf(event, after);
  if (!outcome) return null;

  const fields: FormFields = [
    ['action', outcome.action],
    ['result', outcome.result],
    ['status', outcome.status ?? after.status],
    ['order_id', after.orderId],
    ['trans_id', after.paymentId],
    ['trans_date', formDate(outcome.at)],
    ['descriptor', after.descriptor ?? ''],
    ['amount', formatMinor(outcome.amount, after.currency)],
    ['currency', after.currency],
  ];
  if (outcome.declineReason !== undefined) fields.push(['decline_reason', outcome.declineReason]);
  if (outcome.result === 'REDIRECT' && after.payerAction) {
    fields.push(['redirect_url', after.payerAction.url]);
    flattenField('redirect_params', after.payerAction.params, fields);
    fields.push(['redirect_method', 'POST']);
  }
  if (after.card) fields.push(['card', after.card.mask], ['card_expiration_date', cardExpirationDate(after.card)]);
  if (after.payer.ip) fields.push(['customer_ip', after.payer.ip]);
  if (after.customData) flattenField('custom_data', after.customData, fields);
  fields.push(...conversionCallbackFields(after));
  fields.push(...recurringFields(after, 's2s'));
  fields.push(...protocolMappingFields(after, ctx.protocolMapping, 'callback'));
  fields.push(['hash', s2sCardHashOf(after, ctx.password)]);
  return fields;
}
