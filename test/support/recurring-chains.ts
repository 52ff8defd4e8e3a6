/**
 * Recurring chains started straight through the application services, for tests about what the
 * scheduler and the test clock do afterwards rather than about the HTTP APIs.
 */
import { randomUUID } from 'node:crypto';
import type { Gateway } from '../../src/composition';
import type { ExistingPayment } from '../../src/domain/payment/state';
import type { ChainEvent } from '../../src/domain/schedule/chain-events';
import { chainStreamId } from '../../src/domain/schedule/chain-events';
import type { ScheduleRule } from '../../src/domain/schedule/due-dates';
import { paymentStreamId } from '../../src/domain/payment/events';

export const DAILY: ScheduleRule = { intervalLength: 1, intervalUnit: 'day', paymentsCount: 5, delayedFirstPayment: { kind: 'none' } };

export interface StartedChain {
  chainId: string;
  scheduleId: string;
  initial: ExistingPayment;
}

export async function startChain(
  g: Gateway,
  merchantId: string,
  options: { rule?: ScheduleRule; scheduleAmount?: { minor: number; text: string }; expYear?: string; expMonth?: string; startDate?: string; scheduleId?: string } = {},
): Promise<StartedChain> {
  const scheduleId =
    options.scheduleId ??
    (await g.schedules.create(merchantId, { name: 'Plan', rule: options.rule ?? DAILY }, `test-${randomUUID()}`)).scheduleId;
  const schedule = await g.schedules.info(merchantId, scheduleId);
  const result = await g.payments.sale({
    merchantId,
    kind: 'sale',
    orderId: `chain-${randomUUID()}`,
    orderDescription: 'Subscription',
    currency: 'EUR',
    amount: 999,
    amountText: '9.99',
    card: { kind: 'number', number: '4111111111111111', expMonth: options.expMonth ?? '01', expYear: options.expYear ?? '2038', cvv: '123' },
    payer: { email: 'payer@example.com' },
    termUrl3ds: null,
    notificationUrl: null,
    customData: null,
    parameters: null,
    recurringInit: true,
    storeCard: true,
    correlationId: randomUUID(),
    schedule: {
      scheduleId,
      rule: schedule.rule,
      ...(options.startDate ? { startDate: options.startDate } : {}),
      ...(options.scheduleAmount ? { amount: options.scheduleAmount } : {}),
    },
  });
  return { chainId: result.payment.paymentId, scheduleId, initial: result.payment };
}

export async function chainEvents(g: Gateway, chainId: string): Promise<ChainEvent[]> {
  return (await g.store.readStream(chainStreamId(chainId))).map((e) => ({ type: e.type, data: e.data }) as unknown as ChainEvent);
}

/** The payments the scheduler made for a chain, in claim order. */
export async function scheduledPayments(g: Gateway, chainId: string): Promise<ExistingPayment[]> {
  const out: ExistingPayment[] = [];
  for (const e of await chainEvents(g, chainId)) {
    if (e.type !== 'ScheduledPaymentStarted') continue;
    out.push(await g.payments.current(e.data.paymentId));
  }
  return out;
}

/** Milliseconds from the gateway's now to midnight UTC of `date` plus `hours`. */
export function untilDate(g: Gateway, date: string, hours = 0): number {
  return Date.parse(`${date}T00:00:00.000Z`) + hours * 3_600_000 - g.clock.now().getTime();
}

export const streamExists = async (g: Gateway, paymentId: string): Promise<boolean> =>
  (await g.store.streamVersion(paymentStreamId(paymentId))) !== null;
