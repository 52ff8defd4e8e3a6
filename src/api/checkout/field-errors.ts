/**
 * Schema failures of the JSON Checkout API as the spec's field errors. Checkout bodies are nested
 * JSON, so a field is named by its path as a merchant writes it (`order.number`, `methods[1]`),
 * parent included even for a missing one: a bare `number: This value should not be blank.` would
 * not say which object lacks it. Wording matches the S2S API's field errors.
 */
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { errors, type FieldError } from '../errors';
import { COUNTRY_PATTERN } from './schemas';

export type JsonValidator = (body: unknown) => FieldError[];

export function compileJsonValidator(ajv: Ajv, schema: object): JsonValidator {
  const validate: ValidateFunction = ajv.compile(schema);
  return (body) => (validate(body) ? [] : toFieldErrors(validate.errors ?? []));
}

/** `order.number`, `methods[1]`, `parameters.card.descriptor`. */
export function fieldPath(segments: readonly string[]): string {
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  return segments.length ? fieldPath(segments) : 'body';
}

function messageOf(error: ErrorObject): string {
  const limit = error.params.limit as number;
  switch (error.keyword) {
    case 'required':
      return 'This value should not be blank.';
    case 'type':
      return `This value should be of type ${String(error.params.type).split(',').join(' or ')}.`;
    case 'minLength':
      return limit === 1 ? 'This value should not be blank.' : `This value is too short. It should have ${limit} characters or more.`;
    case 'maxLength':
      return `This value is too long. It should have ${limit} characters or less.`;
    case 'minimum':
      return `This value should be ${limit} or more.`;
    case 'maximum':
      return `This value should be ${limit} or less.`;
    case 'maxItems':
    case 'maxProperties':
      return `This collection should contain ${limit} elements or less.`;
    case 'enum':
      return `The value you selected is not a valid choice. Allowed: ${(error.params.allowedValues as string[]).join(', ')}.`;
    case 'const':
      return `The value you selected is not a valid choice. Allowed: ${String(error.params.allowedValue)}.`;
    case 'format':
      switch (error.params.format) {
        case 'uuid':
          return 'This is not a valid UUID.';
        case 'email':
          return 'This value is not a valid email address.';
        case 'http-url':
          return 'This value is not a valid URL.';
        case 'date':
          return 'This value is not a valid date (YYYY-MM-DD).';
        default:
          return 'This value is not valid.';
      }
    case 'minItems':
      return `This collection should contain ${limit} element${limit === 1 ? '' : 's'} or more.`;
    case 'pattern':
      return error.params.pattern === COUNTRY_PATTERN ? 'This value should be a 2-letter country code.' : 'This value is not valid.';
    case 'anyOf':
      return 'This value is not a valid IP address.';
    default:
      return 'This value is not valid.';
  }
}

function toFieldErrors(list: ErrorObject[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of list) {
    // anyOf reports each failed branch too; its own summary is the useful one.
    if (/anyOf\/\d+\//.test(e.schemaPath)) continue;
    const field = fieldOf(e);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push(errors.field(field, messageOf(e)));
  }
  return out;
}
