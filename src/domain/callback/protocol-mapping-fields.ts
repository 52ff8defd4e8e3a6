/**
 * The optional fields a merchant's Protocol Mapping adds to what it is told about a payment.
 * Callbacks and status responses share them, with one difference (spec, S2S synchronous response
 * fields): in a callback a switched-on field without a value is sent empty, so the merchant's parser
 * always sees the same fields; in a status response it is left out.
 */
import {
  PROTOCOL_MAPPING_FIELDS,
  type CallbackFieldSwitch,
  type ProtocolMapping,
} from '../merchant/protocol-mapping';
import type { ExistingPayment } from '../payment/state';
import { isWallet } from '../wallets/token-shape';
import type { FormFields } from './form-fields';

/** What the optional fields are made of. */
export type ProtocolMappingSource = Pick<
  ExistingPayment,
  'card' | 'method' | 'payer' | 'recurringInit' | 'cardSource' | 'rrn' | 'arn' | 'threeDS' | 'browser' | 'recurring' | 'payerPresent'
>;

export type FieldPresence = 'callback' | 'status';

/** `MM/YYYY`. */
export const cardExpirationDate = (card: NonNullable<ExistingPayment['card']>): string => `${card.expMonth.padStart(2, '0')}/${card.expYear}`;

/**
 * Card-on-file discriminators of a payment on `/post`:
 * - `initiator`: `merchant` for a chain's later charges (RECURRING_SALE, RECURRING_DEBIT, scheduled)
 *   and for a `card_token` SALE sent with `payer_present=N`; `cardholder` otherwise.
 * - `source`: `new_card` when the card number was sent, `stored_card` when a `card_token` was used
 *   or the chain's stored card is charged.
 * - `sequence`: `initial` when this payment stores the card for later (`req_token=Y` or
 *   `recurring_init=Y`), `subsequent` when it uses a stored card, `single` otherwise.
 */
export function cardOnFile(p: ProtocolMappingSource): { initiator: string; source: string; sequence: string } {
  // A chain's charges keep the cardSource of its first payment (for the callback hash), so the
  // chain link, not cardSource, says the card was stored.
  const role = p.recurring?.role;
  if (role === 'recurring' || role === 'scheduled') return { initiator: 'merchant', source: 'stored_card', sequence: 'subsequent' };
  const stored = p.cardSource === 'card_token';
  const storing = !stored && (p.recurringInit || (p.card?.token ?? null) !== null);
  return {
    initiator: stored && p.payerPresent === false ? 'merchant' : 'cardholder',
    source: stored ? 'stored_card' : 'new_card',
    sequence: stored ? 'subsequent' : storing ? 'initial' : 'single',
  };
}

const text = (v: string | number | boolean | undefined): string | undefined => (v === undefined ? undefined : String(v));

/**
 * The wallet a payment was made with: the one whose token the gateway decrypted (card flow), or a
 * wallet method whose token went to the connector undecrypted (virtual flow); none for anything else.
 */
export function digitalWalletOf(p: Pick<ProtocolMappingSource, 'card' | 'method'>): string | undefined {
  if (p.card?.wallet) return p.card.wallet;
  return p.method && isWallet(p.method.brand) ? p.method.brand : undefined;
}

type FieldValues = Record<string, string | undefined>;

/** The payer's own fields, each switched on alone. */
const payerField =
  (name: string, key: keyof ProtocolMappingSource['payer']) =>
  (p: ProtocolMappingSource): FieldValues => ({ [name]: p.payer[key] });

function threeDSValues(p: ProtocolMappingSource): FieldValues {
  const t = p.threeDS;
  return {
    threeDSServerTransID: t?.threeDSServerTransID,
    dsTransID: t?.dsTransID,
    acsTransID: t?.acsTransID,
    xid: t?.xid,
    transStatus: t?.transStatus,
    transStatusReason: t?.transStatusReason,
    eci: t?.eci,
    protocolVersion: t?.protocolVersion,
    authenticationFlow: t?.authenticationFlow,
  };
}

function browserValues(p: ProtocolMappingSource): FieldValues {
  const b = p.browser ?? {};
  return {
    browser_color_depth: text(b.colorDepth),
    browser_screen_height: text(b.screenHeight),
    browser_screen_width: text(b.screenWidth),
    browser_java_enabled: text(b.javaEnabled),
    browser_javascript_enabled: text(b.javascriptEnabled),
    browser_language: b.language,
    browser_timezone_offset: text(b.timezoneOffset),
    browser_user_agent: b.userAgent,
    browser_accept_headers: b.acceptHeaders,
    browser_platform: b.platform,
  };
}

/** What each switch's fields hold for a payment. */
const VALUES: { [G in CallbackFieldSwitch]: (p: ProtocolMappingSource) => FieldValues } = {
  // A payment made with an alternative method has no card: the fields have no value.
  card: (p) => (p.card ? { card: p.card.mask, card_expiration_date: cardExpirationDate(p.card) } : { card: undefined, card_expiration_date: undefined }),
  brand: (p) => ({ brand: p.method?.brand ?? p.card?.brand }),
  arn_rrn: (p) => ({ arn: p.arn, rrn: p.rrn }),
  card_on_file: (p) => cardOnFile(p),
  // A card payment is `card` whatever its brand; an alternative method is its identifier; a
  // wallet is the wallet's even when the gateway decrypted its token (spec, Protocol Mapping).
  checkout_payment_method: (p) => ({ checkout_payment_method: digitalWalletOf(p) ?? p.method?.brand ?? 'card' }),
  three_ds: threeDSValues,
  browser: browserValues,
  // `pan_type` only when the token was decrypted (card flow): the virtual flow never sees the card.
  wallet: (p) => ({ digital_wallet: digitalWalletOf(p), pan_type: p.card?.panType }),
  payer_first_name: payerField('payer_first_name', 'firstName'),
  payer_last_name: payerField('payer_last_name', 'lastName'),
  payer_birth_date: payerField('payer_birth_date', 'birthDate'),
  payer_address: payerField('payer_address', 'address'),
  payer_address2: payerField('payer_address2', 'address2'),
  payer_house_number: payerField('payer_house_number', 'houseNumber'),
  payer_phone_country_code: payerField('payer_phone_country_code', 'phoneCountryCode'),
  payer_country: payerField('payer_country', 'country'),
  payer_state: payerField('payer_state', 'state'),
  payer_city: payerField('payer_city', 'city'),
  payer_district: payerField('payer_district', 'district'),
  payer_zip: payerField('payer_zip', 'zip'),
  payer_email: payerField('payer_email', 'email'),
  payer_phone: payerField('payer_phone', 'phone'),
  payer_ip: payerField('payer_ip', 'ip'),
};

/**
 * The switched-on fields, in the mapping's canonical order. `card` adds nothing to a callback,
 * which always carries the card (spec Events item 2).
 */
export function protocolMappingFields(p: ProtocolMappingSource, mapping: ProtocolMapping, presence: FieldPresence): FormFields {
  const out: FormFields = [];
  for (const group of mapping.fields) {
    if (group === 'card' && presence === 'callback') continue;
    const values = VALUES[group](p);
    for (const name of PROTOCOL_MAPPING_FIELDS[group]) {
      const value = values[name];
      if (value !== undefined && value !== '') out.push([name, value]);
      else if (presence === 'callback') out.push([name, '']);
    }
  }
  return out;
}
