/**
 * What a payment settled in another currency tells the merchant (spec Events item 2, release
 * 6.6.2): `exchange_rate` (units of `exchange_currency` per one unit of `exchange_rate_base`, the
 * payment's currency), `exchange_rate_base`, `exchange_currency`, `exchange_amount` (in that
 * currency's exponent), and `extended_data[...]`, the connector's further data about the settlement.
 * Callbacks of both APIs and both status lookups carry them once the connector reported them; a
 * payment without a conversion carries none of them. None of them is hash input.
 */
import { formatMinor } from '../money';
import type { ExistingPayment } from '../payment/state';
import { flattenField, type FormFields } from './form-fields';

export type ConversionSource = Pick<ExistingPayment, 'conversion' | 'extendedData'>;

/** The flat `exchange_*` fields, in the order callbacks send them. */
export function exchangeFields(p: ConversionSource): FormFields {
  const c = p.conversion;
  if (!c) return [];
  return [
    ['exchange_rate', c.rate],
    ['exchange_rate_base', c.rateBase],
    ['exchange_currency', c.currency],
    ['exchange_amount', formatMinor(c.amount, c.currency)],
  ];
}

/** Callback fields: the `exchange_*` fields, then `extended_data[key]` for each of the connector's data. */
export function conversionCallbackFields(p: ConversionSource): FormFields {
  const fields = exchangeFields(p);
  if (p.extendedData && Object.keys(p.extendedData).length) flattenField('extended_data', p.extendedData, fields);
  return fields;
}

/** Status lookups (JSON): the same, `extended_data` as an object. */
export function conversionStatusFields(p: ConversionSource): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(exchangeFields(p));
  if (p.extendedData && Object.keys(p.extendedData).length) body.extended_data = { ...p.extendedData };
  return body;
}
