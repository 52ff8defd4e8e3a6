/**
 * What a merchant is told about an S2S APM payment's event (docs/reference/callbacks.md#s2s-apm-callbacks):
 * what callback-table.ts says of the event, laid out with the payment. A redirect's status is
 * REDIRECT, PENDING for a QR code.
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
import type { ExistingPayment } from '../payment/state';
import { apmCallbackHash } from '../signatures';
import type { CallbackContext } from './callback-context';
import type { S2sOutcome } from './callback-outcomes';
import { conversionCallbackFields } from './conversion-fields';
import { flattenField, formDate, type FormFields } from './form-fields';
import { protocolMappingFields } from './protocol-mapping-fields';

/** The ordered fields of the callback; `after` is the payment state right after the event. */
export function apmCallbackContent(outcome: S2sOutcome, after: ExistingPayment, ctx: CallbackContext): FormFields {
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
