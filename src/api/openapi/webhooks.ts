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
    card: { type: 'string', description: 'first6******last4' },
    card_expiration_date: { type: 'string', description: 'MM/YYYY' },
    customer_ip: { type: 'string' },
    hash: { type: 'string', description: 'md5(upper(strrev(payer_email) + password + trans_id + strrev(first6 + last4)))' },
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
    card_token: { type: 'string' },
    date: { type: 'string', description: 'When this event happened, YYYY-MM-DD HH:MM:SS UTC' },
    hash: { type: 'string', description: 'sha1(md5(upper(id + order_number + order_amount + order_currency + order_description + password)))' },
  },
};

const webhook = (operationId: string, summary: string, description: string, schema: object) => ({
  post: {
    operationId,
    tags: ['Callbacks'],
    summary,
    description,
    parameters: headers,
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema, encoding: { custom_data: { style: 'deepObject', explode: true } } } } },
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
  checkoutCallback: webhook(
    'checkoutCallback',
    'A Checkout payment changed',
    'Payments of a Checkout session, hosted payment fields, a card credit or a Checkout recurring charge.',
    checkoutCallback,
  ),
};
