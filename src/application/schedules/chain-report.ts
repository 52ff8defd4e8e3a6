/**
 * A scheduled chain explained from its streams (`npm run gateway -- chain <id>`,
 * `GET /admin/chains/:id`): the schedule, where its dates are counted from, and every due date
 * with what became of it. The id is the payment that started the schedule (usually the chain's
 * first payment, the `recurring_init_trans_id`).
 */
import { paymentStreamId } from '../../domain/payment/events';
import { chainStreamId, type ChainEvent } from '../../domain/schedule/chain-events';
import { chainTimeline } from '../../domain/schedule/chain-timeline';
import { scheduleStreamId } from '../../domain/schedule/schedule-events';
import { loadState, toDomainEvent } from '../command-handler';
import { paymentDecider } from '../../domain/payment/decider';
import { scheduleDecider } from '../../domain/schedule/decider';
import type { EventStore } from '../ports/event-store';

export interface ChainReport {
  chain_id: string;
  merchant_id: string;
  init_payment_id: string;
  schedule: {
    schedule_id: string;
    name: string;
    interval_length: number;
    interval_unit: string;
    payments_count: number;
    status: string;
  };
  first_recurring_date: string;
  anchor_day: number;
  amount: string;
  currency: string;
  payments: {
    sequence: number;
    due_date: string;
    outcome: 'charged' | 'skipped' | 'upcoming';
    payment_id?: string;
    status?: string | null;
    reason?: string | null;
    at?: string;
  }[];
  ended: { reason: string; at: string } | null;
}

export async function chainReport(store: EventStore, chainId: string): Promise<ChainReport | null> {
  const { state: started } = await loadState(store, paymentStreamId(chainId), paymentDecider);
  const anchor = started.exists ? started.recurring?.schedule : undefined;
  if (!started.exists || !anchor) return null;
  const { state: schedule } = await loadState(store, scheduleStreamId(anchor.scheduleId), scheduleDecider);
  if (!schedule.exists) return null;
  const events = (await store.readStream(chainStreamId(chainId))).map((e) => toDomainEvent<ChainEvent>(e));
  const payments = new Map<string, { status: string; declineReason: string | null }>();
  for (const e of events) {
    if (e.type !== 'ScheduledPaymentStarted') continue;
    const { state } = await loadState(store, paymentStreamId(e.data.paymentId), paymentDecider);
    if (state.exists) payments.set(e.data.paymentId, { status: state.status, declineReason: state.declineReason });
  }
  const timeline = chainTimeline(events, schedule, anchor, payments);
  return {
    chain_id: chainId,
    merchant_id: started.merchantId,
    init_payment_id: started.recurring!.initPaymentId,
    schedule: {
      schedule_id: schedule.scheduleId,
      name: schedule.name,
      interval_length: schedule.rule.intervalLength,
      interval_unit: schedule.rule.intervalUnit,
      payments_count: schedule.rule.paymentsCount,
      status: schedule.status,
    },
    first_recurring_date: anchor.firstDueDate,
    anchor_day: anchor.anchorDay,
    amount: anchor.amountText,
    currency: started.currency,
    payments: timeline.entries.map((entry) => {
      const base = { sequence: entry.sequence, due_date: entry.dueDate, outcome: entry.outcome };
      if (entry.outcome === 'charged') return { ...base, payment_id: entry.paymentId, status: entry.status, reason: entry.reason, at: entry.at };
      if (entry.outcome === 'skipped') return { ...base, reason: entry.reason, at: entry.at };
      return base;
    }),
    ended: timeline.ended,
  };
}
