/**
 * JSON schemas of the Checkout API, compiled once at start-up. They check presence and shape;
 * what needs computation (currency, amount per currency exponent, which fields an operation
 * takes, hash) runs after them in code. Limits: docs/reference/checkout.md#sessions.
 */
import { LINK_TARGETS } from '../../domain/checkout/session-events';

const text = (maxLength: number, minLength = 1) => ({ type: 'string', minLength, maxLength });
const url = { type: 'string', maxLength: 1024, format: 'http-url' };
/** Parsed per currency in code (parseAmount), whose message says what a valid amount looks like. */
const amount = text(32);
const uuid = { type: 'string', format: 'uuid' };
const date = { type: 'string', format: 'date' };
const hash = text(128);
const freeObject = { type: 'object', maxProperties: 50 };

export const COUNTRY_PATTERN = '^[A-Za-z]{2}$';

const address = {
  type: 'object',
  properties: {
    country: { type: 'string', pattern: COUNTRY_PATTERN },
    state: text(64),
    city: text(64),
    address: text(255),
    zip: text(32),
    phone: text(32),
    house_number: text(32),
    district: text(64),
  },
};

const customer = {
  type: 'object',
  properties: {
    name: text(255),
    email: { type: 'string', maxLength: 256, format: 'email' },
    birth_date: date,
  },
};

const sessionProperties = {
  merchant_key: { type: 'string' },
  operation: { type: 'string', enum: ['purchase', 'debit', 'credit'] },
  methods: { type: 'array', minItems: 1, maxItems: 20, items: text(64) },
  parameters: freeObject,
  order: {
    type: 'object',
    required: ['number', 'amount', 'currency', 'description'],
    properties: {
      number: text(255),
      amount,
      currency: { type: 'string' },
      description: text(1024, 2),
    },
  },
  success_url: url,
  cancel_url: url,
  expiry_url: url,
  error_url: url,
  return_url: url,
  url_target: { type: 'string', enum: LINK_TARGETS },
  session_expiry: { type: 'integer', minimum: 1, maximum: 720 },
  req_token: { type: 'boolean' },
  recurring_init: { type: 'boolean' },
  vat_calc: { type: 'boolean' },
  auth: { type: 'boolean' },
  customer,
  billing_address: address,
  custom_data: freeObject,
  notification_url: url,
  schedule_id: uuid,
  schedule_start_date: date,
  payment_schedule_amount: amount,
  card_token: text(128),
  payee_first_name: text(64),
  payee_last_name: text(64),
  // A plain name, or the recipient's details.
  payee: {
    type: ['string', 'object'],
    minLength: 1,
    maxLength: 255,
    properties: { name: text(255), first_name: text(64), last_name: text(64) },
  },
  payee_billing_address: address,
  hash,
};

/** `POST /api/v1/session`. */
export const sessionSchema = {
  type: 'object',
  required: ['operation', 'order', 'success_url', 'hash'],
  properties: sessionProperties,
};

/** `POST /api/v1/session/token`: hosted payment fields pay or debit a card the payer types; 3DS returns to `return_url`. */
export const sessionTokenSchema = {
  type: 'object',
  required: ['operation', 'order', 'return_url', 'hash'],
  properties: {
    ...sessionProperties,
    operation: { type: 'string', enum: ['purchase', 'debit'] },
    customer: {
      ...customer,
      properties: { ...customer.properties, ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] } },
    },
  },
};

/** `size` is a string or an integer; its range is checked in code (its own error message). */
export const statusSchema = {
  type: 'object',
  required: ['hash'],
  properties: { merchant_key: { type: 'string' }, payment_id: uuid, order_id: text(255), size: { type: ['string', 'integer'] }, hash },
};

export const captureSchema = {
  type: 'object',
  required: ['payment_id', 'amount', 'hash'],
  properties: { merchant_key: { type: 'string' }, payment_id: uuid, amount, hash },
};

export const voidSchema = {
  type: 'object',
  required: ['payment_id', 'hash'],
  properties: { merchant_key: { type: 'string' }, payment_id: uuid, hash },
};

export const refundSchema = captureSchema;

/**
 * `POST /api/v1/payment/card/credit`: flat order fields, one stored card. The endpoint is the
 * operation: `operation` may be left out (clients of the family do), and when sent it must be `credit`.
 */
export const cardCreditSchema = {
  type: 'object',
  required: ['order_id', 'order_amount', 'order_currency', 'order_description', 'card_token', 'hash'],
  properties: {
    merchant_key: { type: 'string' },
    operation: { type: 'string', enum: ['credit'] },
    order_id: text(255),
    order_amount: amount,
    order_currency: { type: 'string' },
    order_description: text(1024, 2),
    card_token: text(128),
    name: text(255),
    payee_first_name: text(64),
    payee_last_name: text(64),
    success_url: url,
    cancel_url: url,
    notification_url: url,
    custom_data: freeObject,
    hash,
  },
};

/**
 * `POST /api/v1/payment/recurring` (docs/reference/checkout.md#recurring-charge): a later charge of a chain. The currency is
 * the first payment's, so `order.currency` is optional (and, when sent, must be that one).
 */
export const recurringSchema = {
  type: 'object',
  required: ['recurring_init_trans_id', 'recurring_token', 'order', 'hash'],
  properties: {
    merchant_key: { type: 'string' },
    recurring_init_trans_id: uuid,
    recurring_token: text(255),
    order: {
      type: 'object',
      required: ['number', 'amount', 'description'],
      properties: { number: text(255), amount, currency: { type: 'string' }, description: text(1024, 2) },
    },
    schedule_id: uuid,
    schedule_start_date: date,
    payment_schedule_amount: amount,
    custom_data: freeObject,
    hash,
  },
};
