/**
 * Form bodies arrive url-encoded or multipart, both as flat names (`parameters[key]`) whose values
 * are a string, or the strings of a name sent more than once. Both become the same nested object
 * here so one set of validators serves both. A repeated name stays an array, never one of its values
 * picked silently; `repeatedNames` lists such names so the route can refuse them as sent twice.
 * Names deeper than MAX_LEVELS never get here (input-hygiene.ts refuses them).
 */
import { MAX_LEVELS } from './input-hygiene';

export type FormBody = Record<string, unknown>;

export function normalizeForm(body: unknown): FormBody {
  const out: FormBody = {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) return out;
  for (const [rawKey, value] of Object.entries(body as Record<string, unknown>)) {
    // A name such as `__proto__[x]` would otherwise walk into and write Object.prototype.
    if (
      (rawKey.includes('__proto__') || rawKey.includes('constructor') || rawKey.includes('prototype')) &&
      rawKey.split(/[[\]]/).some((part) => part === '__proto__' || part === 'constructor' || part === 'prototype')
    ) {
      continue;
    }
    const path = rawKey.includes('[') ? splitBrackets(rawKey) : null;
    if (!path) {
      out[rawKey] = value;
      continue;
    }
    let node: Record<string, unknown> = out;
    for (let i = 0; i < path.length - 1; i++) {
      const next = node[path[i]];
      if (!next || typeof next !== 'object' || Array.isArray(next)) node[path[i]] = {};
      node = node[path[i]] as Record<string, unknown>;
    }
    node[path[path.length - 1]] = value;
  }
  return out;
}

/** The message of a name sent more than once. */
export const SENT_MORE_THAN_ONCE = 'This field was sent more than once.';

/** The names (as sent: `parameters[phone]`) of a normalized form whose value is a repeated name's list. */
export function repeatedNames(form: FormBody): string[] {
  const out: string[] = [];
  const walk = (node: Record<string, unknown>, prefix: string | null) => {
    for (const [key, value] of Object.entries(node)) {
      const name = prefix === null ? key : `${prefix}[${key}]`;
      if (Array.isArray(value)) out.push(name);
      else if (value && typeof value === 'object') walk(value as Record<string, unknown>, name);
    }
  };
  walk(form, null);
  return out;
}

/** `a[b][c]` -> ['a','b','c']; null when the name has no brackets or is malformed. */
function splitBrackets(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(name);
  if (!match) return null;
  const parts = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
  if (parts.length > MAX_LEVELS || parts.some((p) => p === '')) return null;
  return parts;
}
