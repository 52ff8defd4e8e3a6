/**
 * Checkout schedule operations (docs/reference/checkout.md#schedule-operations): `POST /api/v1/schedule/{create,update,pause,run,
 * delete,info,deschedule}`. Each refuses, in order: `delays` (create and update), a non-UUID
 * `schedule_id`, field errors, the hash (create: name + interval_length + interval_unit +
 * payments_count; the others: schedule_id), then an unknown schedule (`Schedule not found`, also
 * for another merchant's or a deleted one). Pause and run are safe to repeat.
 */
import { DomainError } from '../../domain/errors';
import { checkoutHash } from '../../domain/signatures';
import { throwApiError } from '../domain-errors';
import { errors, type FieldError } from '../errors';
import {
  NOT_A_UUID_MESSAGE,
  isUuid,
  parseScheduleCreate,
  parseScheduleRef,
  parseScheduleUpdate,
  scheduleIdTaken,
  scheduleRecord,
  updatedRuleError,
  type Parsed,
} from '../schedule-fields';
import type { CheckoutRequest, JsonBody } from './merchant-request';
import { requireHash } from '../require-hash';
import type { CheckoutApiDeps, CheckoutRoute } from './checkout-route';

/**
 * Only the hash's shape: the schedule fields are parsed in code (integers may come as numbers or
 * digit strings), after the refusals that precede field errors, so these routes are lenient.
 */
const hashOnlySchema = {
  type: 'object',
  required: ['hash'],
  properties: { merchant_key: { type: 'string' }, hash: { type: 'string', minLength: 1, maxLength: 128 } },
};

const CREATE_HASHED = ['name', 'interval_length', 'interval_unit', 'payments_count'] as const;

export function registerScheduleRoutes(route: CheckoutRoute, deps: CheckoutApiDeps): void {
  const lenient = { lenient: true };
  const scheduleRoute = (name: string, handle: Parameters<CheckoutRoute>[2]) =>
    route(`/api/v1/schedule/${name}`, hashOnlySchema, handle, lenient);
  /** An operation that needs nothing but the schedule it names. */
  const byScheduleId = (name: string, act: (r: CheckoutRequest, scheduleId: string) => Promise<unknown>) =>
    scheduleRoute(name, (r, schemaErrors) => onSchedule(r, schemaErrors, (scheduleId) => act(r, scheduleId)));
  const { schedules } = deps;

  scheduleRoute('create', (r, schemaErrors) => createSchedule(deps, r, schemaErrors));
  scheduleRoute('update', (r, schemaErrors) => updateSchedule(deps, r, schemaErrors));
  byScheduleId('pause', (r, id) => schedules.pause(r.merchant.merchantId, id, r.requestId).then(scheduleRecord));
  byScheduleId('run', (r, id) => schedules.run(r.merchant.merchantId, id, r.requestId).then(scheduleRecord));
  byScheduleId('info', (r, id) => schedules.info(r.merchant.merchantId, id).then(scheduleRecord));
  byScheduleId('delete', async (r, id) => {
    const deleted = await schedules.delete(r.merchant.merchantId, id, r.requestId);
    return { schedule_id: deleted.scheduleId, status: 'deleted' };
  });
  scheduleRoute('deschedule', (r, schemaErrors) => deschedule(deps, r, schemaErrors));
}

/** Field problems found by the parser and by the schema, refused together. */
function valueOrRefuse<T>(parsed: Parsed<T>, schemaErrors: FieldError[], extra: FieldError[] = []): T {
  const problems = [...(parsed.ok ? [] : parsed.errors), ...extra, ...schemaErrors];
  if (problems.length || !parsed.ok) throw errors.invalid(problems);
  return parsed.value;
}

/** A hash input as the merchant wrote it: a JSON number is its decimal text. */
function raw(body: JsonBody, name: string): string {
  const value = body[name];
  return value === undefined || value === null ? '' : String(value);
}

async function createSchedule(deps: CheckoutApiDeps, { body, merchant, requestId }: CheckoutRequest, schemaErrors: FieldError[]) {
  const input = valueOrRefuse(parseScheduleCreate(body, 'json'), schemaErrors);
  requireHash(body.hash, checkoutHash(CREATE_HASHED.map((name) => raw(body, name)), merchant.password));
  try {
    return scheduleRecord(await deps.schedules.create(merchant.merchantId, input, requestId));
  } catch (error) {
    if (error instanceof DomainError && error.code === 'schedule_exists') throw scheduleIdTaken();
    throwApiError(error);
  }
}

async function updateSchedule(deps: CheckoutApiDeps, { body, merchant, requestId }: CheckoutRequest, schemaErrors: FieldError[]) {
  const { scheduleId, changes } = valueOrRefuse(parseScheduleUpdate(body, 'json'), schemaErrors);
  requireHash(body.hash, checkoutHash([raw(body, 'schedule_id')], merchant.password));
  try {
    const current = await deps.schedules.info(merchant.merchantId, scheduleId);
    const span = updatedRuleError(current.rule, changes);
    if (span) throw errors.invalid([span]);
    return scheduleRecord(await deps.schedules.update(merchant.merchantId, scheduleId, changes, requestId));
  } catch (error) {
    throwApiError(error);
  }
}

/** An operation on an existing schedule, identified and signed by `schedule_id` alone. */
async function onSchedule<T>({ body, merchant }: CheckoutRequest, schemaErrors: FieldError[], act: (scheduleId: string) => Promise<T>): Promise<T> {
  const scheduleId = valueOrRefuse(parseScheduleRef(body), schemaErrors);
  requireHash(body.hash, checkoutHash([raw(body, 'schedule_id')], merchant.password));
  try {
    return await act(scheduleId);
  } catch (error) {
    throwApiError(error);
  }
}

/**
 * Stops automatic payments without deleting the schedule: those of one initial payment's chains
 * with `recurring_init_trans_id`, otherwise of every chain started on the schedule so far.
 */
async function deschedule(deps: CheckoutApiDeps, request: CheckoutRequest, schemaErrors: FieldError[]) {
  const { body, merchant, requestId } = request;
  const sent = body.recurring_init_trans_id;
  const initPaymentId = sent === undefined || sent === null ? null : isUuid(sent) ? sent.toLowerCase() : undefined;
  const initProblems = initPaymentId === undefined ? [errors.field('recurring_init_trans_id', NOT_A_UUID_MESSAGE)] : [];
  const scheduleId = valueOrRefuse(parseScheduleRef(body), schemaErrors, initProblems);
  requireHash(body.hash, checkoutHash([raw(body, 'schedule_id')], merchant.password));
  try {
    await deps.schedules.deschedule(merchant.merchantId, scheduleId, initPaymentId ?? null, requestId);
  } catch (error) {
    throwApiError(error);
  }
  return { schedule_id: scheduleId, status: 'descheduled', ...(initPaymentId ? { recurring_init_trans_id: initPaymentId } : {}) };
}
