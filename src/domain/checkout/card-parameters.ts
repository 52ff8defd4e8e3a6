/**
 * The spec's method-specific parameters catalogue for the `card` key of a Checkout session's
 * `parameters` ("Method-specific parameters catalogue"), as data: one table of sets, each field with
 * its type, and one validator walking it. Other method ids' sets belong to their methods.
 *
 * Types, in the spec's code notation: AN<n> text of at most n characters; N<n> digits, at most n;
 * N10.N2 a decimal of at most 10 integer and exactly 2 fraction digits (or none); A<n> exactly n
 * letters. Fields the spec lists without a type take any text. Fields the spec calls
 * "conditional" (their condition is the connector's, not stated) are optional here. A set's
 * `required` fields are required once any field of that set is sent. Keys the catalogue does not
 * name are passed on to the connector unchecked.
 */
import type { CheckoutOperation } from '../payment/events';

export type FieldType =
  | { kind: 'text'; max?: number }
  | { kind: 'digits'; max: number; exact?: boolean }
  | { kind: 'decimal'; integer: number; fraction: number }
  | { kind: 'letters'; length: number }
  | { kind: 'oneOf'; values: readonly string[] }
  | { kind: 'boolean' }
  | { kind: 'either'; of: readonly FieldType[]; message: string }
  | { kind: 'object'; fields: Readonly<Record<string, FieldSpec>> }
  | { kind: 'list'; of: FieldType };

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
}

export interface ParameterSet {
  name: string;
  fields: Readonly<Record<string, FieldSpec>>;
  /** The set is only for these operations (absent: any). */
  operations?: readonly CheckoutOperation[];
}

const AN = (max: number): FieldSpec => ({ type: { kind: 'text', max } });
const N = (max: number): FieldSpec => ({ type: { kind: 'digits', max } });
const A = (length: number): FieldSpec => ({ type: { kind: 'letters', length } });
const DECIMAL: FieldSpec = { type: { kind: 'decimal', integer: 10, fraction: 2 } };
const TEXT: FieldSpec = { type: { kind: 'text' } };
const oneOf = (...values: string[]): FieldSpec => ({ type: { kind: 'oneOf', values } });
const required = (spec: FieldSpec): FieldSpec => ({ ...spec, required: true });
const object = (fields: Record<string, FieldSpec>): FieldSpec => ({ type: { kind: 'object', fields } });
const listOf = (fields: Record<string, FieldSpec>): FieldSpec => ({ type: { kind: 'list', of: { kind: 'object', fields } } });
const texts = (...names: string[]): Record<string, FieldSpec> => Object.fromEntries(names.map((n) => [n, TEXT]));

const TWO_DIGITS: FieldSpec = { type: { kind: 'digits', max: 2, exact: true } };

const RECIPIENT = object({
  salutation: AN(5),
  firstName: AN(48),
  middleName: AN(50),
  lastName: AN(48),
  ...texts('apartment', 'street'),
  address: AN(100),
  city: AN(80),
  state: AN(50),
  postcode: AN(16),
  country: {
    type: {
      kind: 'either',
      of: [{ kind: 'letters', length: 2 }, { kind: 'digits', max: 3, exact: true }],
      message: 'This value should be a 2-letter or 3-digit country code.',
    },
  },
  phone: N(25),
  email: AN(128),
});

/** The catalogue: every set the spec lists under the `card` key. */
export const CARD_PARAMETER_SETS: readonly ParameterSet[] = [
  {
    name: 'Installments',
    fields: {
      bnrg_installm_def: required(TWO_DIGITS),
      bnrg_installm_months: required(TWO_DIGITS),
      bnrg_installm_plan: required(oneOf('03', '05', '07')),
    },
  },
  {
    name: 'Tax identity',
    fields: {
      document_type: required(oneOf('cpf')),
      document_number: required(TEXT),
      social_name: required(TEXT),
      fiscal_country: required(A(2)),
    },
  },
  { name: 'Descriptor', fields: { descriptor: AN(20) } },
  {
    name: 'Shipping contact',
    fields: {
      ...texts('customer_phone', 'customer_telnocc', 'shipping_street1', 'shipping_city', 'shipping_state'),
      shipping_postcode: N(9),
      shipping_country: { type: { kind: 'digits', max: 3, exact: true } },
    },
  },
  {
    name: 'Debit sender/receiver',
    operations: ['debit'],
    fields: texts(
      'payer_identity_type',
      'payer_identity_id',
      'payer_identity_country',
      'payer_identity_exp_date',
      'payer_nationality',
      'payer_country_of_birth',
      'payee_first_name',
      'payee_last_name',
      'payee_middle_name',
      'payee_address',
      'payee_city',
      'payee_state',
      'payee_country',
      'payee_zip',
      'payee_phone',
      'payee_birth_date',
      'payee_identity_type',
      'payee_identity_id',
      'payee_identity_country',
      'payee_identity_exp_date',
      'payee_nationality',
      'payee_country_of_birth',
    ),
  },
  {
    name: 'Shipping / cart / marketplace',
    fields: {
      shipping: object({
        street1: AN(100),
        street2: AN(100),
        houseNumber1: AN(100),
        houseNumber2: AN(100),
        city: AN(80),
        state: AN(50),
        postcode: AN(16),
        country: A(2),
        method: AN(30),
        cost: N(13),
        comment: AN(160),
        expectedDate: AN(10),
        logisticsProvider: AN(255),
        trackingNumber: AN(255),
        returnTrackingNumber: AN(255),
        normalized: AN(255),
        validationStatus: AN(255),
        warehouse: AN(100),
        preference: AN(21),
        middleName: TEXT,
        companyName: AN(60),
        phone: AN(25),
        workPhone: AN(25),
        mobile: AN(25),
        email: AN(128),
        type: AN(8),
      }),
      cart: object({
        items: listOf({
          ...texts('name', 'merchantItemId', 'type'),
          description: AN(2048),
          quantity: N(5),
          currency: A(3),
          ...texts('price', 'totalAmount', 'taxAmount', 'totalTaxAmount'),
          discount: N(13),
          tax: AN(6),
          taxCategory: AN(2),
          shipping: DECIMAL,
          sku: TEXT,
          commodityCode: N(8),
          commodityDescription: AN(50),
          ...texts('originalPrice', 'giftMessage', 'shippingMethod', 'shippingInstructions', 'shippingTrackingNumber'),
          quantityUnit: oneOf('M', 'CM', 'KG', 'G', 'COUNT'),
          ...texts('productUrl', 'imageUrl'),
          totalDiscountAmount: DECIMAL,
          productCode: AN(30),
          partNumber: AN(30),
          itemNumber: N(3),
          vatReferenceNumber: AN(30),
          sellerId: TEXT,
          deliveryDate: AN(10),
          recipient: RECIPIENT,
        }),
        payments: listOf({
          name: TEXT,
          type: oneOf('GIFTCARD', 'PROMOTION'),
          amount: DECIMAL,
          currency: A(3),
          status: oneOf('pending', 'authorized', 'captured'),
          brand: TEXT,
          primary: { type: { kind: 'boolean' } },
        }),
      }),
      marketPlace: object({ sellers: listOf({ id: AN(255), amount: N(13) }) }),
    },
  },
];

export interface ParameterProblem {
  /** As a merchant writes it: `parameters.card.cart.items[0].quantity`. */
  field: string;
  message: string;
}

const BLANK = 'This value should not be blank.';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A scalar as text: strings as they are, finite numbers as JSON writes them; null for anything else. */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Why `value` does not fit `type`, or null. Nested problems go to `out` under `path`. */
function check(type: FieldType, value: unknown, path: string, out: ParameterProblem[]): string | null {
  switch (type.kind) {
    case 'text': {
      const text = scalarText(value);
      if (text === null) return 'This value should be of type string.';
      if (type.max !== undefined && [...text].length > type.max) return `This value is too long. It should have ${type.max} characters or less.`;
      return null;
    }
    case 'digits': {
      const text = scalarText(value);
      const fits = text !== null && /^\d+$/.test(text) && (type.exact ? text.length === type.max : text.length <= type.max);
      if (fits) return null;
      return type.exact ? `This value should be exactly ${type.max} digits.` : `This value should be a number of at most ${type.max} digits.`;
    }
    case 'decimal': {
      // A string as written (the fraction digits all there); a JSON number may drop trailing zeros.
      const fraction = typeof value === 'number' ? `1,${type.fraction}` : String(type.fraction);
      const text = scalarText(value);
      if (text !== null && new RegExp(`^\\d{1,${type.integer}}(\\.\\d{${fraction}})?$`).test(text)) return null;
      return `This value should be a decimal number of at most ${type.integer} digits before the point and ${type.fraction} after it.`;
    }
    case 'letters': {
      if (typeof value === 'string' && new RegExp(`^[A-Za-z]{${type.length}}$`).test(value)) return null;
      return `This value should be ${type.length} letters.`;
    }
    case 'oneOf': {
      if (typeof value === 'string' && type.values.includes(value)) return null;
      return `The value you selected is not a valid choice. Allowed: ${type.values.join(', ')}.`;
    }
    case 'boolean':
      return value === true || value === false || value === 'true' || value === 'false' ? null : 'This value should be true or false.';
    case 'either':
      return type.of.some((t) => check(t, value, path, []) === null) ? null : type.message;
    case 'object':
      if (!isRecord(value)) return 'This value should be of type object.';
      walkFields(type.fields, value, path, out);
      return null;
    case 'list':
      if (!Array.isArray(value)) return 'This value should be of type array.';
      value.forEach((item, i) => {
        const problem = check(type.of, item, `${path}[${i}]`, out);
        if (problem) out.push({ field: `${path}[${i}]`, message: problem });
      });
      return null;
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

const isBlank = (value: unknown): boolean => value === undefined || value === null || value === '';

/** The fields of one object: each one sent is checked; `required` ones are demanded. */
function walkFields(fields: Readonly<Record<string, FieldSpec>>, value: Record<string, unknown>, path: string, out: ParameterProblem[]): void {
  for (const [name, spec] of Object.entries(fields)) {
    const at = `${path}.${name}`;
    const v = value[name];
    if (isBlank(v)) {
      if (spec.required) out.push({ field: at, message: BLANK });
      continue;
    }
    const problem = check(spec.type, v, at, out);
    if (problem) out.push({ field: at, message: problem });
  }
}

/**
 * Every problem of `parameters.card` against the catalogue, in catalogue order; none when the
 * session sent no `card` set. `operation` decides the sets that belong to one operation only.
 */
export function cardParameterProblems(parameters: unknown, operation: CheckoutOperation): ParameterProblem[] {
  if (!isRecord(parameters) || !('card' in parameters)) return [];
  const path = 'parameters.card';
  const card = parameters.card;
  if (!isRecord(card)) return [{ field: path, message: 'This value should be of type object.' }];
  const out: ParameterProblem[] = [];
  for (const set of CARD_PARAMETER_SETS) {
    const sent = Object.keys(set.fields).filter((name) => card[name] !== undefined);
    if (sent.length === 0) continue;
    if (set.operations && !set.operations.includes(operation)) {
      for (const name of sent) out.push({ field: `${path}.${name}`, message: `This field is only accepted with operation ${set.operations.join(' or ')}.` });
      continue;
    }
    // A set's required fields are demanded once the set is used at all.
    walkFields(set.fields, card, path, out);
  }
  return out;
}
