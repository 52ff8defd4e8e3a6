/** A SALE's schedule fields (`schedule_id`, `schedule_start_date`, `payment_schedule_amount`), checked for shape and against each other. */
import { isCurrency, parseAmount, type AmountResult } from '../../../domain/money';
import { isCalendarDate } from '../../../domain/schedule/due-dates';
import type { ScheduleFields } from './command';
import { fieldProblem, formString, type SaleForm } from './form-fields';

/**
 * Adds the schedule fields' problems to `problems`; null when no schedule_id was sent. `sale`: the
 * SALE's currency and parsed amount (null when not parseable), to read payment_schedule_amount in
 * the same currency and to demand it when the SALE itself is zero.
 */
export function scheduleFieldsOf(
  form: SaleForm,
  sale: { currency: string; amount: AmountResult | null; recurringInit: boolean; today: string },
  problems: string[],
): ScheduleFields | null {
  const scheduleId = formString(form, 'schedule_id');
  const startDate = formString(form, 'schedule_start_date');
  const amountText = formString(form, 'payment_schedule_amount');
  if (!scheduleId) {
    if (startDate !== undefined || amountText !== undefined) problems.push(fieldProblem('schedule_id', 'This value should not be blank.'));
    return null;
  }
  if (!sale.recurringInit) problems.push(fieldProblem('recurring_init', 'This value should be Y when schedule_id is sent.'));
  if (startDate !== undefined) {
    if (!isCalendarDate(startDate)) problems.push(fieldProblem('schedule_start_date', 'This value is not a valid date (YYYY-MM-DD).'));
    // The first automatic charge must come after the payment that starts the chain.
    else if (startDate <= sale.today) problems.push(fieldProblem('schedule_start_date', 'This value should be a date after today.'));
  }
  const amount = amountText !== undefined ? scheduleAmountOf(amountText, sale.currency, problems) : undefined;
  // A zero card check cannot be the amount of every automatic payment.
  if (amountText === undefined && sale.amount?.ok && sale.amount.minor === 0) {
    problems.push(fieldProblem('payment_schedule_amount', 'This value should not be blank.'));
  }
  return { scheduleId, ...(startDate !== undefined ? { startDate } : {}), ...(amount ? { amount } : {}) };
}

function scheduleAmountOf(text: string, currency: string, problems: string[]): ScheduleFields['amount'] {
  if (!isCurrency(currency)) return undefined;
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) problems.push(fieldProblem('payment_schedule_amount', parsed.reason));
  else if (parsed.minor === 0) problems.push(fieldProblem('payment_schedule_amount', 'This value should be greater than 0.'));
  else return { minor: parsed.minor, text };
  return undefined;
}
