/** Reading an S2S SALE's form (card or APM): its non-empty strings, and the `payer_*` fields as the payment records them. */
import type { PayerSnapshot } from '../../../domain/payment/events';

/** The form as the API received it: names to strings (or lists, for a name sent more than once). */
export type SaleForm = Readonly<Record<string, unknown>>;

/** A non-empty string field of the form, or undefined. */
export function formString(form: SaleForm, name: string): string | undefined {
  const v = form[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

const PAYER_FIELDS: ReadonlyArray<[keyof PayerSnapshot, string]> = [
  ['firstName', 'payer_first_name'],
  ['lastName', 'payer_last_name'],
  ['email', 'payer_email'],
  ['phone', 'payer_phone'],
  ['address', 'payer_address'],
  ['country', 'payer_country'],
  ['state', 'payer_state'],
  ['city', 'payer_city'],
  ['zip', 'payer_zip'],
  ['ip', 'payer_ip'],
  ['birthDate', 'payer_birth_date'],
  ['address2', 'payer_address2'],
  ['houseNumber', 'payer_house_number'],
  ['phoneCountryCode', 'payer_phone_country_code'],
  ['district', 'payer_district'],
];

/** The payer fields that were sent (non-empty), by their snapshot names. */
export function payerOf(form: SaleForm): PayerSnapshot {
  const payer: PayerSnapshot = {};
  for (const [key, field] of PAYER_FIELDS) {
    const value = formString(form, field);
    if (value !== undefined) payer[key] = value;
  }
  return payer;
}

/** A field's problem as the spec words it: `field: message`. */
export const fieldProblem = (field: string, message: string): string => `${field}: ${message}`;
