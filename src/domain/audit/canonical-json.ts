/**
 * Canonical JSON: the one text a JSON value has, whichever store kept it. Keys are sorted (by UTF-16
 * code units), there is no whitespace, and numbers and strings are written exactly as
 * `JSON.stringify` writes them. PostgreSQL's jsonb reorders keys and rewrites number literals, and
 * other stores keep whatever text they were given; parsing any of them and writing the value again
 * here gives the same text, so a hash over it can be recomputed from what any store hands back.
 *
 * What `JSON.stringify` drops or replaces (undefined members, functions, NaN, Infinity) is dropped
 * or replaced the same way, because that is what every store keeps of such a value. A bigint has
 * no JSON form and is refused rather than guessed at.
 */
export function canonicalJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError('canonicalJson: the value has no JSON form');
  return text;
}

// Plain loops and string concatenation: this runs on every append, on the request's thread.
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // The same shortest round-trip form JSON.stringify writes ("0" for -0).
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: a bigint has no JSON form; store it as a decimal string');
    case 'object': {
      if (value === null) return 'null';
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return write((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) {
        // Not map: map skips the holes of a sparse array, JSON writes them as null.
        let out = '[';
        for (let i = 0; i < value.length; i += 1) out += (i === 0 ? '' : ',') + (write(value[i]) ?? 'null');
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const key of Object.keys(record).sort()) {
        const member = write(record[key]);
        if (member === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:${member}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      // undefined, functions and symbols: omitted from objects, null in arrays.
      return undefined;
  }
}
