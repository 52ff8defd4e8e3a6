/**
 * Makes the automatic payments of scheduled chains. For each chain the read model says is due, it
 * reads the chain, its schedule and the payment that started it from their streams (the source of
 * truth), decides one step (nextChainStep) and records it at the chain version it read:
 *
 * - a charge appends the chain's ScheduledPaymentStarted together with the new payment's
 *   PaymentInitiated (one transaction on SQLite and PostgreSQL) before the acquirer is asked, so
 *   two schedulers (or one restarted) never charge one due date twice: the loser's append fails on
 *   the chain version and it re-reads. A crash after that commit leaves the payment `initiated`;
 *   the reconciler asks the acquirer what happened, and nothing is charged again.
 * - a skip (schedule paused) or an end (completed, descheduled, schedule deleted, starting payment
 *   failed) is one chain event.
 *
 * It then decides again, so a chain several dates behind (a stopped scheduler, a moved test clock)
 * catches up date by date, in order. A declined payment does not stop the chain.
 */
import { newId } from '../new-id';
import { paymentStreamId } from '../../domain/payment/events';
import type { ExistingPayment } from '../../domain/payment/state';
import { chainEventsFor, evolveChain, nextChainStep, type ChainSource, type ChainState } from '../../domain/schedule/chain-decide';
import { CHAIN_EVENT_SCHEMA_VERSION, chainStreamId, type ScheduledPaymentStarted } from '../../domain/schedule/chain-events';
import { scheduleStreamId } from '../../domain/schedule/schedule-events';
import type { ExistingSchedule } from '../../domain/schedule/schedule-state';
import { loadState, toNewEvent } from '../command-handler';
import { paymentDecider } from '../../domain/payment/decider';
import { chainFold, scheduleDecider } from '../../domain/schedule/decider';
import type { PaymentService, RecurringChain, ScheduledPaymentRequest } from '../payments';
import type { ChainSchedule } from '../../domain/payment/events';
import type { Clock } from '../ports/clock';
import { NO_STREAM, WrongExpectedVersionError, exactly, type EventStore, type StoredEvent } from '../ports/event-store';
import type { Logger } from '../ports/logger';

export interface DueChainSource {
  dueChains(date: string, limit: number): Promise<{ chainId: string; nextDueDate: string }[]>;
}

export interface SchedulerOptions {
  store: EventStore;
  payments: PaymentService;
  clock: Clock;
  logger: Logger;
  due: DueChainSource;
  /** Chains advanced at once. Default 32. */
  concurrency?: number;
  /** Due chains read per query. Default 500. */
  batchSize?: number;
}

export interface SchedulerRun {
  charged: number;
  skipped: number;
  ended: number;
}

/** Steps one chain may take in one look: enough to catch up years of daily dates, bounded against a bug. */
const MAX_STEPS_PER_CHAIN = 5_000;
const MAX_CONFLICTS = 5;

export class Scheduler {
  private running: Promise<SchedulerRun> | null = null;

  constructor(private readonly options: SchedulerOptions) {}

  /**
   * Advances every chain due by now. Runs of one scheduler never overlap: a call during a run
   * waits for it and then runs again, so what became due meanwhile is not missed.
   */
  async runDue(): Promise<SchedulerRun> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.runOnce();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async runOnce(): Promise<SchedulerRun> {
    const total: SchedulerRun = { charged: 0, skipped: 0, ended: 0 };
    const seen = new Set<string>();
    const batchSize = this.options.batchSize ?? 500;
    for (;;) {
      const today = this.options.clock.now().toISOString().slice(0, 10);
      // The read model may lag what this run appended: a chain looked at once is done for this run.
      const rows = (await this.options.due.dueChains(today, batchSize + seen.size)).filter((r) => !seen.has(r.chainId));
      if (rows.length === 0) return total;
      for (const row of rows) seen.add(row.chainId);
      await forEachLimited(rows, this.options.concurrency ?? 32, async (row) => {
        try {
          const run = await this.advanceChain(row.chainId);
          total.charged += run.charged;
          total.skipped += run.skipped;
          total.ended += run.ended;
        } catch (error) {
          this.options.logger.error('scheduled chain failed', { chainId: row.chainId, error: String((error as Error)?.message ?? error) });
        }
      });
    }
  }

  /** Takes every step the chain can take now. */
  async advanceChain(chainId: string): Promise<SchedulerRun> {
    const run: SchedulerRun = { charged: 0, skipped: 0, ended: 0 };
    const { store, clock } = this.options;
    // The schedule and the chain's payments are read once per look: a pause recorded during it
    // takes effect at the next look, a second later at most.
    const context = await this.contextOf(chainId);
    if (!context) return run;
    const streamId = chainStreamId(chainId);
    let conflicts = 0;
    // What this look appended is folded in place; the stream is read again only after a conflict.
    let loaded: { state: ChainState; version: bigint | null } | null = null;
    for (let steps = 0; steps < MAX_STEPS_PER_CHAIN; steps++) {
      if (!loaded) {
        const read = await loadState(store, streamId, chainFold);
        if (steps === 0) await this.finishInterruptedClaim(context, read.state, read.events);
        loaded = read;
      }
      const now = clock.now().toISOString();
      const step = nextChainStep(loaded.state, context.schedule, context.source, now);
      if (step.kind === 'none' || step.kind === 'wait') return run;
      const paymentId = newId();
      const metadata = { correlationId: `schedule-${chainId}`, causationId: `schedule-${chainId}` };
      const decided = chainEventsFor(step, { chainId, scheduleId: context.schedule.scheduleId, paymentId, now });
      const events = decided.map((e) => toNewEvent(e, CHAIN_EVENT_SCHEMA_VERSION, metadata));
      const expected = loaded.version === null ? NO_STREAM : exactly(loaded.version);
      try {
        if (step.kind === 'charge') {
          const claim = { paymentId, scheduleId: context.schedule.scheduleId, sequence: step.sequence, dueDate: step.dueDate };
          await this.options.payments.startScheduledPayment(scheduledPaymentOf(context, claim), { streamId, events, expected });
          run.charged++;
        } else {
          await store.append(streamId, events, expected);
          if (step.kind === 'skip') run.skipped++;
          else run.ended++;
        }
      } catch (error) {
        // Another scheduler took this step first: read again and go on from there.
        if (error instanceof WrongExpectedVersionError && error.streamId === streamId && ++conflicts <= MAX_CONFLICTS) {
          loaded = null;
          continue;
        }
        throw error;
      }
      loaded = {
        state: decided.reduce(evolveChain, loaded.state),
        version: (loaded.version === null ? -1n : loaded.version) + BigInt(decided.length),
      };
    }
    return run;
  }

  /** The chain's schedule, the payment that started it and the chain's first payment; null when not a chain. */
  private async contextOf(chainId: string): Promise<ChainContext | null> {
    const { store } = this.options;
    const { state: started } = await loadState(store, paymentStreamId(chainId), paymentDecider);
    const link = started.exists ? started.recurring : undefined;
    if (!started.exists || !link?.schedule) return null;
    const { state: schedule } = await loadState(store, scheduleStreamId(link.schedule.scheduleId), scheduleDecider);
    if (!schedule.exists) return null;
    let first: ExistingPayment = started;
    if (link.role !== 'initial') {
      const { state } = await loadState(store, paymentStreamId(link.initPaymentId), paymentDecider);
      if (!state.exists) return null;
      first = state;
    }
    const succeeded = link.role === 'initial' ? Boolean(started.recurringToken) : SUCCEEDED_PHASES.has(started.phase);
    return {
      schedule,
      source: {
        paymentId: chainId,
        outcome: succeeded ? 'succeeded' : started.phase === 'declined' ? 'failed' : 'undecided',
        schedule: link.schedule,
        startedAt: started.initiatedAt,
      },
      started: started as ChainContext['started'],
      first: first as RecurringChain,
    };
  }

  /**
   * EventStoreDB writes a claim and its payment one after the other: a crash in between leaves a
   * claimed due date without its payment. It is written now, with the claimed id, before the
   * chain moves on; the payment stream's own no-stream check keeps it single.
   */
  private async finishInterruptedClaim(context: ChainContext, state: ChainState, events: StoredEvent[]): Promise<void> {
    if (!state.lastPaymentId || (await this.options.payments.paymentExists(state.lastPaymentId))) return;
    const claim = [...events].reverse().find((e) => e.type === 'ScheduledPaymentStarted');
    if (!claim) return;
    try {
      await this.options.payments.startScheduledPayment(scheduledPaymentOf(context, claim.data as ScheduledPaymentStarted['data']), null);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) return; // another scheduler finished it
      throw error;
    }
  }
}

/** Phases of a payment that went through (a later refund or void does not undo the chain). */
const SUCCEEDED_PHASES: ReadonlySet<string> = new Set(['settled', 'authorized', 'refunded', 'voided', 'reversed']);

interface ChainContext {
  schedule: ExistingSchedule;
  source: ChainSource;
  /** The payment that started the schedule: its order, amount and notification URL are the chain's. */
  started: ExistingPayment & { recurring: { schedule: ChainSchedule } };
  /** The chain's first payment: its stored card and token. */
  first: RecurringChain;
}

/** The automatic payment of one claimed due date. */
function scheduledPaymentOf(
  context: ChainContext,
  claim: { paymentId: string; scheduleId: string; sequence: number; dueDate: string },
): ScheduledPaymentRequest {
  const { started, first } = context;
  return {
    paymentId: claim.paymentId,
    chain: first,
    kind: first.kind === 'debit' ? 'debit' : 'sale',
    orderId: started.orderId,
    orderDescription: started.orderDescription,
    amount: started.recurring.schedule.amount,
    amountText: started.recurring.schedule.amountText,
    scheduleId: claim.scheduleId,
    sequence: claim.sequence,
    dueDate: claim.dueDate,
    notificationUrl: started.notificationUrl,
    correlationId: `schedule-${started.paymentId}-${claim.sequence}`,
  };
}

async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(workers);
}
