/**
 * What a SALE asks of other services before its payment starts, after the hash: that callbacks could
 * reach its notification URL, and the schedule a chain will follow.
 */
import type { NotificationUrlCheck } from '../../callbacks/notification-url-check';
import type { ScheduleService } from '../../schedules/schedule-service';
import type { ScheduleRequest } from '../types';
import type { ScheduleFields } from './command';

export interface SaleChecks {
  notificationUrls: Pick<NotificationUrlCheck, 'problem'>;
  schedules: Pick<ScheduleService, 'info'>;
}

/** A notification URL callbacks could never reach; `problem` says why, as the field's message. */
export class NotificationUrlRefused extends Error {
  constructor(readonly problem: string) {
    super(`notification_url: ${problem}`);
    this.name = 'NotificationUrlRefused';
  }
}

export async function refuseUnreachable(checks: SaleChecks, notificationUrl: string | null): Promise<void> {
  if (notificationUrl === null) return;
  const problem = await checks.notificationUrls.problem(notificationUrl);
  if (problem) throw new NotificationUrlRefused(problem);
}

/** The merchant's live schedule the chain will follow; DomainError `schedule_not_found` when there is none. */
export async function scheduleRequestOf(checks: SaleChecks, merchantId: string, fields: ScheduleFields): Promise<ScheduleRequest> {
  const found = await checks.schedules.info(merchantId, fields.scheduleId);
  return { ...fields, rule: found.rule };
}
