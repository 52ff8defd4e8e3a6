/**
 * What callbacks, responses and status lookups say about a payment's recurring chain, in either
 * API's words. Pure and shared, so a SALE's response, its callbacks and its status lookups never
 * disagree.
 *
 * - An initial payment that succeeded: `recurring_token` (and, on Checkout, `recurring_init_trans_id`,
 *   its own id), so the merchant can charge the chain later.
 * - A later charge (RECURRING_SALE / RECURRING_DEBIT / Checkout recurring / scheduled): the chain's
 *   first payment as `recurring_init_trans_id` (Checkout) or `recurring_first_trans_id` (S2S).
 * - A payment that started a schedule: `schedule_id`, `first_recurring_date`, and
 *   `schedule_start_date` / `payment_schedule_amount` when the merchant sent them.
 * - A scheduled payment: its `schedule_id`.
 */
import type { ExistingPayment } from '../payment/state';

export type RecurringFieldStyle = 's2s' | 'checkout';

export function recurringFields(p: ExistingPayment, style: RecurringFieldStyle): [string, string][] {
  const link = p.recurring;
  if (!link) return [];
  const out: [string, string][] = [];
  if (link.role === 'initial') {
    if (p.recurringToken) {
      if (style === 'checkout') out.push(['recurring_init_trans_id', p.paymentId]);
      out.push(['recurring_token', p.recurringToken]);
    }
  } else {
    out.push([style === 'checkout' ? 'recurring_init_trans_id' : 'recurring_first_trans_id', link.initPaymentId]);
  }
  const schedule = link.schedule;
  if (schedule) {
    out.push(['schedule_id', schedule.scheduleId]);
    if (schedule.startDate) out.push(['schedule_start_date', schedule.startDate]);
    if (schedule.amountSent) out.push(['payment_schedule_amount', schedule.amountText]);
    out.push(['first_recurring_date', schedule.firstDueDate]);
  } else if (link.role === 'scheduled' && link.scheduleId) {
    out.push(['schedule_id', link.scheduleId]);
  }
  return out;
}

/** A later charge of a chain, made without the payer (by the merchant or the scheduler). */
export const isChainCharge = (p: ExistingPayment): boolean => p.recurring !== undefined && p.recurring.role !== 'initial';
