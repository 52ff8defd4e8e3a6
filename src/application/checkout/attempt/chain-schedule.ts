import type { ExistingSession } from '../../../domain/checkout/session-state';
import { DomainError } from '../../../domain/errors';
import { parseAmount } from '../../../domain/money';
import type { ScheduleRequest } from '../../payments';
import type { CheckoutServiceDeps } from '../deps';

/**
 * The schedule a `recurring_init` session's chain follows, with the rule as it stands now. A
 * schedule deleted since the session was created leaves a chain without one (the payer still
 * pays), and a `schedule_start_date` that passed while the payer took their time gives way to
 * the rule's own first-payment delay rather than a charge due at once.
 */
export async function chainScheduleOf(deps: Pick<CheckoutServiceDeps, 'schedules' | 'clock'>, session: ExistingSession): Promise<ScheduleRequest | undefined> {
  const wanted = session.schedule;
  if (!session.recurringInit || !wanted) return undefined;
  let rule: ScheduleRequest['rule'];
  try {
    rule = (await deps.schedules.info(session.merchantId, wanted.scheduleId)).rule;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'schedule_not_found') return undefined;
    throw error;
  }
  const today = deps.clock.now().toISOString().slice(0, 10);
  const amount = wanted.paymentAmountText === undefined ? null : parseAmount(wanted.paymentAmountText, session.order.currency);
  return {
    scheduleId: wanted.scheduleId,
    rule,
    ...(wanted.startDate && wanted.startDate > today ? { startDate: wanted.startDate } : {}),
    ...(amount?.ok ? { amount: { minor: amount.minor, text: wanted.paymentAmountText! } } : {}),
  };
}
