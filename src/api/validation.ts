/**
 * One ajv instance per process, each schema compiled once: every app the process builds (each role,
 * each gateway a test starts) shares the compiled functions, since compiling is most of what
 * building an app costs. Failures become the spec's field errors, worded as `field: message` so a
 * merchant sees which field to fix.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { errors, type FieldError } from './errors';

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

let processAjv: Ajv | null = null;

/** The process's ajv instance. */
export function sharedAjv(): Ajv {
  if (processAjv) return processAjv;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv, ['uuid', 'email', 'ipv4', 'ipv6', 'date']);
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  return (processAjv = ajv);
}

/**
 * Compiled functions by instance and schema text: apps build their schemas afresh, so ajv's own
 * cache (by object) would compile each again. A compiled function holds no state between calls
 * but its last `errors`, read right after the call.
 */
const compiled = new WeakMap<Ajv, Map<string, ValidateFunction>>();

export function compileSchema(ajv: Ajv, schema: object): ValidateFunction {
  let bySchema = compiled.get(ajv);
  if (!bySchema) compiled.set(ajv, (bySchema = new Map()));
  const key = JSON.stringify(schema);
  let validate = bySchema.get(key);
  if (!validate) bySchema.set(key, (validate = ajv.compile(schema)));
  return validate;
}

/** `schema`: what it validates against, so the OpenAPI document describes exactly that (src/api/openapi). */
export type Validator = ((body: unknown) => FieldError[]) & { readonly schema?: object };

export function compileValidator(ajv: Ajv, schema: object): Validator {
  const validate = compileSchema(ajv, schema);
  return Object.assign((body: unknown) => (validate(body) ? [] : toFieldErrors(validate.errors ?? [])), { schema });
}

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  const path = error.instancePath.replace(/^\//, '').split('/').filter(Boolean);
  if (path.length === 0) return 'body';
  return path.map((p, i) => (i === 0 ? p : `[${p}]`)).join('');
}

/** The wording of a schema failure, shared by the form (S2S) and JSON (Checkout) APIs. */
export function messageOf(error: ErrorObject): string {
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
    case 'minItems':
      return `This collection should contain ${limit} element${limit === 1 ? '' : 's'} or more.`;
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
    if (e.keyword === 'format' && e.schemaPath.includes('anyOf')) continue;
    const field = fieldOf(e);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push(errors.field(field, messageOf(e)));
  }
  return out;
}
