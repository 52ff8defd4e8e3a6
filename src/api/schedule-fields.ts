/**
 * Schedule fields shared by S2S CARD (`CREATE_SCHEDULE`, `UPDATE_SCHEDULE`, `DELETE_SCHEDULE`, form
 * strings) and the Checkout `/api/v1/schedule/*` operations (JSON, where a count may be an integer
 * or a digit string), and the schedule record both APIs answer with, so one schedule reads the
 * same whichever API made it.
 *
 * Refusal order (spec Errors rule 2, docs/reference/hashes.md#rules-shared-by-every-formula): `delays` first, then a `schedule_id` that is
 * not a UUID (a refusal of its own, before the hash and before existence), then field errors
 * reported together. The parsers throw the first two and return the field errors.
 */
import { INTERVAL_UNITS, type DelayedFirstPayment, type IntervalUnit, type ScheduleRule } from '../domain/schedule/due-dates';
import type { ScheduleChanges } from '../domain/schedule/schedule-events';
import type { ExistingSchedule } from '../domain/schedule/schedule-state';
import { ApiError, errors, type FieldError } from './errors';

/** Form bodies carry only strings; JSON bodies may carry numbers. */
export type FieldSource = 'form' | 'json';
export type FieldBody = Record<string, unknown>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface ScheduleCreateInput {
  /** Lowercased; absent when the gateway is to choose one. */
  scheduleId?: string;
  name: string;
  rule: ScheduleRule;
}

export interface ScheduleUpdateInput {
  scheduleId: string;
  /** Only what was sent. */
  changes: ScheduleChanges;
}

export const DELAYS_DEPRECATED_MESSAGE = 'Parameter is deprecated. Use delayed_first_payment and the first_payment_* parameters instead.';
export const NOT_A_UUID_MESSAGE = 'This is not a valid UUID.';
export const SCHEDULE_ID_TAKEN_MESSAGE = 'This value is already used.';

export const SCHEDULE_LIMITS = {
  nameLength: 255,
  intervalLength: 365,
  paymentsCount: 1000,
  spanYears: 100,
} as const;

export const DELAY_KINDS = ['none', 'by_interval', 'to_day_of_week', 'to_day_of_month'] as const;
export type DelayKind = (typeof DELAY_KINDS)[number];

const FIRST_PAYMENT_FIELDS = [
  'first_payment_interval_length',
  'first_payment_interval_unit',
  'first_payment_day_of_week',
  'first_payment_day_of_month',
] as const;

// Average lengths: the limit is about how long a schedule may run, not about exact calendar dates.
const DAYS_PER_UNIT: Record<IntervalUnit, number> = { day: 1, week: 7, month: 30.4375, year: 365.25 };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER_PATTERN = /^-?[0-9]+$/;

const BLANK = 'This value should not be blank.';

export const deprecatedDelays = (): ApiError => new ApiError(400, 100000, DELAYS_DEPRECATED_MESSAGE);
export const notAUuid = (): ApiError => new ApiError(400, 100000, NOT_A_UUID_MESSAGE);
export const scheduleIdTaken = (): ApiError => errors.invalid([errors.field('schedule_id', SCHEDULE_ID_TAKEN_MESSAGE)]);

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/**
 * `delays` in any shape (a multipart `delays[]` keeps its brackets in the name) is refused outright:
 * a merchant still sending it expects a behaviour the gateway no longer has.
 */
export function refuseDelays(body: FieldBody): void {
  if (Object.keys(body).some((name) => name === 'delays' || name.startsWith('delays['))) throw deprecatedDelays();
}

/** A sent `schedule_id`, lowercased so ids match whatever case the merchant uses; undefined when not sent. */
export function scheduleIdOf(body: FieldBody): string | undefined {
  const value = body.schedule_id;
  if (value === undefined || value === null) return undefined;
  if (!isUuid(value)) throw notAUuid();
  return value.toLowerCase();
}

/** The `schedule_id` of an operation on an existing schedule (pause, run, delete, info, deschedule). */
export function parseScheduleRef(body: FieldBody): Parsed<string> {
  const scheduleId = scheduleIdOf(body);
  return scheduleId === undefined ? { ok: false, errors: [errors.field('schedule_id', BLANK)] } : { ok: true, value: scheduleId };
}

export function parseScheduleCreate(body: FieldBody, source: FieldSource): Parsed<ScheduleCreateInput> {
  refuseDelays(body);
  const scheduleId = scheduleIdOf(body);
  const fields = new FieldReader(body, source);
  const name = fields.name(true);
  const intervalLength = fields.integer('interval_length', 1, SCHEDULE_LIMITS.intervalLength, true);
  const intervalUnit = fields.choice('interval_unit', INTERVAL_UNITS, true);
  const paymentsCount = fields.integer('payments_count', 1, SCHEDULE_LIMITS.paymentsCount, true);
  const kind = fields.sent('delayed_first_payment') ? fields.choice('delayed_first_payment', DELAY_KINDS, false) : 'none';
  const delayedFirstPayment = kind === undefined ? undefined : readDelay(fields, kind);
  if (name === undefined || intervalLength === undefined || intervalUnit === undefined || paymentsCount === undefined || !delayedFirstPayment) {
    return { ok: false, errors: fields.errors };
  }
  const rule: ScheduleRule = { intervalLength, intervalUnit, paymentsCount, delayedFirstPayment };
  const span = spanError(rule);
  if (span) return { ok: false, errors: [span] };
  return { ok: true, value: { ...(scheduleId === undefined ? {} : { scheduleId }), name, rule } };
}

export function parseScheduleUpdate(body: FieldBody, source: FieldSource): Parsed<ScheduleUpdateInput> {
  refuseDelays(body);
  const scheduleId = scheduleIdOf(body);
  const fields = new FieldReader(body, source);
  if (scheduleId === undefined) fields.fail('schedule_id', BLANK);
  const changes: ScheduleChanges = {};
  if (fields.sent('name')) changes.name = fields.name(false);
  if (fields.sent('interval_length')) changes.intervalLength = fields.integer('interval_length', 1, SCHEDULE_LIMITS.intervalLength, false);
  if (fields.sent('interval_unit')) changes.intervalUnit = fields.choice('interval_unit', INTERVAL_UNITS, false);
  if (fields.sent('payments_count')) changes.paymentsCount = fields.integer('payments_count', 1, SCHEDULE_LIMITS.paymentsCount, false);
  if (fields.sent('delayed_first_payment')) {
    const kind = fields.choice('delayed_first_payment', DELAY_KINDS, false);
    if (kind !== undefined) changes.delayedFirstPayment = readDelay(fields, kind);
  } else if (FIRST_PAYMENT_FIELDS.some((name) => fields.sent(name))) {
    // Without the kind, the gateway cannot tell which first_payment_* value the merchant means.
    fields.fail('delayed_first_payment', 'This value should not be blank when first_payment_* parameters are sent.');
  }
  if (fields.errors.length || scheduleId === undefined) return { ok: false, errors: fields.errors };
  const { intervalLength, intervalUnit, paymentsCount } = changes;
  if (intervalLength !== undefined && intervalUnit !== undefined && paymentsCount !== undefined) {
    const span = spanError({ intervalLength, intervalUnit, paymentsCount });
    if (span) return { ok: false, errors: [span] };
  }
  return { ok: true, value: { scheduleId, changes } };
}

/** A schedule running longer than the limit, reported on `payments_count`; null when it fits. */
export function spanError(rule: Pick<ScheduleRule, 'intervalLength' | 'intervalUnit' | 'paymentsCount'>): FieldError | null {
  const days = rule.intervalLength * DAYS_PER_UNIT[rule.intervalUnit] * rule.paymentsCount;
  if (days <= SCHEDULE_LIMITS.spanYears * DAYS_PER_UNIT.year) return null;
  return errors.field('payments_count', `This value is too large: the schedule would run longer than ${SCHEDULE_LIMITS.spanYears} years.`);
}

/** An update's changes applied to the stored rule, checked as a whole (a partial update can lengthen the span). */
export function updatedRuleError(current: ScheduleRule, changes: ScheduleChanges): FieldError | null {
  const { name: _name, ...ruleChanges } = changes;
  return spanError({ ...current, ...ruleChanges });
}

export interface ScheduleRecord {
  schedule_id: string;
  name: string;
  interval_length: number;
  interval_unit: IntervalUnit;
  payments_count: number;
  delayed_first_payment: DelayKind;
  first_payment_interval_length: number | null;
  first_payment_interval_unit: IntervalUnit | null;
  first_payment_day_of_week: number | null;
  first_payment_day_of_month: number | null;
  /** Always null: schedules are described by delayed_first_payment since `delays` was removed. */
  delays: null;
  status: 'active' | 'paused';
  created_at: string;
  updated_at: string;
}

export function scheduleRecord(s: ExistingSchedule): ScheduleRecord {
  const delay = s.rule.delayedFirstPayment;
  return {
    schedule_id: s.scheduleId,
    name: s.name,
    interval_length: s.rule.intervalLength,
    interval_unit: s.rule.intervalUnit,
    payments_count: s.rule.paymentsCount,
    delayed_first_payment: delay.kind,
    first_payment_interval_length: delay.kind === 'by_interval' ? delay.length : null,
    first_payment_interval_unit: delay.kind === 'by_interval' ? delay.unit : null,
    first_payment_day_of_week: delay.kind === 'to_day_of_week' ? delay.dayOfWeek : null,
    first_payment_day_of_month: delay.kind === 'to_day_of_month' ? delay.dayOfMonth : null,
    delays: null,
    status: s.status === 'paused' ? 'paused' : 'active',
    created_at: recordDate(s.createdAt),
    updated_at: recordDate(s.updatedAt),
  };
}

/** `YYYY-MM-DD HH:MM:SS` (UTC), the date format of every other answer of both APIs. */
function recordDate(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

/** Only the first_payment_* fields of the chosen kind are read; the others are ignored. */
function readDelay(fields: FieldReader, kind: DelayKind): DelayedFirstPayment | undefined {
  switch (kind) {
    case 'none':
      return { kind };
    case 'by_interval': {
      const length = fields.integer('first_payment_interval_length', 1, SCHEDULE_LIMITS.intervalLength, true);
      const unit = fields.choice('first_payment_interval_unit', INTERVAL_UNITS, true);
      return length === undefined || unit === undefined ? undefined : { kind, length, unit };
    }
    case 'to_day_of_week': {
      const dayOfWeek = fields.integer('first_payment_day_of_week', 1, 7, true);
      return dayOfWeek === undefined ? undefined : { kind, dayOfWeek };
    }
    case 'to_day_of_month': {
      const dayOfMonth = fields.integer('first_payment_day_of_month', 1, 31, true);
      return dayOfMonth === undefined ? undefined : { kind, dayOfMonth };
    }
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/** Reads one field at a time, collecting every problem so the merchant sees them all at once. */
class FieldReader {
  readonly errors: FieldError[] = [];

  constructor(
    private readonly body: FieldBody,
    private readonly source: FieldSource,
  ) {}

  sent(name: string): boolean {
    return this.body[name] !== undefined;
  }

  fail(name: string, message: string): undefined {
    this.errors.push(errors.field(name, message));
    return undefined;
  }

  name(required: boolean): string | undefined {
    const value = this.present('name', required);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.fail('name', 'This value should be of type string.');
    if (value.trim().length === 0) return this.fail('name', BLANK);
    if ([...value].length > SCHEDULE_LIMITS.nameLength) {
      return this.fail('name', `This value is too long. It should have ${SCHEDULE_LIMITS.nameLength} characters or less.`);
    }
    return value;
  }

  integer(name: string, min: number, max: number, required: boolean): number | undefined {
    const value = this.present(name, required);
    if (value === undefined) return undefined;
    let n: number;
    if (typeof value === 'number' && this.source === 'json' && Number.isInteger(value)) n = value;
    else if (typeof value === 'string' && INTEGER_PATTERN.test(value)) n = Number(value);
    else return this.fail(name, 'This value should be of type integer.');
    if (n < min) return this.fail(name, `This value should be ${min} or more.`);
    if (n > max) return this.fail(name, `This value should be ${max} or less.`);
    return n;
  }

  choice<T extends string>(name: string, allowed: readonly T[], required: boolean): T | undefined {
    const value = this.present(name, required);
    if (value === undefined) return undefined;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    return this.fail(name, `The value you selected is not a valid choice. Allowed: ${allowed.join(', ')}.`);
  }

  /** The value when there is one to check; a missing required or a blank sent value is reported here. */
  private present(name: string, required: boolean): unknown {
    const value = this.body[name];
    if (value === undefined) return required ? this.fail(name, BLANK) : undefined;
    if (value === null || value === '') return this.fail(name, BLANK);
    return value;
  }
}
