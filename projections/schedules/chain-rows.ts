/** A chain's row: started by the payment that starts a schedule, then moved on by each chain event. */
import type { PaymentInitiated } from '../../src/domain/payment/events';
import type { ChainEvent } from '../../src/domain/schedule/chain-events';
import { nextDue, type ChainRow, type ScheduleRow } from './next-due';

type ChainEventOf<T extends ChainEvent['type']> = Extract<ChainEvent, { type: T }>;
type Apply<T extends ChainEvent['type']> = (chain: ChainRow, event: ChainEventOf<T>, schedule: ScheduleRow | undefined) => ChainRow;

/** A payment claimed (started) or skipped for the chain's next due date. */
function movedOn(chain: ChainRow, sequence: number, started: boolean, at: string, schedule: ScheduleRow | undefined): ChainRow {
  const next = { ...chain, next_sequence: sequence + 1 };
  return {
    ...next,
    next_due_date: nextDue(next, schedule),
    payments_started: Number(chain.payments_started) + (started ? 1 : 0),
    payments_skipped: Number(chain.payments_skipped) + (started ? 0 : 1),
    updated_at: at,
  };
}

const APPLY: { readonly [T in ChainEvent['type']]: Apply<T> } = {
  ScheduledPaymentStarted: (chain, { data }, schedule) => movedOn(chain, data.sequence, true, data.startedAt, schedule),
  ScheduledPaymentSkipped: (chain, { data }, schedule) => movedOn(chain, data.sequence, false, data.skippedAt, schedule),
  ScheduledChainEnded: (chain, { data }) => ({ ...chain, status: 'ended', end_reason: data.reason, next_due_date: null, updated_at: data.endedAt }),
};

export function applyChain(chain: ChainRow, event: ChainEvent, schedule: ScheduleRow | undefined): ChainRow {
  return (APPLY[event.type] as Apply<ChainEvent['type']>)(chain, event, schedule);
}

/** The row of the chain a payment starts; `schedule` is the schedule's row when the projection has it. */
export function startedChain(d: PaymentInitiated['data'], schedule: ScheduleRow | undefined): ChainRow {
  const started = d.recurring!.schedule!;
  const row: ChainRow = {
    chain_id: d.paymentId,
    merchant_id: d.merchantId,
    schedule_id: started.scheduleId,
    init_payment_id: d.recurring!.initPaymentId,
    first_due_date: started.firstDueDate,
    anchor_day: started.anchorDay,
    next_sequence: 1,
    next_due_date: started.firstDueDate,
    status: 'open',
    end_reason: null,
    payments_started: 0,
    payments_skipped: 0,
    started_at: d.initiatedAt,
    updated_at: d.initiatedAt,
  };
  // A schedule deleted or descheduled before this payment was projected: due now, to end it.
  return schedule ? { ...row, next_due_date: nextDue(row, schedule) } : row;
}
