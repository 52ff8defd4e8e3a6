/**
 * What a merchant is told about a payout (`CREDIT2VIRTUAL`, docs/reference/callbacks.md#payout-callbacks):
 * the same fields as the payout's answer, once its provider decided (callback-table.ts says which
 * events). The wait is told too, as an APM sale's pending states are (what the answer said).
 *
 * Fields, in order: action, result, status, order_id, trans_id, trans_date (of the event, UTC),
 * amount (in the currency's exponent: none for XOF and XAF), currency, decline_reason when
 * declined, hash last: the family's payout formula
 * `md5(upper(strrev(trans_id + order_id + status)) + password)`, not the APM callback's
 * (signatures.ts `payoutCallbackHash`, the §8 test vector).
 */
import { formatMinor } from '../money';
import type { ExistingPayment } from '../payment/state';
import { payoutCallbackHash } from '../signatures';
import type { CallbackContext } from './callback-context';
import type { PayoutOutcome } from './callback-outcomes';
import { formDate, type FormFields } from './form-fields';

/** Whether a payment is a payout made with a method (CREDIT2VIRTUAL): its callbacks are these. */
export const isMethodPayout = (p: Pick<ExistingPayment, 'kind' | 'method'>): boolean => p.kind === 'credit' && p.method !== undefined;

export function payoutCallbackContent(outcome: PayoutOutcome, after: ExistingPayment, ctx: CallbackContext): FormFields {
  const fields: FormFields = [
    ['action', 'CREDIT2VIRTUAL'],
    ['result', outcome.result],
    ['status', outcome.status],
    ['order_id', after.orderId],
    ['trans_id', after.paymentId],
    ['trans_date', formDate(outcome.at)],
    ['amount', formatMinor(after.amount, after.currency)],
    ['currency', after.currency],
  ];
  if (outcome.declineReason !== undefined) fields.push(['decline_reason', outcome.declineReason]);
  fields.push(['hash', payoutCallbackHash({ transId: after.paymentId, orderId: after.orderId, status: outcome.status, password: ctx.password })]);
  return fields;
}
