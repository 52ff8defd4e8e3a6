/**
 * The Checkout JSON API and the hosted payment fields' processing requests in the document, each
 * with the schema its route validates with (src/api/checkout/schemas.ts,
 * src/api/hosted-fields/schemas.ts; schedules from schedule-schemas.ts).
 */
import {
  captureSchema,
  cardCreditSchema,
  recurringSchema,
  refundSchema,
  sessionSchema,
  sessionTokenSchema,
  statusSchema,
  voidSchema,
} from '../checkout/schemas';
import { retrySchema } from '../checkout/retry-route';
import { processingSchema } from '../hosted-fields/schemas';
import { BRANDS_PATH } from '../sdk/pay-session-script';
import { extendObject, toOpenApiSchema } from './json-schema';
import { descheduleSchema, scheduleCreateSchema, scheduleRefSchema, scheduleUpdateSchema } from './schedule-schemas';

interface CheckoutOperation {
  path: string;
  operationId: string;
  summary: string;
  hash: string;
  schema: object;
  answer: Record<string, unknown>;
  description?: string;
}

const sha = (input: string) => `sha1(md5(upper(${input} + password)))`;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const redirectAnswer = {
  type: 'object',
  required: ['redirect_url', 'redirect_method'],
  properties: { redirect_url: { type: 'string', format: 'uri' }, redirect_method: { type: 'string', enum: ['GET'] }, first_recurring_date: { type: 'string', format: 'date' } },
};

const operationAnswer = {
  type: 'object',
  description: 'The payment after the operation, as a status lookup reports it.',
  allOf: [ref('CheckoutPaymentStatus')],
};

export const CHECKOUT_OPERATIONS: readonly CheckoutOperation[] = [
  {
    path: '/api/v1/session',
    operationId: 'createSession',
    summary: 'Open a hosted payment page session',
    hash: sha('order.number + order.amount + order.currency + order.description'),
    schema: sessionSchema,
    answer: redirectAnswer,
    description: 'Send the payer to redirect_url (GET).',
  },
  {
    path: '/api/v1/session/token',
    operationId: 'createSessionToken',
    summary: 'Open a session for hosted payment fields',
    hash: sha('order.number + order.amount + order.currency + order.description'),
    schema: sessionTokenSchema,
    answer: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
    description: 'The token goes to the hosted fields script on the merchant\'s page (GET /sdk/hosted-fields.js).',
  },
  {
    path: '/api/v1/payment/status',
    operationId: 'paymentStatus',
    summary: 'Status of a payment, or of an order\'s payments',
    hash: `${sha('payment_id')}, or ${sha('order_id')}`,
    schema: statusSchema,
    answer: { oneOf: [ref('CheckoutPaymentStatus'), { type: 'array', items: ref('CheckoutPaymentStatus') }], description: 'One payment; an array (newest first) when size is sent.' },
  },
  { path: '/api/v1/payment/capture', operationId: 'capturePayment', summary: 'Capture an authorization', hash: sha('payment_id + amount'), schema: captureSchema, answer: operationAnswer },
  { path: '/api/v1/payment/void', operationId: 'voidPayment', summary: 'Void a settled payment, or release an authorization', hash: sha('payment_id'), schema: voidSchema, answer: operationAnswer },
  { path: '/api/v1/payment/refund', operationId: 'refundPayment', summary: 'Refund a settled payment, in full or in part', hash: sha('payment_id + amount'), schema: refundSchema, answer: operationAnswer },
  {
    path: '/api/v1/payment/retry',
    operationId: 'retryPayment',
    summary: "Charge a declined payment's stored card again, as the next attempt of its session",
    hash: sha('payment_id'),
    schema: retrySchema,
    answer: { type: 'object', required: ['payment_id', 'result'], properties: { payment_id: { type: 'string', format: 'uuid' }, result: { const: 'accepted' } } },
    description: "Within the session's rules (not after expiry or cancellation, not while an attempt is in flight, not once paid, at most five attempts). The new attempt's outcome comes by callback and by a status lookup of the order.",
  },
  {
    path: '/api/v1/payment/card/credit',
    operationId: 'cardCredit',
    summary: 'Credit a stored card',
    hash: sha('order_id + order_amount + order_currency + order_description'),
    schema: cardCreditSchema,
    answer: redirectAnswer,
  },
  {
    path: '/api/v1/payment/recurring',
    operationId: 'recurringCharge',
    summary: "Charge a recurring chain's stored card again",
    hash: sha('recurring_init_trans_id + recurring_token + order.number + order.amount + order.description'),
    schema: recurringSchema,
    answer: ref('CheckoutPaymentStatus'),
  },
  {
    path: '/api/v1/schedule/create',
    operationId: 'createSchedule',
    summary: 'Create a schedule of automatic payments',
    hash: sha('name + interval_length + interval_unit + payments_count'),
    schema: scheduleCreateSchema('json'),
    answer: ref('ScheduleRecord'),
  },
  { path: '/api/v1/schedule/update', operationId: 'updateSchedule', summary: 'Change a schedule', hash: sha('schedule_id'), schema: scheduleUpdateSchema('json'), answer: ref('ScheduleRecord') },
  { path: '/api/v1/schedule/pause', operationId: 'pauseSchedule', summary: 'Pause a schedule (its due dates are skipped)', hash: sha('schedule_id'), schema: scheduleRefSchema, answer: ref('ScheduleRecord') },
  { path: '/api/v1/schedule/run', operationId: 'runSchedule', summary: 'Resume a paused schedule', hash: sha('schedule_id'), schema: scheduleRefSchema, answer: ref('ScheduleRecord') },
  { path: '/api/v1/schedule/info', operationId: 'scheduleInfo', summary: 'Read a schedule', hash: sha('schedule_id'), schema: scheduleRefSchema, answer: ref('ScheduleRecord') },
  {
    path: '/api/v1/schedule/delete',
    operationId: 'deleteSchedule',
    summary: 'Delete a schedule (its chains end)',
    hash: sha('schedule_id'),
    schema: scheduleRefSchema,
    answer: { type: 'object', properties: { schedule_id: { type: 'string', format: 'uuid' }, status: { const: 'deleted' } } },
  },
  {
    path: '/api/v1/schedule/deschedule',
    operationId: 'deschedule',
    summary: 'Stop the automatic payments of a schedule\'s chains, keeping the schedule',
    hash: sha('schedule_id'),
    schema: descheduleSchema,
    answer: {
      type: 'object',
      properties: { schedule_id: { type: 'string', format: 'uuid' }, status: { const: 'descheduled' }, recurring_init_trans_id: { type: 'string', format: 'uuid' } },
    },
  },
];

const PROCESSING = ['purchase', 'debit'] as const;

const errorResponses = {
  '400': { $ref: '#/components/responses/Invalid' },
  '429': { $ref: '#/components/responses/TooManyFailures' },
  '503': { $ref: '#/components/responses/Unavailable' },
};

export function addCheckout(doc: { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }): void {
  doc.components.schemas.CheckoutPaymentStatus = CHECKOUT_PAYMENT_STATUS;
  for (const op of CHECKOUT_OPERATIONS) {
    const body = extendObject(toOpenApiSchema(op.schema), {
      properties: {
        merchant_key: { type: 'string', description: "The merchant's Checkout key (test_mk_… in the sandbox)." },
        hash: { type: 'string', minLength: 1, maxLength: 128, description: op.hash },
      },
      required: ['merchant_key', 'hash'],
    });
    doc.paths[op.path] = {
      post: {
        operationId: op.operationId,
        tags: [op.path.startsWith('/api/v1/schedule/') ? 'Checkout schedules' : 'Checkout'],
        summary: op.summary,
        description: [op.description, `hash = ${op.hash}, over the values exactly as sent (a JSON number as its decimal text).`].filter(Boolean).join('\n\n'),
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: { '200': { description: 'Done', content: { 'application/json': { schema: op.answer } } }, ...errorResponses },
      },
    };
  }
  doc.paths[BRANDS_PATH] = SDK_BRANDS_PATH;
  for (const operation of PROCESSING) {
    doc.paths[`/api/v1/processing/${operation}/card`] = {
      post: {
        operationId: `processing${operation === 'purchase' ? 'Purchase' : 'Debit'}Card`,
        tags: ['Hosted payment fields'],
        summary: `Pay the session's ${operation} with the card typed into the hosted fields`,
        description: 'Sent by the merchant\'s page after the hosted fields script has posted the card to the gateway. No hash: the session token in the Token header authenticates.',
        parameters: [{ name: 'Token', in: 'header', required: true, schema: { type: 'string' }, description: 'The token of POST /api/v1/session/token.' }],
        requestBody: { required: true, content: { 'application/json': { schema: toOpenApiSchema(processingSchema) } } },
        responses: {
          '200': {
            description: 'The payment, or where to send the payer (3-D Secure)',
            content: { 'application/json': { schema: { type: 'object', properties: { result: { type: 'string' }, public_id: { type: 'string' }, redirect_url: { type: 'string', format: 'uri' } } } } },
          },
          ...errorResponses,
        },
      },
    };
  }
}

/**
 * What the Checkout SDK's `getAvailableBrands()` asks the gateway (src/api/sdk/pay-session-routes.ts):
 * the wallets a session offers. Credentialed by the session id (or hosted fields token) alone.
 */
const SDK_BRANDS_PATH = {
  get: {
    operationId: 'sdkAvailableBrands',
    tags: ['Checkout'],
    summary: 'The wallets a Checkout session offers (what getAvailableBrands() in /sdk/pay-session.js starts from)',
    description:
      "Asked by the Checkout SDK from the merchant's page or the hosted page, cross-origin (Access-Control-Allow-Origin: *), never cached. Give session (the Checkout session's id: the last part of its redirect_url) or token (a hosted fields session token). brands: the wallets the session names in methods, in that order, that the merchant has enabled and a wallet flow can pay; [] once the session is cancelled or expired, and for a hosted fields session. The SDK then keeps those the device can use (all of them when simulated). No hash.",
    parameters: [
      { name: 'session', in: 'query', required: false, schema: { type: 'string', format: 'uuid' }, description: "The Checkout session's id. One of session and token is required." },
      { name: 'token', in: 'query', required: false, schema: { type: 'string', maxLength: 256 }, description: 'A hosted fields session token (POST /api/v1/session/token).' },
    ],
    responses: {
      '200': {
        description: 'The wallets',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['brands', 'simulated'],
              properties: {
                brands: { type: 'array', items: { type: 'string', enum: ['applepay', 'googlepay'] } },
                simulated: { type: 'boolean', description: "true in the sandbox: its simulated wallets stand in for the device's" },
              },
            },
            example: { brands: ['googlepay', 'applepay'], simulated: true },
          },
        },
      },
      '400': {
        description: 'Neither parameter (session: This value should not be blank.), an unknown session (session: The session does not exist.) or token (token: The session token is not valid.)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  },
};

const CHECKOUT_PAYMENT_STATUS = {
  type: 'object',
  required: ['payment_id', 'date', 'status', 'order', 'type'],
  properties: {
    payment_id: { type: 'string', format: 'uuid' },
    date: { type: 'string', description: 'Last change, YYYY-MM-DD HH:MM:SS UTC' },
    status: { type: 'string', description: 'An order_status word: prepare, settled, pending, decline, refund, reversal, void, 3ds, redirect, …' },
    order: {
      type: 'object',
      properties: { number: { type: 'string' }, amount: { type: 'string' }, currency: { type: 'string' }, description: { type: 'string' } },
    },
    type: { type: 'string', enum: ['sale', 'debit', 'credit', 'recurring'] },
    reason: { type: 'string' },
    card: { type: 'string', description: 'first6******last4' },
    card_expiration_date: { type: 'string', description: 'MM/YYYY' },
    card_token: { type: 'string' },
    customer: { type: 'object', additionalProperties: { type: 'string' } },
    custom_data: { type: 'object' },
  },
};
