/**
 * `POST /post` in the document: one operation whose form body is a `oneOf` over the actions,
 * discriminated by `action` (OpenAPI has one operation per path and method). Each action's schema
 * is the one its validator checks (compileValidator keeps it); the schedule actions, read by code,
 * take theirs from schedule-schemas.ts.
 */
import type { S2sAction } from '../s2s/s2s-action';
import { apmSaleSchema } from '../s2s/schemas';
import { extendObject, toOpenApiSchema } from './json-schema';
import { scheduleCreateSchema, scheduleRecordSchema, scheduleRefSchema, scheduleUpdateSchema } from './schedule-schemas';

interface ActionDoc {
  summary: string;
  description: string;
  hash: string;
  answer: 'payment' | 'payout' | 'status' | 'accepted' | 'schedule' | 'scheduleDeleted';
}

const SALE_HASH =
  'md5(upper(strrev(payer_email) + password + strrev(first6 + last4))); with card_token: md5(upper(strrev(payer_email) + password + strrev(card_token))); with digital_wallet and payment_token (Formula 8): md5(upper(strrev(payer_email) + password))';
const TRANS_ID_HASH = 'sha1(md5(upper(trans_id + password)))';
const ORDER_ID_HASH = 'sha1(md5(upper(order_id + password)))';

/** What each action does and how it is signed (docs/reference/s2s-card.md has the whole story). */
export const S2S_ACTION_DOCS: Readonly<Record<string, ActionDoc>> = {
  SALE: {
    summary: 'Pay with a card or a stored card token',
    description:
      'A sale (or, with auth=Y, an authorization to capture later). The answer is SUCCESS, DECLINED, REDIRECT (3-D Secure or another payer step) or ACCEPTED (outcome follows by callback). recurring_init=Y starts a recurring chain; schedule_id also schedules its automatic payments. Instead of a card: card_token, or a wallet token (digital_wallet applepay or googlepay, payment_token exactly as the wallet gave it), paid in the card flow when the merchant has the wallet\'s keys (refused 204018 otherwise, 250003 for a token that cannot be trusted). A SALE with a non-empty brand is an APM SALE (S2sApmSaleRequest).',
    hash: SALE_HASH,
    answer: 'payment',
  },
  CREDIT2VIRTUAL: {
    summary: 'Pay out from the payout balance with a payout method (S2S APM)',
    description:
      "Money to a payee's mobile-money wallet (brand sb-momo: parameters[mobile_money_operator], parameters[mobile_number], parameters[customer_email], payee_first_name, payee_last_name, payee_email; order_currency one of GHS, KES, XOF, XAF, TZS, EGP within the operator's or country's bounds) or to an email (brand sb-payout-email: parameters[CustomerName], parameters[Email], parameters[SecurityQuestion] 10 to 40, parameters[SecurityQuestionAnswer] 3 to 40 without spaces, parameters[account_uuid], parameters[fee_calculation_method], order_description 5 to 200). Answered SUCCESS/SETTLED, DECLINED/DECLINED (decline_reason Insufficient payout balance when the balance cannot cover it) or UNDEFINED/PREPARE (decided later: callback and GET_TRANS_STATUS with the APM formula). CAPTURE, VOID and CREDITVOID on a payout: 204005. docs/payouts.md.",
    hash: 'md5(upper(strrev(order_id + order_amount + order_currency)) + password)',
    answer: 'payout',
  },
  GET_TRANS_STATUS: { summary: 'Status of a payment by trans_id', description: 'Where the payment stands now.', hash: TRANS_ID_HASH, answer: 'status' },
  GET_TRANS_STATUS_BY_ORDER: {
    summary: 'Status of the newest payment of an order',
    description: "Where the order's newest payment stands now.",
    hash: ORDER_ID_HASH,
    answer: 'status',
  },
  CAPTURE: { summary: 'Capture an authorization', description: 'The whole authorized amount, or less with amount.', hash: TRANS_ID_HASH, answer: 'payment' },
  VOID: { summary: 'Void a settled payment or capture', description: 'On the day it settled.', hash: TRANS_ID_HASH, answer: 'payment' },
  CREDITVOID: {
    summary: 'Refund a settled payment, or release an authorization',
    description: 'Full or partial; answered ACCEPTED, the outcome follows by callback.',
    hash: TRANS_ID_HASH,
    answer: 'accepted',
  },
  RECURRING_SALE: {
    summary: "Charge a recurring chain's stored card again",
    description: 'Named by the chain\'s first payment (recurring_first_trans_id) and proven by its recurring_token; the currency is the chain\'s.',
    hash: ORDER_ID_HASH,
    answer: 'payment',
  },
  RECURRING_DEBIT: { summary: 'Charge a debit chain again', description: 'As RECURRING_SALE, on a debit chain.', hash: ORDER_ID_HASH, answer: 'payment' },
  CREATE_SCHEDULE: { summary: 'Create a schedule of automatic payments', description: 'A template chains follow once a SALE names it.', hash: 'md5(upper(strrev(password)))', answer: 'schedule' },
  UPDATE_SCHEDULE: { summary: 'Change a schedule', description: 'Changes only the fields sent.', hash: 'sha1(md5(upper(schedule_id + password)))', answer: 'schedule' },
  DELETE_SCHEDULE: { summary: 'Delete a schedule', description: 'Its chains end.', hash: 'sha1(md5(upper(schedule_id + password)))', answer: 'scheduleDeleted' },
};

/** The second shape of SALE (decisions §1): a non-empty `brand` makes it an APM SALE, validated with apmSaleSchema. */
const APM_SALE_DOC: ActionDoc = {
  summary: 'Pay with an alternative method (S2S APM SALE)',
  description:
    "brand names the method (204011 when no connector offers it, 204006 when the merchant does not take it); parameters[...] carries what the method needs (each method's catalogue entry: unknown or missing parameters are field errors); identifier is the merchant's reference of the payer; return_url is where the payer comes back. A wallet brand (applepay, googlepay) pays with parameters[paymentToken]. Answered SUCCESS/SETTLED, DECLINED/DECLINED, REDIRECT/REDIRECT (a GET page), REDIRECT/PENDING (a QR code in redirect_params.qr_code), INIT/PENDING (the payer confirms elsewhere; crypto_address, crypto_network) or UNDEFINED/PREPARE. Follow-ups by trans_id take the APM formulas.",
  hash: 'md5(upper(strrev(identifier + order_id + order_amount + order_currency + password)))',
  answer: 'payment',
};

/** Schemas of actions whose fields are read by code rather than a JSON schema. */
const CODE_READ_SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = {
  CREATE_SCHEDULE: scheduleCreateSchema('form'),
  UPDATE_SCHEDULE: scheduleUpdateSchema('form'),
  DELETE_SCHEDULE: scheduleRefSchema,
};

const componentName = (action: string): string =>
  `S2s${action
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Request`;

/** A documented action's form schema, or an error naming what is missing (the test reports it). */
export function s2sActionSchema(name: string, action: Pick<S2sAction, 'validate'>): Record<string, unknown> {
  const source = action.validate.schema ?? CODE_READ_SCHEMAS[name];
  const doc = S2S_ACTION_DOCS[name];
  if (!source || !doc) throw new Error(`S2S action ${name} is not documented: give it a schema and an entry in S2S_ACTION_DOCS (src/api/openapi/s2s.ts)`);
  return documentedSchema(name, source, doc);
}

/** The APM SALE's form schema: the same action as the card SALE, told apart by its brand. */
export const apmSaleRequestSchema = (): Record<string, unknown> => documentedSchema('SALE', apmSaleSchema, APM_SALE_DOC);

function documentedSchema(name: string, source: object, doc: ActionDoc): Record<string, unknown> {
  const base = toOpenApiSchema(source);
  const properties = base.properties as Record<string, unknown> | undefined;
  return extendObject(base, {
    title: name,
    description: `${doc.summary}. ${doc.description} hash = ${doc.hash}.`,
    properties: {
      action: { const: name },
      client_key: properties?.client_key ?? { type: 'string', minLength: 1, maxLength: 64 },
      hash: properties?.hash ?? { type: 'string', minLength: 32, maxLength: 40, pattern: '^[0-9a-fA-F]+$' },
    },
    required: ['action', 'client_key', 'hash'],
  });
}

export const APM_SALE_COMPONENT = 'S2sApmSaleRequest';

const ANSWER_SCHEMAS: Readonly<Record<ActionDoc['answer'], string>> = {
  payment: 'S2sPaymentAnswer',
  payout: 'S2sPayoutAnswer',
  status: 'S2sStatusAnswer',
  accepted: 'S2sAcceptedAnswer',
  schedule: 'ScheduleRecord',
  scheduleDeleted: 'S2sScheduleDeleted',
};

/** Adds the `/post` operation and the components it names; the action names come from the live allowlist. */
export function addS2s(doc: { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }, actions: Record<string, Pick<S2sAction, 'validate'>>): void {
  const names = Object.keys(actions);
  const mapping: Record<string, string> = {};
  for (const name of names) {
    doc.components.schemas[componentName(name)] = s2sActionSchema(name, actions[name]);
    mapping[name] = `#/components/schemas/${componentName(name)}`;
  }
  const answers = [...new Set(names.map((name) => ANSWER_SCHEMAS[S2S_ACTION_DOCS[name]!.answer]))];
  Object.assign(doc.components.schemas, S2S_ANSWER_COMPONENTS, { ScheduleRecord: scheduleRecordSchema });
  // SALE has two shapes: the discriminator names the card one, the APM one is told apart by brand.
  const apmSale = names.includes('SALE') ? [{ $ref: `#/components/schemas/${APM_SALE_COMPONENT}` }] : [];
  if (apmSale.length) doc.components.schemas[APM_SALE_COMPONENT] = apmSaleRequestSchema();
  const form = { oneOf: [...names.map((name) => ({ $ref: mapping[name] })), ...apmSale], discriminator: { propertyName: 'action', mapping } };
  doc.paths['/post'] = {
    post: {
      operationId: 's2sPost',
      tags: ['S2S CARD'],
      summary: 'S2S CARD and S2S APM: every action, chosen by the action field',
      description: [
        'The server-to-server form API. Bodies are application/x-www-form-urlencoded or multipart/form-data (never JSON); nested fields are named with brackets (custom_data[ref]=1).',
        'Checks run in this order, and the first that fails answers: action (any other value: 404), key environment, merchant (client_key), IP allowlist, fields, hash, then the business rules.',
        `Actions: ${names.map((n) => `${n} (${S2S_ACTION_DOCS[n]!.summary.toLowerCase()})`).join('; ')}.`,
      ].join('\n\n'),
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': { schema: form, encoding: FORM_ENCODING },
          'multipart/form-data': { schema: form, encoding: FORM_ENCODING },
        },
      },
      responses: {
        '200': { description: 'The action\'s answer', content: { 'application/json': { schema: { oneOf: answers.map((a) => ({ $ref: `#/components/schemas/${a}` })) } } } },
        '400': { $ref: '#/components/responses/Invalid' },
        '404': { $ref: '#/components/responses/RouteNotSupported' },
        '429': { $ref: '#/components/responses/TooManyFailures' },
        '503': { $ref: '#/components/responses/Unavailable' },
      },
    },
  };
}

/** Nested form fields travel as `custom_data[key]=value`. */
const FORM_ENCODING = {
  custom_data: { style: 'deepObject', explode: true },
  parameters: { style: 'deepObject', explode: true },
};

const transDate = { type: 'string', description: 'YYYY-MM-DD HH:MM:SS, UTC', examples: ['2026-11-22 10:00:00'] };
const ids = { order_id: { type: 'string' }, trans_id: { type: 'string', format: 'uuid' }, trans_date: transDate };

const S2S_ANSWER_COMPONENTS: Record<string, unknown> = {
  S2sPaymentAnswer: {
    type: 'object',
    description: 'A SALE (or recurring charge, capture, void) answer. REDIRECT sends the payer to redirect_url with redirect_params (POST; an APM provider page: GET, a QR code: redirect_params.qr_code); ACCEPTED and, on S2S APM, INIT and UNDEFINED mean the outcome follows by callback and status lookup.',
    required: ['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date'],
    properties: {
      action: { type: 'string' },
      result: { type: 'string', enum: ['SUCCESS', 'DECLINED', 'REDIRECT', 'ACCEPTED', 'INIT', 'UNDEFINED'] },
      status: { type: 'string', enum: ['SETTLED', 'PENDING', 'DECLINED', '3DS', 'REDIRECT', 'REFUND', 'REVERSAL', 'VOID', 'PREPARE'] },
      ...ids,
      descriptor: { type: 'string' },
      amount: { type: 'string', description: 'Decimal text in the currency\'s exponent' },
      currency: { type: 'string' },
      decline_reason: { type: 'string' },
      redirect_url: { type: 'string', format: 'uri' },
      redirect_params: { oneOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'array', maxItems: 0 }] },
      redirect_method: { type: 'string', enum: ['POST', 'GET'], description: 'GET for an APM provider page' },
      crypto_address: { type: 'string', description: 'APM INIT/PENDING of a crypto deposit: where the payer sends the coins' },
      crypto_network: { type: 'string' },
      card_token: { type: 'string' },
      recurring_token: { type: 'string' },
    },
  },
  S2sPayoutAnswer: {
    type: 'object',
    description: 'A CREDIT2VIRTUAL answer (decisions §8). UNDEFINED/PREPARE: the provider decides later; the outcome follows by callback (hash md5(upper(strrev(trans_id + order_id + status)) + password)) and GET_TRANS_STATUS.',
    required: ['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency'],
    properties: {
      action: { type: 'string', enum: ['CREDIT2VIRTUAL'] },
      result: { type: 'string', enum: ['SUCCESS', 'DECLINED', 'UNDEFINED'] },
      status: { type: 'string', enum: ['SETTLED', 'DECLINED', 'PREPARE'] },
      ...ids,
      amount: { type: 'string', description: "Decimal text as sent (XOF and XAF have no decimals)" },
      currency: { type: 'string', description: 'A mobile-money payout: GHS, KES, XOF, XAF, TZS or EGP; the email variant: any' },
      decline_reason: { type: 'string', examples: ['Insufficient payout balance'] },
    },
  },
  S2sStatusAnswer: {
    type: 'object',
    description:
      "Where the payment stands now; the merchant's Protocol Mapping may add fields. A card payment's answer carries trans_date, amount and currency; an APM payment's or a payout's (GET_TRANS_STATUS with the APM formula) does not.",
    required: ['action', 'result', 'status', 'order_id', 'trans_id'],
    properties: {
      action: { type: 'string', enum: ['GET_TRANS_STATUS', 'GET_TRANS_STATUS_BY_ORDER'] },
      result: { type: 'string', enum: ['SUCCESS'] },
      status: { type: 'string' },
      ...ids,
      amount: { type: 'string' },
      currency: { type: 'string' },
      descriptor: { type: 'string' },
      decline_reason: { type: 'string' },
    },
  },
  S2sAcceptedAnswer: {
    type: 'object',
    required: ['action', 'result', 'order_id', 'trans_id'],
    properties: {
      action: { type: 'string', enum: ['CREDITVOID'] },
      result: { type: 'string', enum: ['ACCEPTED'] },
      order_id: { type: 'string' },
      trans_id: { type: 'string', format: 'uuid' },
    },
  },
  S2sScheduleDeleted: {
    type: 'object',
    required: ['action', 'result', 'schedule_id'],
    properties: { action: { type: 'string', enum: ['DELETE_SCHEDULE'] }, result: { type: 'string', enum: ['SUCCESS'] }, schedule_id: { type: 'string', format: 'uuid' } },
  },
};
