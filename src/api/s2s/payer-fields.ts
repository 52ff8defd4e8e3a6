/** The S2S `payer_*` fields of a SALE (card or APM) as the payment records them. */
import type { PayerSnapshot } from '../../domain/payment/events';
import { formString as str, type FormBody } from './s2s-action';

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
export function payerOf(form: FormBody): PayerSnapshot {
  const payer: PayerSnapshot = {};
  for (const [key, field] of PAYER_FIELDS) {
    const value = str(form, field);
    if (value !== undefined) payer[key] = value;
  }
  return payer;
}
