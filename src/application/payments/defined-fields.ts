/**
 * The fields of `fields` whose value is not undefined, in their order. Events and requests record
 * an optional field only when it has a value, so a field given as undefined must not appear at all.
 */
export function definedFields<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) kept[name] = value;
  return kept as { [K in keyof T]?: Exclude<T[K], undefined> };
}
