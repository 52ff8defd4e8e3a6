/**
 * What every request must satisfy before any route sees it, whichever API it is for (S2S forms,
 * Checkout JSON, hosted fields, hosted pages, admin):
 *
 * - at most MAX_LEVELS levels of nesting (`custom_data[a][b]` is 3, as is `{"custom_data":{"a":{"b":…}}}`):
 *   code that walks a body recursively (hashing, storing, projecting) would run out of stack on a body
 *   thousands of levels deep;
 * - at most MAX_ENTRIES names and array items in a body or a query, however they nest;
 * - no control characters (U+0000–U+001F, U+007F) in any name or value: PostgreSQL cannot store
 *   NUL at all, and the others corrupt identifiers, logs and the CSVs merchants export. TAB, LF and
 *   CR are allowed in free text only (FREE_TEXT fields and anything under `custom_data`).
 *
 * Checked once, here, right after the body is parsed, so no route and no field added later can
 * forget it, and before authentication looks anything up in a store.
 */
import type Koa from 'koa';
import { errors, type FieldError } from './errors';

export const MAX_LEVELS = 8;
export const MAX_ENTRIES = 1000;
/** At most this many field errors in one answer: a hostile body could otherwise produce thousands. */
const MAX_PROBLEMS = 20;
/** Names are echoed in errors; a name longer than this is cut. */
const MAX_NAME_SHOWN = 64;

/** Fields whose values are text a person writes on several lines. */
const FREE_TEXT = new Set(['order_description', 'description', 'payer_address', 'payer_address2', 'address', 'address2']);
const FREE_TEXT_TREES = new Set(['custom_data']);

const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;

export const HYGIENE_MESSAGES = {
  control: 'This value contains control characters.',
  tooDeep: `Nesting is too deep. It should have ${MAX_LEVELS} levels or less.`,
  tooMany: `This collection should contain ${MAX_ENTRIES} elements or less.`,
};

export const tooManyEntries = (): FieldError => errors.field('body', HYGIENE_MESSAGES.tooMany);

/**
 * `form`: a flat object of names as sent (`custom_data[ref]`), each a string or the strings of a
 * repeated name; the brackets are the nesting. `json`: nesting is the objects and arrays themselves.
 */
export type BodyStyle = 'form' | 'json';

interface Pending {
  value: unknown;
  /** Names from the top (`['custom_data', 'ref']`); array items are numbers. */
  segments: (string | number)[];
  levels: number;
  /** The name as the client wrote it, for form names. */
  formName?: string;
}

/** Field problems of a parsed body or query; empty when it is fine. */
export function inputProblems(body: unknown, style: BodyStyle): FieldError[] {
  if (body === null || typeof body !== 'object') return [];
  const problems = new Map<string, FieldError>();
  const add = (field: string, message: string) => {
    const error = errors.field(field, message);
    if (problems.size < MAX_PROBLEMS) problems.set(error.error_message, error);
  };
  const rootIsArray = Array.isArray(body);
  const stack: Pending[] = [];
  let entries = 0;
  /** Queues the children of an object or array; false once the body holds too many entries. */
  const pushChildren = (parent: Pending): boolean => {
    const value = parent.value as Record<string, unknown> | unknown[];
    if (Array.isArray(value)) {
      entries += value.length;
      if (entries > MAX_ENTRIES) return false;
      // A repeated form name is one field sent several times, not one more level.
      const levels = parent.formName !== undefined ? parent.levels : parent.levels + 1;
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], segments: [...parent.segments, i], levels, formName: parent.formName });
      return true;
    }
    const keys = Object.keys(value);
    entries += keys.length;
    if (entries > MAX_ENTRIES) return false;
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (style === 'form' && parent.segments.length === 0) {
        const segments = formSegments(key);
        stack.push({ value: value[key], segments, levels: segments.length, formName: key });
      } else {
        stack.push({ value: value[key], segments: [...parent.segments, key], levels: parent.levels + 1 });
      }
    }
    return true;
  };
  if (!pushChildren({ value: body, segments: [], levels: 0 })) return [tooManyEntries()];

  while (stack.length > 0) {
    const node = stack.pop()!;
    const name = () => (node.formName !== undefined ? shown(node.formName) : jsonName(node.segments, rootIsArray));
    const key = node.formName ?? node.segments[node.segments.length - 1];
    if (typeof key === 'string' && CONTROL.test(key)) add(name(), HYGIENE_MESSAGES.control);
    if (node.levels > MAX_LEVELS) {
      add(rootIsArray ? 'body' : shown(String(node.segments[0])), HYGIENE_MESSAGES.tooDeep);
      continue;
    }
    const value = node.value;
    if (typeof value === 'string') {
      const pattern = allowsLineBreaks(node.segments) ? CONTROL_BUT_LINE_BREAKS : CONTROL;
      if (pattern.test(value)) add(name(), HYGIENE_MESSAGES.control);
    } else if (value !== null && typeof value === 'object') {
      if (!pushChildren(node)) return [tooManyEntries()];
    }
  }
  return [...problems.values()];
}

/** Problems of the request path: a control character encoded into it reaches route parameters decoded. */
export function pathProblems(rawPath: string): FieldError[] {
  return ENCODED_CONTROL.test(rawPath) || CONTROL.test(rawPath) ? [errors.field('path', HYGIENE_MESSAGES.control)] : [];
}

/**
 * Runs after the body parsers and before the router: path, query and body, refused together as
 * `Request data is invalid.` with one error per field.
 */
export function inputHygiene(): Koa.Middleware {
  return async (ctx, next) => {
    const problems = [...pathProblems(ctx.path)];
    if (ctx.querystring) problems.push(...inputProblems(ctx.query, 'form'));
    const body = (ctx.request as { body?: unknown }).body;
    if (body !== undefined) {
      const style: BodyStyle = ctx.state.bodyStyle ?? (ctx.is('application/x-www-form-urlencoded', 'multipart/form-data') ? 'form' : 'json');
      problems.push(...inputProblems(body, style));
    }
    if (problems.length > 0) throw errors.invalid(problems.slice(0, MAX_PROBLEMS));
    await next();
  };
}

/** `a[b][c]` -> ['a', 'b', 'c']; leniently, since any name must be judged, malformed ones too. */
function formSegments(name: string): string[] {
  const open = name.indexOf('[');
  if (open <= 0) return [name];
  const segments = [name.slice(0, open)];
  for (const part of name.slice(open).split('[').slice(1)) segments.push(part.replace(/\].*$/s, ''));
  return segments;
}

function allowsLineBreaks(segments: (string | number)[]): boolean {
  if (typeof segments[0] === 'string' && FREE_TEXT_TREES.has(segments[0])) return true;
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    if (typeof segment === 'string') return FREE_TEXT.has(segment);
  }
  return false;
}

/** `order.number`, `methods[0]`, as the Checkout API names fields. */
function jsonName(segments: (string | number)[], rootIsArray: boolean): string {
  if (segments.length === 0) return 'body';
  const text = segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? shown(s) : `.${shown(s)}`)).join('');
  return rootIsArray ? `body${text}` : text;
}

/** A name as it can be shown back: control characters written as \uXXXX, long names cut. */
function shown(name: string): string {
  const visible = name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return visible.length > MAX_NAME_SHOWN ? `${visible.slice(0, MAX_NAME_SHOWN)}…` : visible;
}
