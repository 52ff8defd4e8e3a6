/**
 * What a merchant is told about a payout (`CREDIT2VIRTUAL`, docs/reference/callbacks.md#payout-callbacks): the same fields as
 * the payout's answer, once its provider decided. Pure, like the other callback tables; the S2S
 * dispatcher (callback-content.ts) sends a payout here by its kind.
 *
 * | Event | result | status |
 * |---|---|---|
 * | PaymentSettled | SUCCESS | SETTLED |
 * | PaymentDeclined (the provider, or an insufficient payout balance) | DECLINED | DECLINED |
 * | PaymentCascaded, the first of a payout | DECLINED | DECLINED |
 * | PaymentPending, PaymentOutcomeUnknown (the provider decides later, or has not answered) | UNDEFINED | PREPARE |
 *
 * The wait is told too, as an APM sale's pending states are (what the answer said). Fields, in order:
 * action, result, status, order_id, trans_id, trans_date (of the event, UTC), amount (in the
 * currency's exponent: none for XOF and XAF), currency, decline_reason when declined, hash last:
 * the family's payout formula `md5(upper(strrev(trans_id + order_id + status)) + password)`, not
 * the APM callback's (signatures.ts `payoutCallbackHash`, the §8 test vector).
 */
import { formatMinor } from '../money';
import type { PaymentEvent } from '../payment/events';
import type { ExistingPayment } from '../payment/state';
import { payoutCallbackHash } from '../signatures';
import type { CallbackContext } from './callback-content';
import { formDate, type FormFields } from './form-fields';

/** Whether a payment is a payout made with a method (CREDIT2VIRTUAL): its callbacks are these. */
export const isMethodPayout = (p: Pick<ExistingPayment, 'kind' | 'method'>): boolean => p.kind === 'credit' && p.method !== undefined;

function outcomeOf(
  event: PaymentEvent,
  after: ExistingPayment,
): { result: 'SUCCESS' | 'DECLINED' | 'UNDEFINED'; status: 'SETTLED' | 'DECLINED' | 'PREPARE'; at: string; declineReason?: string } | null {
  switch (event.type) {
    case 'PaymentPending':
      return { result: 'UNDEFINED', status: 'PREPARE', at: event.data.pendingAt };
    case 'PaymentOutcomeUnknown':
      return { result: 'UNDEFINED', status: 'PREPARE', at: event.data.at };
    case 'PaymentSettled':
      return { result: 'SUCCESS', status: 'SETTLED', at: event.data.settledAt };
    case 'PaymentDeclined':
      return { result: 'DECLINED', status: 'DECLINED', at: event.data.declinedAt, declineReason: event.data.reason };
    case 'PaymentCascaded':
      return after.cascadedFrom?.length === 1 ? { result: 'DECLINED', status: 'DECLINED', at: event.data.cascadedAt, declineReason: event.data.reason } : null;
    default:
      return null;
  }
}

export function payoutCallbackFieldsFor(event: PaymentEvent, after: ExistingPayment, ctx: CallbackContext): FormFields | null {
  const outcome = outcomeOf(event, after);
  if (!outcome) return null;
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
