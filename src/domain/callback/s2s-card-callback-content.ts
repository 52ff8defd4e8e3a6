/**
 * The S2S CARD callback body (spec Events item 2, docs/reference/callbacks.md#s2s-card-callbacks):
 * what callback-table.ts says of the event, laid out with the payment.
 *
 * Always: action, result, status, order_id, trans_id, trans_date (of the event, UTC), descriptor
 * (empty until the acquirer gave one), amount (of the operation, in the currency's exponent),
 * currency, card (mask), card_expiration_date (MM/YYYY), hash (last). When they apply:
 * decline_reason; redirect_url, redirect_params[...] and redirect_method; customer_ip (the payer's
 * IP, when the SALE gave one); custom_data[...] (of the latest request that carried it); the
 * recurring chain's fields (recurring_token, recurring_first_trans_id, schedule_id, ...), carried by
 * every callback of a payment in a chain; then the Protocol Mapping fields the merchant switched on.
 */
import { formatMinor } from '../money';
import type { ExistingPayment } from '../payment/state';
import { s2sCardPaymentHash } from '../signatures';
import type { CallbackContext } from './callback-context';
import type { S2sOutcome } from './callback-outcomes';
import { conversionCallbackFields } from './conversion-fields';
import { flattenField, formDate, type FormFields } from './form-fields';
import { cardExpirationDate, protocolMappingFields } from './protocol-mapping-fields';
import { recurringFields } from './recurring-fields';

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

/** The ordered form fields; `after` is the payment state right after the event. */
export function s2sCardCallbackContent(outcome: S2sOutcome, after: ExistingPayment, ctx: CallbackContext): FormFields {
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
