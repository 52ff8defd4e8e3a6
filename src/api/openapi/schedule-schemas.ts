/**
 * Schedule fields are read by code (src/api/schedule-fields.ts: integers may come as numbers or digit
 * strings in JSON, and some refusals come before field errors), not by a JSON schema. These schemas
 * describe what that code accepts, built from the same limits and choices it reads, and a test
 * holds them to it (test/api/openapi.test.ts).
 */
import { INTERVAL_UNITS } from '../../domain/schedule/due-dates';
import { DELAY_KINDS, SCHEDULE_LIMITS } from '../schedule-fields';

/** Digits of an integer from `min` to `max` (leading zeros allowed, as the code reads them). */
export function integerTextPattern(min: number, max: number): string {
  return `^0*(?:${digitRanges(min, max).join('|')})$`;
}

/** Alternatives matching exactly the decimal numbers from `min` to `max`. */
function digitRanges(min: number, max: number): string[] {
  const a = String(min);
  const b = String(max);
  if (a.length < b.length) return [...digitRanges(min, 10 ** a.length - 1), ...digitRanges(10 ** a.length, max)];
  return [sameLength(a, b)];
}

function sameLength(a: string, b: string): string {
  if (a === b) return a;
  const rest = a.length - 1;
  const any = rest === 0 ? '' : rest === 1 ? '[0-9]' : `[0-9]{${rest}}`;
  const span = (from: string, to: string) => (from === to ? from : `[${from}-${to}]`);
  if (a[0] === b[0]) return `${a[0]}(?:${sameLength(a.slice(1), b.slice(1))})`;
  if (/^0*$/.test(a.slice(1)) && /^9*$/.test(b.slice(1))) return `${span(a[0], b[0])}${any}`;
  const parts = [`${a[0]}(?:${sameLength(a.slice(1), '9'.repeat(rest))})`];
  const low = Number(a[0]) + 1;
  const high = Number(b[0]) - 1;
  if (low <= high) parts.push(`${span(String(low), String(high))}${any}`);
  parts.push(`${b[0]}(?:${sameLength('0'.repeat(rest), b.slice(1))})`);
  return parts.join('|');
}

/** A form field is always text; a JSON field may also be an integer. */
const integer = (minimum: number, maximum: number, source: 'form' | 'json') => {
  const digits = { type: 'string', pattern: integerTextPattern(minimum, maximum) };
  return source === 'form'
    ? { ...digits, description: `An integer from ${minimum} to ${maximum}.` }
    : { oneOf: [{ type: 'integer', minimum, maximum }, digits], description: `An integer from ${minimum} to ${maximum}, as a number or digits.` };
};

const scheduleId = { type: 'string', format: 'uuid', description: 'A UUID; any case, answered in lower case.' };

export function scheduleRuleProperties(source: 'form' | 'json'): Record<string, unknown> {
  return {
    name: { type: 'string', minLength: 1, maxLength: SCHEDULE_LIMITS.nameLength },
    interval_length: integer(1, SCHEDULE_LIMITS.intervalLength, source),
    interval_unit: { type: 'string', enum: [...INTERVAL_UNITS] },
    payments_count: integer(1, SCHEDULE_LIMITS.paymentsCount, source),
    delayed_first_payment: { type: 'string', enum: [...DELAY_KINDS], default: 'none', description: 'When the first automatic payment is due; each kind but none needs its first_payment_* fields.' },
    first_payment_interval_length: integer(1, SCHEDULE_LIMITS.intervalLength, source),
    first_payment_interval_unit: { type: 'string', enum: [...INTERVAL_UNITS] },
    first_payment_day_of_week: integer(1, 7, source),
    first_payment_day_of_month: integer(1, 31, source),
  };
}

const SPAN = `A schedule may not run longer than ${SCHEDULE_LIMITS.spanYears} years (interval × payments_count). \`delays\` is refused: use delayed_first_payment.`;

export function scheduleCreateSchema(source: 'form' | 'json'): Record<string, unknown> {
  return {
    type: 'object',
    description: SPAN,
    required: ['name', 'interval_length', 'interval_unit', 'payments_count', 'hash'],
    properties: { schedule_id: { ...scheduleId, description: 'Optional: the id to give the schedule; the gateway chooses one when absent.' }, ...scheduleRuleProperties(source) },
  };
}

export function scheduleUpdateSchema(source: 'form' | 'json'): Record<string, unknown> {
  return {
    type: 'object',
    description: `Changes only what is sent. ${SPAN}`,
    required: ['schedule_id', 'hash'],
    properties: { schedule_id: scheduleId, ...scheduleRuleProperties(source) },
  };
}

export const scheduleRefSchema: Record<string, unknown> = {
  type: 'object',
  required: ['schedule_id', 'hash'],
  properties: { schedule_id: scheduleId },
};

export const descheduleSchema: Record<string, unknown> = {
  type: 'object',
  required: ['schedule_id', 'hash'],
  properties: {
    schedule_id: scheduleId,
    recurring_init_trans_id: { type: 'string', format: 'uuid', description: "Only this initial payment's chains; absent: every chain of the schedule." },
  },
};

export const scheduleRecordSchema: Record<string, unknown> = {
  type: 'object',
  properties: {
    schedule_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    interval_length: { type: 'integer' },
    interval_unit: { type: 'string', enum: [...INTERVAL_UNITS] },
    payments_count: { type: 'integer' },
    delayed_first_payment: { type: 'string', enum: [...DELAY_KINDS] },
    first_payment_interval_length: { type: ['integer', 'null'] },
    first_payment_interval_unit: { type: ['string', 'null'], enum: [...INTERVAL_UNITS, null] },
    first_payment_day_of_week: { type: ['integer', 'null'] },
    first_payment_day_of_month: { type: ['integer', 'null'] },
    delays: { type: 'null' },
    status: { type: 'string', enum: ['active', 'paused'] },
    created_at: { type: 'string', description: 'YYYY-MM-DD HH:MM:SS, UTC' },
    updated_at: { type: 'string', description: 'YYYY-MM-DD HH:MM:SS, UTC' },
  },
};
