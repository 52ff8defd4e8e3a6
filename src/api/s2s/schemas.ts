/**
 * JSON schemas of the S2S CARD and S2S APM actions, compiled once at start-up. They check presence
 * and shape; rules that need computation (Luhn, expiry, amounts per currency, a method's
 * parameters, hash) run after them in code.
 */
import { MAX_TOKEN_CHARS } from '../../domain/wallets/token-shape';
const text = (maxLength: number, minLength = 1) => ({ type: 'string', minLength, maxLength });
const uuid = { type: 'string', format: 'uuid' };
const url = { type: 'string', maxLength: 1024, format: 'http-url' };
const decimal = { type: 'string', maxLength: 32, pattern: '^[0-9]+(\\.[0-9]+)?$' };
const yesNo = { type: 'string', enum: ['Y', 'N'] };
const flatObject = {
  type: 'object',
  maxProperties: 50,
  additionalProperties: { type: 'string', maxLength: 1024 },
};

const common = {
  action: { type: 'string' },
  client_key: text(64),
  hash: { type: 'string', minLength: 32, maxLength: 40, pattern: '^[0-9a-fA-F]+$' },
};

/** The order of a SALE and of a recurring charge. */
const orderFields = {
  order_id: text(255),
  order_amount: decimal,
  order_currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  order_description: text(1024),
};

/** The `payer_*` fields a SALE may carry (S2S CARD and S2S APM alike). */
const payerProperties = {
    payer_first_name: text(64),
    payer_last_name: text(64),
    payer_middle_name: text(64),
    payer_birth_date: { type: 'string', format: 'date' },
    payer_address: text(255),
    payer_address2: text(255),
    payer_house_number: text(32),
    payer_phone_country_code: { type: 'string', pattern: '^\\+?[0-9]{1,4}$' },
    payer_district: text(64),
    payer_country: { type: 'string', pattern: '^[A-Z]{2}$' },
    payer_state: text(64),
    payer_city: text(64),
    payer_zip: text(32),
    // Internationalised addresses are real (docs/reference/hashes.md#rules-shared-by-every-formula: hashes upper-case ASCII only).
    payer_email: { type: 'string', maxLength: 256, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
    payer_phone: text(32),
};

const ip = { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] };
const linkTarget = { type: 'string', enum: ['_blank', '_self', '_parent', '_top'] };

export const saleSchema = {
  type: 'object',
  required: [
    'client_key',
    'order_id',
    'order_amount',
    'order_currency',
    'order_description',
    'payer_first_name',
    'payer_last_name',
    'payer_ip',
    'term_url_3ds',
    'hash',
  ],
  properties: {
    ...common,
    ...orderFields,
    card_number: { type: 'string', pattern: '^[0-9]{12,19}$' },
    card_exp_month: { type: 'string', pattern: '^(0?[1-9]|1[0-2])$' },
    card_exp_year: { type: 'string', pattern: '^([0-9]{2}|[0-9]{4})$' },
    card_cvv2: { type: 'string', pattern: '^[0-9]{3,4}$' },
    card_token: text(128),
    // A wallet SALE: the wallet, and its token exactly as the wallet gave it (JSON, never re-encoded).
    digital_wallet: text(32),
    payment_token: text(MAX_TOKEN_CHARS),
    ...payerProperties,
    payer_ip: ip,
    term_url_3ds: url,
    term_url_target: linkTarget,
    notification_url: url,
    auth: yesNo,
    recurring_init: yesNo,
    req_token: yesNo,
    // Checked as a UUID in code: a non-UUID is its own error, not a field error (spec Errors).
    schedule_id: { type: 'string', minLength: 1 },
    schedule_start_date: { type: 'string', format: 'date' },
    payment_schedule_amount: decimal,
    payer_present: yesNo,
    parameters: flatObject,
    custom_data: flatObject,
  },
};

/** RECURRING_SALE and RECURRING_DEBIT: a later charge of a chain; the currency is the chain's. */
export const recurringSchema = {
  type: 'object',
  required: ['client_key', 'order_id', 'order_amount', 'order_description', 'recurring_first_trans_id', 'recurring_token', 'hash'],
  properties: {
    ...common,
    ...orderFields,
    recurring_first_trans_id: uuid,
    recurring_token: text(255),
    custom_data: flatObject,
    notification_url: url,
  },
};

export const byTransIdSchema = {
  type: 'object',
  required: ['client_key', 'trans_id', 'hash'],
  properties: { ...common, trans_id: uuid },
};

export const captureSchema = {
  type: 'object',
  required: ['client_key', 'trans_id', 'hash'],
  properties: { ...common, trans_id: uuid, amount: decimal },
};

export const creditVoidSchema = {
  type: 'object',
  required: ['client_key', 'trans_id', 'amount', 'hash'],
  properties: { ...common, trans_id: uuid, amount: decimal },
};

export const byOrderSchema = {
  type: 'object',
  required: ['client_key', 'order_id', 'hash'],
  properties: { ...common, order_id: text(255) },
};

/**
 * An alternative method's `parameters[...]`: names and, one level down, nested sets
 * (`parameters[bankDetails][cbu]`). What each method takes is checked against its catalogue entry.
 * A wallet's token is longer than any other parameter.
 */
const methodParameters = {
  type: 'object',
  maxProperties: 50,
  properties: { paymentToken: { type: 'string', maxLength: MAX_TOKEN_CHARS } },
  additionalProperties: {
    type: ['string', 'object'],
    maxLength: 1024,
    maxProperties: 20,
    additionalProperties: { type: 'string', maxLength: 1024 },
  },
};

/** S2S APM `SALE` (docs/reference/s2s-apm.md#sale): a non-empty `brand` makes a SALE this one. */
export const apmSaleSchema = {
  type: 'object',
  required: ['client_key', 'brand', 'order_id', 'order_amount', 'order_currency', 'order_description', 'identifier', 'payer_ip', 'return_url', 'hash'],
  properties: {
    ...common,
    brand: text(36),
    ...orderFields,
    identifier: text(255),
    ...payerProperties,
    payer_ip: ip,
    return_url: url,
    return_url_target: linkTarget,
    channel_id: text(255),
    notification_url: url,
    auth: yesNo,
    parameters: methodParameters,
    custom_data: flatObject,
  },
};

/** S2S APM `CREDITVOID`: `amount` is optional there (all that remains). */
export const creditVoidOptionalAmountSchema = {
  type: 'object',
  required: ['client_key', 'trans_id', 'hash'],
  properties: { ...common, trans_id: uuid, amount: decimal },
};

/**
 * S2S APM `CREDIT2VIRTUAL` (docs/reference/s2s-apm.md#credit2virtual): a payout with a payout method (`brand`). What depends
 * on the method (its parameters, the currency and amount bounds, the payee's fields of a mobile-money
 * payout, the email variant's description) is checked in code (src/domain/payouts/payout-rules.ts).
 */
export const credit2VirtualSchema = {
  type: 'object',
  required: ['client_key', 'brand', 'order_id', 'order_amount', 'order_currency', 'hash'],
  properties: {
    ...common,
    brand: text(36),
    order_id: text(255),
    order_amount: decimal,
    order_currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    order_description: text(1024),
    payee_first_name: text(64),
    payee_last_name: text(64),
    payee_email: { type: 'string', maxLength: 254, format: 'email' },
    notification_url: url,
    parameters: methodParameters,
  },
};
