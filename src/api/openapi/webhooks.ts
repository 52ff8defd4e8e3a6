/**
 * Callbacks as OpenAPI webhooks: what the gateway POSTs to a merchant's notification URL
 * (docs/reference/callbacks.md has every field and when it is present).
 */

const headers = [
  { name: 'X-Signature', in: 'header', required: true, schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' }, description: 'HMAC-SHA256 of "<t>.<raw body>" keyed by the password; refuse a t far from your clock' },
  { name: 'X-Delivery-Id', in: 'header', required: true, schema: { type: 'string', format: 'uuid' }, description: 'The same for every retry and redelivery: deduplicate on it' },
  { name: 'X-Delivery-Attempt', in: 'header', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
];

const answered = {
  '200': { description: 'Any 2xx within 10 s; anything else (or none) is retried after 1, 5, 15, 30 minutes, then 1, 2, 4, 8, 16 and 24 hours' },
};

/** When the acquirer or provider settled in another currency (none of them hash input but in S2S APM callbacks). */
const conversion = {
  exchange_rate: { type: 'string', description: 'Units of exchange_currency per one unit of exchange_rate_base, as the acquirer gave it' },
  exchange_rate_base: { type: 'string', description: "The order's currency" },
  exchange_currency: { type: 'string', description: 'The currency the money was settled in' },
  exchange_amount: { type: 'string', description: "The settled amount, in that currency's exponent" },
  extended_data: { type: 'object', additionalProperties: { type: 'string' }, description: "The acquirer's further data about the settlement (extended_data[fx_provider], …)" },
};

const s2sCallback = {
  type: 'object',
  required: ['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'descriptor', 'amount', 'currency', 'hash'],
  properties: {
    action: { type: 'string', enum: ['SALE', 'CAPTURE', 'VOID', 'CREDITVOID', 'RECURRING_SALE', 'RECURRING_DEBIT'] },
    result: { type: 'string', enum: ['SUCCESS', 'DECLINED', 'REDIRECT'] },
    status: { type: 'string', enum: ['SETTLED', 'PENDING', 'DECLINED', '3DS', 'REDIRECT', 'REFUND', 'REVERSAL', 'VOID'] },
    order_id: { type: 'string' },
    trans_id: { type: 'string', format: 'uuid' },
    trans_date: { type: 'string', description: 'When this event happened, YYYY-MM-DD HH:MM:SS UTC' },
    descriptor: { type: 'string' },
    amount: { type: 'string', description: 'Of this operation, in the currency\'s exponent' },
    currency: { type: 'string' },
    decline_reason: { type: 'string' },
    redirect_url: { type: 'string', format: 'uri' },
    redirect_method: { type: 'string', enum: ['POST'] },
    redirect_params: { type: 'object', additionalProperties: { type: 'string' }, description: '3-D Secure: redirect_params[PaReq], redirect_params[MD], redirect_params[TermUrl]' },
    card: { type: 'string', description: 'first6******last4' },
    card_expiration_date: { type: 'string', description: 'MM/YYYY' },
    customer_ip: { type: 'string' },
    custom_data: { type: 'object', description: 'Of the latest request that carried custom_data' },
    ...conversion,
    hash: { type: 'string', description: 'md5(upper(strrev(payer_email) + password + trans_id + strrev(first6 + last4)))' },
  },
};

/** S2S APM payments' callbacks (src/domain/callback/apm-callback-content.ts). */
const apmCallback = {
  type: 'object',
  required: ['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency', 'hash'],
  properties: {
    action: { type: 'string', enum: ['SALE', 'CAPTURE', 'VOID', 'CREDITVOID'] },
    result: { type: 'string', enum: ['SUCCESS', 'DECLINED', 'REDIRECT', 'INIT', 'UNDEFINED'] },
    status: { type: 'string', enum: ['PREPARE', 'REDIRECT', 'PENDING', 'SETTLED', 'DECLINED', 'VOID', 'REFUND', 'REVERSAL'] },
    order_id: { type: 'string' },
    trans_id: { type: 'string', format: 'uuid' },
    trans_date: { type: 'string', description: 'When it happened, YYYY-MM-DD HH:MM:SS UTC' },
    descriptor: { type: 'string', description: "SALE and CAPTURE: the provider's descriptor (empty until it gave one)" },
    amount: { type: 'string', description: "Of the operation, in the currency's exponent" },
    currency: { type: 'string' },
    decline_reason: { type: 'string', description: 'result DECLINED' },
    redirect_url: { type: 'string', format: 'uri', description: 'result REDIRECT' },
    redirect_method: { type: 'string', enum: ['GET'] },
    redirect_params: { type: 'object', additionalProperties: { type: 'string' }, description: 'redirect_params[qr_code] for a QR code' },
    crypto_address: { type: 'string', description: 'INIT of a crypto deposit' },
    crypto_network: { type: 'string' },
    creditvoid_date: { type: 'string', description: 'CREDITVOID: when the refund or release happened, YYYY-MM-DD HH:MM:SS UTC' },
    custom_data: { type: 'object', additionalProperties: { type: 'string' } },
    ...conversion,
    hash: {
      type: 'string',
      description:
        "md5(upper(strrev(v1) + strrev(v2) + … + password)) over every other field of the body, as received: v1, v2, … the values in the order of their names sorted at every level in byte order (integer keys numerically; custom_data[basket] is key basket of custom_data), each value's bytes reversed, the password appended, the whole upper-cased (password included)",
    },
  },
};

/** Payouts' callbacks (CREDIT2VIRTUAL; src/domain/callback/payout-callback-content.ts). */
const payoutCallback = {
  type: 'object',
  required: ['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency', 'hash'],
  properties: {
    action: { const: 'CREDIT2VIRTUAL' },
    result: { type: 'string', enum: ['SUCCESS', 'DECLINED'] },
    status: { type: 'string', enum: ['SETTLED', 'DECLINED'] },
    order_id: { type: 'string' },
    trans_id: { type: 'string', format: 'uuid' },
    trans_date: { type: 'string', description: 'When it was decided, YYYY-MM-DD HH:MM:SS UTC' },
    amount: { type: 'string', description: "In the currency's exponent (XOF and XAF without decimals)" },
    currency: { type: 'string' },
    decline_reason: { type: 'string', description: 'result DECLINED; Insufficient payout balance when the balance could not cover the payout', examples: ['Insufficient payout balance'] },
    hash: { type: 'string', description: 'md5(upper(strrev(trans_id + order_id + status)) + password): the password appended after upper-casing, as it is' },
  },
};

const checkoutCallback = {
  type: 'object',
  required: ['id', 'order_number', 'order_amount', 'order_currency', 'order_description', 'order_status', 'type', 'status', 'date', 'hash'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The payment id' },
    order_number: { type: 'string' },
    order_amount: { type: 'string' },
    order_currency: { type: 'string' },
    order_description: { type: 'string' },
    order_status: { type: 'string', enum: ['prepare', 'settled', 'pending', '3ds', 'redirect', 'decline', 'refund', 'reversal', 'void', 'chargeback'] },
    type: { type: 'string', enum: ['sale', '3ds', 'redirect', 'capture', 'refund', 'void', 'debit', 'credit', 'recurring', 'reversal'] },
    status: { type: 'string', enum: ['success', 'fail', 'waiting', 'undefined'] },
    reason: { type: 'string' },
    card: { type: 'string' },
    card_expiration_date: { type: 'string' },
    card_token: { type: 'string', description: 'Every debit; whenever the card was stored or paid with a stored card' },
    customer_name: { type: 'string' },
    customer_email: { type: 'string' },
    customer_birth_date: { type: 'string' },
    customer_country: { type: 'string' },
    customer_state: { type: 'string' },
    customer_city: { type: 'string' },
    customer_address: { type: 'string' },
    customer_zip: { type: 'string' },
    customer_phone: { type: 'string' },
    customer_ip: { type: 'string', description: "customer.ip of the session-token request, else the payer's address" },
    date: { type: 'string', description: 'When this event happened, YYYY-MM-DD HH:MM:SS UTC' },
    custom_data: { type: 'object', description: 'Of the latest request that carried custom_data, nested as custom_data[a][b]' },
    ...conversion,
    hash: { type: 'string', description: 'sha1(md5(upper(id + order_number + order_amount + order_currency + order_description + password)))' },
  },
};

/** Nested fields travel as `custom_data[key]=value`: the encoding of those the schema has. */
const nestedFields = (schema: { properties: Record<string, unknown> }) =>
  Object.fromEntries(['custom_data', 'redirect_params', 'extended_data'].filter((name) => name in schema.properties).map((name) => [name, { style: 'deepObject', explode: true }]));

const webhook = (operationId: string, summary: string, description: string, schema: { properties: Record<string, unknown> }) => ({
  post: {
    operationId,
    tags: ['Callbacks'],
    summary,
    description,
    parameters: headers,
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema, encoding: nestedFields(schema) } } },
    responses: answered,
  },
});

export const WEBHOOKS: Record<string, unknown> = {
  s2sCardCallback: webhook(
    's2sCardCallback',
    'A payment made on POST /post changed',
    'Sent to the payment\'s notification_url, else the merchant\'s default, for every decided outcome (sale, authorization, decline, 3-D Secure or redirect required, capture, void, refund, release). Fields in the order listed, hash last; a chain\'s charges add their chain fields, and the merchant\'s Protocol Mapping adds the fields it switches on.',
    s2sCallback,
  ),
  s2sApmCallback: webhook(
    's2sApmCallback',
    'An S2S APM payment changed',
    "A payment made on POST /post with a brand (an alternative method or a wallet brand): its outcome (SUCCESS, DECLINED, REDIRECT for the provider's page or a QR code, INIT when the payer confirms elsewhere, UNDEFINED while the provider has not answered) and its captures, voids, refunds and releases. Fields in the order listed, hash last; the merchant's Protocol Mapping adds the fields it switches on (brand and checkout_payment_method are the method), and all of them are hash input.",
    apmCallback,
  ),
  payoutCallback: webhook(
    'payoutCallback',
    'A payout (CREDIT2VIRTUAL) was decided',
    'One callback once the payout is paid out or declined; none while it waits for its provider (the answer said UNDEFINED/PREPARE). The fields of the answer, hash last, with the payout formula (not the S2S APM callback one).',
    payoutCallback,
  ),
  checkoutCallback: webhook(
    'checkoutCallback',
    'A Checkout payment changed',
    'Payments of a Checkout session, hosted payment fields, a card credit or a Checkout recurring charge.',
    checkoutCallback,
  ),
};
