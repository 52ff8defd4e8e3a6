/**
 * What an alternative payment method takes under `parameters[...]`, as data, and the one check of
 * a request against it. Each connector keeps its methods' catalogue entries in this shape (the
 * sandbox's: src/adapters/connectors/sandbox-apm/catalogue.ts); S2S APM checks a SALE with it, and
 * a hosted page can ask the payer for the fields it collects.
 *
 * The check is exact: a parameter the method does not name is refused, as is one of the wrong
 * shape. A `collected` field may be left out: the provider asks the payer for it on its page.
 */
import { isCurrency } from '../money';
import type { PayoutScheme } from '../payouts/payout-rules';

export type FieldFormat = 'text' | 'digits' | 'decimal' | 'boolean' | 'currency' | 'url' | 'date' | 'date-time' | 'country';

export interface MethodField {
  name: string;
  /**
   * `required`: the merchant must send it; `optional`: it may; `collected`: conditional, asked
   * from the payer on the provider's page when the merchant does not send it.
   */
  presence: 'required' | 'optional' | 'collected';
  /** What the provider's page calls it when it asks the payer. */
  label?: string;
  format?: FieldFormat;
  minLength?: number;
  /** Default 255. */
  maxLength?: number;
  /** A regular expression the whole value must match (after the format's own check). */
  pattern?: string;
  enum?: readonly string[];
  /** Allowed only when another parameter has one of these values (a network only for one coin). */
  onlyWhen?: { field: string; values: readonly string[] };
  /** Collected only from payers of these countries (ISO alpha-2); from anyone else it is optional. */
  countries?: readonly string[];
  /** A nested set (`parameters[bankDetails][cbu]`); the field's own value is then an object. */
  fields?: readonly MethodField[];
  /** For a nested set: when any of its fields is sent, one of these groups must be complete. */
  oneOf?: readonly (readonly string[])[];
  /** Where the value comes from when the parameter is absent: the SALE's `payer_phone`. */
  fallback?: 'payer_phone';
}

export interface MethodDescription {
  /** The method identifier (`brand`), or the alias it was asked by. */
  method: string;
  /** The catalogue's kind of method, in words (for pages and documentation). */
  kind: string;
  fields: readonly MethodField[];
  /**
   * A method that only pays money out (`CREDIT2VIRTUAL`), and whose payout rules apply
   * (src/domain/payouts/payout-rules.ts); absent for a method payers pay with.
   */
  payout?: PayoutScheme;
}

/** What the check knows about the payer beside the parameters. */
export interface MethodPayer {
  phone?: string;
  country?: string;
}

const DEFAULT_MAX_LENGTH = 255;

const FORMAT_PATTERNS: Partial<Record<FieldFormat, RegExp>> = {
  digits: /^[0-9]+$/,
  decimal: /^[0-9]+(\.[0-9]+)?$/,
  boolean: /^(true|false)$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
  country: /^[A-Z]{2}$/,
};

function formatProblem(format: FieldFormat | undefined, value: string): string | null {
  switch (format) {
    case undefined:
    case 'text':
      return null;
    case 'currency':
      return isCurrency(value) ? null : 'This value is not a valid currency.';
    case 'url':
      return isHttpUrl(value) ? null : 'This value is not a valid URL.';
    case 'boolean':
      return FORMAT_PATTERNS.boolean!.test(value) ? null : 'This value should be true or false.';
    case 'digits':
      return FORMAT_PATTERNS.digits!.test(value) ? null : 'This value should contain digits only.';
    case 'date':
      return FORMAT_PATTERNS.date!.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'This value is not a valid date (YYYY-MM-DD).';
    case 'date-time':
      return FORMAT_PATTERNS['date-time']!.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'This value is not a valid date.';
    case 'decimal':
    case 'country':
      return FORMAT_PATTERNS[format]!.test(value) ? null : 'This value is not valid.';
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const fieldName = (path: readonly string[]): string => `parameters${path.map((p) => `[${p}]`).join('')}`;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A value counts as sent when it is not an empty string (a form cannot send "absent" otherwise). */
const sent = (value: unknown): boolean => value !== undefined && value !== '';

/**
 * The problems of `parameters` against the method's fields, each `parameters[<name>]: <message>`;
 * empty when the parameters are fine. `parameters` is what the request sent (null: none).
 */
export function methodParameterProblems(description: MethodDescription, parameters: Record<string, unknown> | null, payer: MethodPayer = {}): string[] {
  return methodParameterIssues(description, parameters, payer).map((issue) => `${fieldName(issue.path)}: ${issue.message}`);
}

/** One problem of a method's parameters: the field's path inside the set (`['bankDetails', 'cbu']`) and what is wrong. */
export interface MethodParameterIssue {
  path: readonly string[];
  message: string;
}

/**
 * The same check as methodParameterProblems, each problem with its path rather than worded as a
 * form field name, for APIs that name fields their own way (Checkout: `parameters.<method>.<name>`).
 */
export function methodParameterIssues(description: MethodDescription, parameters: Record<string, unknown> | null, payer: MethodPayer = {}): MethodParameterIssue[] {
  return setProblems(description.fields, parameters ?? {}, [], payer, parameters ?? {});
}

function setProblems(
  fields: readonly MethodField[],
  values: Record<string, unknown>,
  path: readonly string[],
  payer: MethodPayer,
  top: Record<string, unknown>,
): MethodParameterIssue[] {
  const problems: MethodParameterIssue[] = [];
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(values)) {
    if (!known.has(name)) problems.push({ path: [...path, name], message: 'This field was not expected.' });
  }
  for (const field of fields) {
    const value = values[field.name];
    const at = [...path, field.name];
    if (!sent(value)) {
      if (field.presence === 'required' && !(field.fallback === 'payer_phone' && payer.phone)) problems.push({ path: at, message: 'This value should not be blank.' });
      continue;
    }
    if (field.fields) {
      if (!isObject(value)) {
        problems.push({ path: at, message: 'This value should be of type object.' });
        continue;
      }
      problems.push(...setProblems(field.fields, value, at, payer, top));
      if (field.oneOf && !field.oneOf.some((group) => group.every((member) => sent(value[member])))) {
        const groups = field.oneOf.map((group) => group.join(' and ')).join(', or ');
        problems.push({ path: at, message: `Send ${groups}.` });
      }
      continue;
    }
    if (typeof value !== 'string') {
      problems.push({ path: at, message: 'This value should be of type string.' });
      continue;
    }
    const problem = valueProblem(field, value, top);
    if (problem) problems.push({ path: at, message: problem });
  }
  return problems;
}

function valueProblem(field: MethodField, value: string, top: Record<string, unknown>): string | null {
  const max = field.maxLength ?? DEFAULT_MAX_LENGTH;
  if (value.length > max) return `This value is too long. It should have ${max} characters or less.`;
  if (field.minLength !== undefined && value.length < field.minLength) {
    return `This value is too short. It should have ${field.minLength} characters or more.`;
  }
  if (field.enum && !field.enum.includes(value)) return `The value you selected is not a valid choice. Allowed: ${field.enum.join(', ')}.`;
  const format = formatProblem(field.format, value);
  if (format) return format;
  if (field.pattern && !new RegExp(`^(?:${field.pattern})$`).test(value)) return 'This value is not valid.';
  if (field.onlyWhen) {
    const other = top[field.onlyWhen.field];
    if (typeof other !== 'string' || !field.onlyWhen.values.includes(other)) {
      return `This value is only allowed when ${field.onlyWhen.field} is ${field.onlyWhen.values.join(' or ')}.`;
    }
  }
  return null;
}

/**
 * The fields the provider's page must ask the payer for: collected fields the merchant did not send
 * (a country-bound one only from a payer of that country, or from a payer of unknown country), and
 * a nested set none of whose groups was sent. Names as on the wire (`bankDetails[cbu]`).
 */
export function fieldsToCollect(description: MethodDescription, parameters: Record<string, unknown> | null, payer: MethodPayer = {}): MethodField[] {
  const values = parameters ?? {};
  const out: MethodField[] = [];
  for (const field of description.fields) {
    if (field.presence !== 'collected' || sent(values[field.name])) continue;
    if (field.fallback === 'payer_phone' && payer.phone) continue;
    if (field.countries && payer.country && !field.countries.includes(payer.country)) continue;
    if (field.fields) {
      for (const member of field.fields) out.push({ ...member, name: `${field.name}[${member.name}]` });
    } else {
      out.push(field);
    }
  }
  return out;
}
