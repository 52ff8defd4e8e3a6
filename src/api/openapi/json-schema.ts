/**
 * The validators' JSON schemas as OpenAPI 3.1 schemas. OpenAPI 3.1 is JSON Schema 2020-12, which
 * reads the ajv (draft-07) schemas as they are but for the gateway's own format: `http-url`
 * becomes `uri` with a word on what is accepted.
 */

type Json = unknown;

export function toOpenApiSchema(schema: object): Record<string, unknown> {
  return convert(schema) as Record<string, unknown>;
}

function convert(value: Json): Json {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) out[key] = convert(inner);
  if (out.format === 'http-url') {
    out.format = 'uri';
    out.description = joined(out.description, 'An absolute http or https URL.');
  }
  return out;
}

const joined = (a: unknown, b: string): string => (typeof a === 'string' && a ? `${a} ${b}` : b);

/** A copy of an object schema with `title`, `description` and extra properties and requirements. */
export function extendObject(
  schema: Record<string, unknown>,
  extra: { title?: string; description?: string; properties?: Record<string, unknown>; required?: string[] },
): Record<string, unknown> {
  const required = [...new Set([...(extra.required ?? []), ...((schema.required as string[] | undefined) ?? [])])];
  return {
    ...schema,
    ...(extra.title ? { title: extra.title } : {}),
    ...(extra.description ? { description: extra.description } : {}),
    properties: { ...((schema.properties as Record<string, unknown> | undefined) ?? {}), ...(extra.properties ?? {}) },
    ...(required.length ? { required } : {}),
  };
}
