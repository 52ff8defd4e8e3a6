/**
 * What a merchant is told about an S2S APM payment's event (docs/reference/callbacks.md#s2s-apm-callbacks). Pure, like the S2S
 * CARD table in callback-content.ts, which dispatches here by the payment's protocol:
 *
 * | Event | action | result | status |
 * |---|---|---|---|
 * | PaymentSettled | SALE | SUCCESS | SETTLED |
 * | PaymentAuthorized | SALE | SUCCESS | PENDING |
 * | PaymentDeclined (provider, its page, timeout, QR code expired) | SALE | DECLINED | DECLINED |
 * | PaymentCascaded, the first of a payment | SALE | DECLINED | DECLINED |
 * | PayerRedirectRequired | SALE | REDIRECT | REDIRECT (PENDING for a QR code) |
 * | PaymentPending | SALE | INIT | PENDING |
 * | PaymentOutcomeUnknown | SALE | UNDEFINED | PREPARE |
 * | CaptureSucceeded / CaptureDeclined | CAPTURE | SUCCESS / DECLINED | SETTLED / PENDING |
 * | PaymentVoided / VoidDeclined | VOID | SUCCESS / DECLINED | VOID / SETTLED |
 * | RefundSucceeded / RefundDeclined | CREDITVOID | SUCCESS / DECLINED | REFUND (SETTLED after a partial refund) / SETTLED |
 * | AuthorizationReversed / ReversalDeclined | CREDITVOID | SUCCESS / DECLINED | REVERSAL / PENDING |
 *
 * Fields, in order: action, result, status, order_id, trans_id, trans_date (of the event, UTC),
 * descriptor (SALE and CAPTURE), amount (of the operation, in the currency's exponent: none for
 * zero-exponent currencies), currency; then as they apply decline_reason; redirect_url,
 * redirect_method (GET) and redirect_params[...] (a QR code's qr_code); crypto_address and
 * crypto_network; creditvoid_date (CREDITVOID); custom_data[...]; on SALE callbacks of a payment
 * the provider settled in another currency, exchange_* and extended_data[...] (conversion-fields.ts);
 * the merchant's Protocol Mapping fields; hash last, the family's APM callback hash over all of them
 * (signatures.ts `apmCallbackHash`, the §7 test vector).
 */
import { formatMinor } from '../money';
import type { PaymentEvent } from '../payment/events';
import type { ExistingPayment, PaymentStatus } from '../payment/state';
import { apmCallbackHash } from '../signatures';
import type { CallbackContext } from './callback-content';
import { followUpOutcomeOf } from './follow-up-outcome';
import { conversionCallbackFields } from './conversion-fields';
import { flattenField, formDate, type FormFields } from './form-fields';
import { protocolMappingFields } from './protocol-mapping-fields';

type ApmAction = 'SALE' | 'CAPTURE' | 'VOID' | 'CREDITVOID';
type ApmResult = 'SUCCESS' | 'DECLINED' | 'REDIRECT' | 'INIT' | 'UNDEFINED';

interface Outcome {
  action: ApmAction;
  result: ApmResult;
  /** When the event reports an attempt rather than where the payment stands now. */
  status?: PaymentStatus;
  amount: number;
  at: string;
  declineReason?: string;
}

/** Null for an event merchants are not called about. */
function outcomeOf(event: PaymentEvent, after: ExistingPayment): Outcome | null {
  switch (event.type) {
    case 'PaymentSettled':
      return { action: 'SALE', result: 'SUCCESS', amount: event.data.amount, at: event.data.settledAt };
    case 'PaymentAuthorized':
      return { action: 'SALE', result: 'SUCCESS', amount: event.data.amount, at: event.data.authorizedAt };
    case 'PaymentDeclined':
      return { action: 'SALE', result: 'DECLINED', amount: after.amount, at: event.data.declinedAt, declineReason: event.data.reason };
    case 'PaymentCascaded':
      return after.cascadedFrom?.length === 1
        ? { action: 'SALE', result: 'DECLINED', status: 'DECLINED', amount: after.amount, at: event.data.cascadedAt, declineReason: event.data.reason }
        : null;
    case 'ThreeDSChallengeRequired':
    case 'PayerRedirectRequired':
      return { action: 'SALE', result: 'REDIRECT', amount: after.amount, at: event.data.requiredAt };
    case 'PaymentPending':
      return { action: 'SALE', result: 'INIT', amount: after.amount, at: event.data.pendingAt };
    case 'PaymentOutcomeUnknown':
      return { action: 'SALE', result: 'UNDEFINED', amount: after.amount, at: event.data.at };
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

/** The ordered fields of the callback for `event`, or null when merchants are not called about it. */
export function apmCallbackFieldsFor(event: PaymentEvent, after: ExistingPayment, ctx: CallbackContext): FormFields | null {
  const outcome = outcomeOf(event, after);
  if (!outcome) return null;
  const fields: FormFields = [
    ['action', outcome.action],
    ['result', outcome.result],
    ['status', outcome.status ?? after.status],
    ['order_id', after.orderId],
    ['trans_id', after.paymentId],
    ['trans_date', formDate(outcome.at)],
  ];
  if (outcome.action === 'SALE' || outcome.action === 'CAPTURE') fields.push(['descriptor', after.descriptor ?? '']);
  fields.push(['amount', formatMinor(outcome.amount, after.currency)], ['currency', after.currency]);
  if (outcome.declineReason !== undefined) fields.push(['decline_reason', outcome.declineReason]);
  if (outcome.result === 'REDIRECT' && after.payerAction) {
    fields.push(['redirect_url', after.payerAction.url], ['redirect_method', 'GET']);
    flattenField('redirect_params', after.payerAction.params, fields);
  }
  if (outcome.result === 'INIT' && after.providerInstructions) {
    for (const [name, value] of Object.entries(after.providerInstructions)) fields.push([name, value]);
  }
  if (outcome.action === 'CREDITVOID') fields.push(['creditvoid_date', formDate(outcome.at)]);
  if (after.customData) flattenField('custom_data', after.customData, fields);
  if (outcome.action === 'SALE') fields.push(...conversionCallbackFields(after));
  fields.push(...protocolMappingFields(after, ctx.protocolMapping, 'callback'));
  fields.push(['hash', apmCallbackHash(fields, ctx.password)]);
  return fields;
}
