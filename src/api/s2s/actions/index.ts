/**
 * The `/post` allowlist: every action, exhaustive and case-sensitive (anything else is 404, spec
 * S2S section). A new action is its name in names.ts, a file in this folder and one line here: its
 * field schema (src/api/s2s/schemas.ts, compiled once) and its handler; the record's type makes the
 * compiler ask for the line. S2S CARD and S2S APM share it
 * (docs/reference/README.md#addresses-and-transport): a SALE with a non-empty `brand` is an APM SALE, and the follow-ups by
 * `trans_id` serve payments of both (protocol.ts). `CREDIT2VIRTUAL`, a payout, is always APM
 * (credit2virtual.ts); its follow-ups by `trans_id` are the same as an APM SALE's.
 */
import { compileValidator } from '../../validation';
import type { FormBody, S2sAction, S2sDeps } from '../s2s-action';
import { apmSaleSchema, byOrderSchema, byTransIdSchema, captureSchema, credit2VirtualSchema, creditVoidOptionalAmountSchema, creditVoidSchema, saleSchema } from '../schemas';
import { apmSale } from './apm-sale';
import { credit2Virtual } from './credit2virtual';
import type { S2sActionName } from './names';
import { isApmRequest } from './protocol';
import { capture, creditVoid, voidPayment } from './follow-ups';
import { recurringActions } from './recurring';
import { sale } from './sale';
import { scheduleActions } from './schedules';
import { transStatus, transStatusByOrder } from './status';

export function s2sActions(deps: S2sDeps): Record<S2sActionName, S2sAction> {
  const action = (schema: object, handle: S2sAction['handle']): S2sAction => ({ validate: compileValidator(deps.ajv, schema), handle });
  const cardSale = compileValidator(deps.ajv, saleSchema);
  const methodSale = compileValidator(deps.ajv, apmSaleSchema);
  const strictCreditVoid = compileValidator(deps.ajv, creditVoidSchema);
  const looseCreditVoid = compileValidator(deps.ajv, creditVoidOptionalAmountSchema);
  return {
    SALE: {
      validate: Object.assign((form: unknown) => (isApmRequest(form as FormBody) ? methodSale(form) : cardSale(form)), { schema: saleSchema }),
      handle: (c) => (isApmRequest(c.form) ? apmSale(deps, c) : sale(deps, c)),
    },
    CREDIT2VIRTUAL: action(credit2VirtualSchema, (c) => credit2Virtual(deps, c)),
    GET_TRANS_STATUS: action(byTransIdSchema, (c) => transStatus(deps, c)),
    GET_TRANS_STATUS_BY_ORDER: action(byOrderSchema, (c) => transStatusByOrder(deps, c)),
    CAPTURE: action(captureSchema, (c) => capture(deps, c)),
    VOID: action(byTransIdSchema, (c) => voidPayment(deps, c)),
    CREDITVOID: {
      // Only a missing amount is left to the handler, which knows whether the payment is an APM one
      // (amount optional there); every other problem is answered as before, the amount's with it.
      validate: Object.assign((form: unknown) => (looseCreditVoid(form).length === 0 ? [] : strictCreditVoid(form)), { schema: creditVoidSchema }),
      handle: (c) => creditVoid(deps, c),
    },
    ...recurringActions(deps),
    ...scheduleActions(deps),
  };
}
