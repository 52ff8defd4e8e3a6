/**
 * S2S CARD schedule actions on `/post`: `CREATE_SCHEDULE`, `UPDATE_SCHEDULE`, `DELETE_SCHEDULE`
 * (there is no schedule-read action on S2S). The router has already checked the action, key,
 * merchant and IP; `validate` then refuses `delays`, a non-UUID `schedule_id` and field errors,
 * and each handler checks the hash before it looks the schedule up (spec Errors rule 2).
 */
import { DomainError } from '../../../domain/errors';
import { createScheduleHash, scheduleIdHash } from '../../../domain/signatures';
import { requireHash } from '../../require-hash';
import { throwApiError } from '../../domain-errors';
import { errors, type FieldError } from '../../errors';
import type { FormBody } from '../../form';
import {
  parseScheduleCreate,
  parseScheduleRef,
  parseScheduleUpdate,
  scheduleIdTaken,
  scheduleRecord,
  updatedRuleError,
  type Parsed,
} from '../../schedule-fields';
import { compileValidator, type Validator } from '../../validation';
import type { ActionContext, S2sAction, S2sDeps } from '../s2s-action';

type ScheduleActionName = 'CREATE_SCHEDULE' | 'UPDATE_SCHEDULE' | 'DELETE_SCHEDULE';

/** What every schedule action carries besides its own fields. */
const credentialsSchema = {
  type: 'object',
  required: ['client_key', 'hash'],
  properties: {
    action: { type: 'string' },
    client_key: { type: 'string', minLength: 1, maxLength: 64 },
    hash: { type: 'string', minLength: 32, maxLength: 40, pattern: '^[0-9a-fA-F]+$' },
  },
};

export function scheduleActions(deps: S2sDeps): Record<ScheduleActionName, S2sAction> {
  const credentials = compileValidator(deps.ajv, credentialsSchema);
  const validator =
    (parse: (form: FormBody) => Parsed<unknown>): Validator =>
    (body) => {
      const form = body as FormBody;
      // Parsed first: `delays` and a non-UUID schedule_id are refusals of their own, before field errors.
      const parsed = parse(form);
      return [...credentials(form), ...(parsed.ok ? [] : parsed.errors)];
    };
  return {
    CREATE_SCHEDULE: { validate: validator((f) => parseScheduleCreate(f, 'form')), handle: (c) => createSchedule(deps, c) },
    UPDATE_SCHEDULE: { validate: validator((f) => parseScheduleUpdate(f, 'form')), handle: (c) => updateSchedule(deps, c) },
    DELETE_SCHEDULE: { validate: validator(parseScheduleRef), handle: (c) => deleteSchedule(deps, c) },
  };
}

/** The validator has already refused what does not parse; this only narrows the type. */
function parsedValue<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw errors.invalid(parsed.errors);
  return parsed.value;
}


async function createSchedule(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const input = parsedValue(parseScheduleCreate(form, 'form'));
  requireHash(form.hash, createScheduleHash(merchant.password));
  try {
    const schedule = await deps.schedules.create(merchant.merchantId, input, requestId);
    return { action: 'CREATE_SCHEDULE', result: 'SUCCESS', ...scheduleRecord(schedule) };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'schedule_exists') throw scheduleIdTaken();
    throwApiError(error);
  }
}

async function updateSchedule(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const { scheduleId, changes } = parsedValue(parseScheduleUpdate(form, 'form'));
  requireHash(form.hash, scheduleIdHash(String(form.schedule_id), merchant.password));
  try {
    const current = await deps.schedules.info(merchant.merchantId, scheduleId);
    const span: FieldError | null = updatedRuleError(current.rule, changes);
    if (span) throw errors.invalid([span]);
    const schedule = await deps.schedules.update(merchant.merchantId, scheduleId, changes, requestId);
    return { action: 'UPDATE_SCHEDULE', result: 'SUCCESS', ...scheduleRecord(schedule) };
  } catch (error) {
    throwApiError(error);
  }
}

async function deleteSchedule(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const scheduleId = parsedValue(parseScheduleRef(form));
  requireHash(form.hash, scheduleIdHash(String(form.schedule_id), merchant.password));
  try {
    const schedule = await deps.schedules.delete(merchant.merchantId, scheduleId, requestId);
    return { action: 'DELETE_SCHEDULE', result: 'SUCCESS', schedule_id: schedule.scheduleId };
  } catch (error) {
    throwApiError(error);
  }
}
