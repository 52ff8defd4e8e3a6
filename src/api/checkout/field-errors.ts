/**
 * Schema failures of the JSON Checkout API as the spec's field errors. Checkout bodies are nested
 * JSON, so a field is named by its path as a merchant writes it (`order.number`, `methods[1]`),
 * parent included even for a missing one: a bare `number: This value should not be blank.` would
 * not say which object lacks it. Wording matches the S2S API's field errors.
 */
import type Ajv from 'ajv';
import type { ErrorObject } from 'ajv';
import { errors, type FieldError } from '../errors';
import { compileSchema, messageOf } from '../validation';
import { COUNTRY_PATTERN } from './schemas';

export type JsonValidator = (body: unknown) => FieldError[];

export function compileJsonValidator(ajv: Ajv, schema: object): JsonValidator {
  const validate = compileSchema(ajv, schema);
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

/** The shared wording, with the one message only Checkout's schemas need. */
function checkoutMessageOf(error: ErrorObject): string {
  if (error.keyword === 'pattern' && error.params.pattern === COUNTRY_PATTERN) return 'This value should be a 2-letter country code.';
  return messageOf(error);
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
    out.push(errors.field(field, checkoutMessageOf(e)));
  }
  return out;
}
