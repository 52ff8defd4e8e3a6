/**
 * The `/post` allowlist: every action, exhaustive and case-sensitive (anything else is 404, spec
 * S2S section). A new action is a file in this folder and one line here: its field schema
 * (src/api/s2s/schemas.ts, compiled once) and its handler.
 */
import { compileValidator } from '../../validation';
import type { S2sAction, S2sDeps } from '../s2s-action';
import { byOrderSchema, byTransIdSchema, captureSchema, creditVoidSchema, saleSchema } from '../schemas';
import { capture, creditVoid, voidPayment } from './follow-ups';
import { recurringActions } from './recurring';
import { sale } from './sale';
import { scheduleActions } from './schedules';
import { transStatus, transStatusByOrder } from './status';

export function s2sActions(deps: S2sDeps): Record<string, S2sAction> {
  const action = (schema: object, handle: S2sAction['handle']): S2sAction => ({ validate: compileValidator(deps.ajv, schema), handle });
  return {
    SALE: action(saleSchema, (c) => sale(deps, c)),
    GET_TRANS_STATUS: action(byTransIdSchema, (c) => transStatus(deps, c)),
    GET_TRANS_STATUS_BY_ORDER: action(byOrderSchema, (c) => transStatusByOrder(deps, c)),
    CAPTURE: action(captureSchema, (c) => capture(deps, c)),
    VOID: action(byTransIdSchema, (c) => voidPayment(deps, c)),
    CREDITVOID: action(creditVoidSchema, (c) => creditVoid(deps, c)),
    ...recurringActions(deps),
    ...scheduleActions(deps),
  };
}
