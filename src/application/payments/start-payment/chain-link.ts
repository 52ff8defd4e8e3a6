/** The chain link PaymentInitiated records: an initial payment gets its token and schedule anchor here. */
import { randomBytes } from 'node:crypto';
import type { ChainSchedule, RecurringLink } from '../../../domain/payment/events';
import { anchorChain } from '../../../domain/schedule/due-dates';
import type { InternalSale, ScheduleRequest } from '../types';

export function recurringLinkOf(request: InternalSale, paymentId: string, now: string): RecurringLink | undefined {
  const schedule = request.schedule ? chainSchedule(request.schedule, request, now) : undefined;
  if (request.link) return { ...request.link, ...(schedule ? { schedule } : {}) };
  if (!request.recurringInit) return undefined;
  return {
    role: 'initial',
    initPaymentId: paymentId,
    token: randomBytes(24).toString('hex'),
    ...(schedule ? { schedule } : {}),
  };
}

function chainSchedule(schedule: ScheduleRequest, request: { amount: number; amountText: string }, now: string): ChainSchedule {
  const anchor = anchorChain(schedule.rule, now.slice(0, 10), schedule.startDate ?? null);
  return {
    scheduleId: schedule.scheduleId,
    firstDueDate: anchor.firstDueDate,
    anchorDay: anchor.anchorDay,
    ...(schedule.startDate ? { startDate: schedule.startDate } : {}),
    amount: schedule.amount?.minor ?? request.amount,
    amountText: schedule.amount?.text ?? request.amountText,
    amountSent: schedule.amount !== undefined,
  };
}
