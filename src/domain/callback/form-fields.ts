/**
 * Callback bodies are ordered form fields. Nested values (`custom_data`, `redirect_params`) become
 * bracket names, `custom_data[key]`, `custom_data[list][0]`, the way form decoders rebuild them.
 */

export type FormFields = Array<[string, string]>;

/** Flattens `value` under `name`; scalars become text, null and undefined an empty string. */
export function flattenField(name: string, value: unknown, out: FormFields = []): FormFields {
  if (Array.isArray(value)) {
    value.forEach((item, index) => flattenField(`${name}[${index}]`, item, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) flattenField(`${name}[${key}]`, item, out);
  } else {
    out.push([name, value === null || value === undefined ? '' : String(value)]);
  }
  return out;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, from an ISO-8601 instant. */
export function formDate(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace('T', ' ');
}
