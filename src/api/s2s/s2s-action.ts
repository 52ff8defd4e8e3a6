/**
 * What every `/post` action shares: its dependencies, what it is given, and how it is declared.
 * Each action lives in `actions/` and is listed once in `actions/index.ts`, the allowlist.
 */
import type Ajv from 'ajv';
import type { MerchantAccount, MerchantService } from '../../application/merchant-service';
import type { PaymentService } from '../../application/payments';
import type { PayoutService } from '../../application/payouts';
import type { Clock } from '../../application/ports/clock';
import type { ScheduleService } from '../../application/schedules/schedule-service';
import type { NotificationUrlCheck } from '../../application/callbacks/notification-url-check';
import type { Environment } from '../../domain/merchant/events';
import type { AuthThrottle } from '../auth-throttle';
import type { FormBody } from '../form';
import type { Validator } from '../validation';
import type { PaymentView } from './responses';

/** What a status lookup by order needs from the read side (by `trans_id` it reads the payment's stream). */
export interface PaymentQueries {
  latestPaymentViewByOrder(merchantId: string, orderId: string): Promise<PaymentView | undefined>;
  /** Read-your-writes: waits until the read models include everything appended so far. */
  catchUpToHead(timeoutMs?: number): Promise<boolean>;
}

export interface S2sDeps {
  merchants: MerchantService;
  payments: PaymentService;
  schedules: ScheduleService;
  /** Payouts (`CREDIT2VIRTUAL`): held on the merchant's payout balance before the provider is asked. */
  payouts: Pick<PayoutService, 'payout'>;
  queries: PaymentQueries;
  clock: Clock;
  environment: Environment;
  ajv: Ajv;
  /** Refuses notification URLs callbacks could never reach. */
  notificationUrls: Pick<NotificationUrlCheck, 'problem'>;
  /** Limits failed authentications (wrong hash, unknown client_key) per merchant and address. */
  throttle?: AuthThrottle;
}

export type { FormBody };

export interface ActionContext {
  form: FormBody;
  merchant: MerchantAccount;
  requestId: string;
  ip: string;
}

/** One `/post` action: its field validation (compiled once) and its handler. */
export interface S2sAction {
  validate: Validator;
  handle(c: ActionContext): Promise<Record<string, unknown>>;
}

/** A non-empty string field of the form, or undefined. */
export function formString(form: FormBody, name: string): string | undefined {
  const v = form[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
