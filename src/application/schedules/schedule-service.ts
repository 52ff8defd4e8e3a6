/**
 * Schedule use cases for both APIs (S2S `CREATE_SCHEDULE` / `UPDATE_SCHEDULE` / `DELETE_SCHEDULE`
 * and the Checkout `/api/v1/schedule/*` operations). Another merchant's schedule is
 * indistinguishable from a missing one.
 */
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../domain/errors';
import { paymentStreamId } from '../../domain/payment/events';
import { chainStreamId, CHAIN_EVENT_SCHEMA_VERSION, type ChainEvent } from '../../domain/schedule/chain-events';
import type { ScheduleRule } from '../../domain/schedule/due-dates';
import type { ScheduleCommand } from '../../domain/schedule/schedule-decide';
import { scheduleStreamId, type ScheduleChanges } from '../../domain/schedule/schedule-events';
import type { ExistingSchedule } from '../../domain/schedule/schedule-state';
import { handleCommand, loadState, toNewEvent } from '../command-handler';
import { paymentDecider } from '../../domain/payment/decider';
import { chainFold, scheduleDecider } from '../../domain/schedule/decider';
import type { Clock } from '../ports/clock';
import { ANY, type EventStore } from '../ports/event-store';

/** Chains that a payment other than their first started (a Checkout recurring request with `schedule_id`). */
export interface ChainLookup {
  chainIdsOf(merchantId: string, scheduleId: string, initPaymentId: string): Promise<string[]>;
}

export interface ScheduleServiceDeps {
  store: EventStore;
  clock: Clock;
  chains: ChainLookup;
}

export class ScheduleService {
  constructor(private readonly deps: ScheduleServiceDeps) {}

  async create(
    merchantId: string,
    input: { scheduleId?: string; name: string; rule: ScheduleRule },
    correlationId: string,
  ): Promise<ExistingSchedule> {
    const scheduleId = input.scheduleId ?? randomUUID();
    const result = await handleCommand(
      this.deps.store,
      scheduleStreamId(scheduleId),
      scheduleDecider,
      { type: 'CreateSchedule', data: { scheduleId, merchantId, name: input.name, rule: input.rule, now: this.now() } },
      { correlationId, causationId: correlationId },
    );
    return result.state as ExistingSchedule;
  }

  update(merchantId: string, scheduleId: string, changes: ScheduleChanges, correlationId: string): Promise<ExistingSchedule> {
    return this.command(merchantId, scheduleId, correlationId, { type: 'UpdateSchedule', data: { changes, now: this.now() } });
  }

  pause(merchantId: string, scheduleId: string, correlationId: string): Promise<ExistingSchedule> {
    return this.command(merchantId, scheduleId, correlationId, { type: 'PauseSchedule', data: { now: this.now() } });
  }

  /** Resumes a paused schedule; dates that fell due while paused stay skipped. */
  run(merchantId: string, scheduleId: string, correlationId: string): Promise<ExistingSchedule> {
    return this.command(merchantId, scheduleId, correlationId, { type: 'RunSchedule', data: { now: this.now() } });
  }

  delete(merchantId: string, scheduleId: string, correlationId: string): Promise<ExistingSchedule> {
    return this.command(merchantId, scheduleId, correlationId, { type: 'DeleteSchedule', data: { now: this.now() } });
  }

  /** The merchant's live schedule, or `schedule_not_found`. */
  async info(merchantId: string, scheduleId: string): Promise<ExistingSchedule> {
    const { state } = await loadState(this.deps.store, scheduleStreamId(scheduleId), scheduleDecider);
    if (!state.exists || state.status === 'deleted' || state.merchantId !== merchantId) {
      throw new DomainError('schedule_not_found', 'Schedule not found');
    }
    return state;
  }

  /**
   * Takes chains off a schedule, which stays usable for new ones. With `initPaymentId`, only the
   * chains of that initial payment; without, every chain started so far.
   */
  async deschedule(merchantId: string, scheduleId: string, initPaymentId: string | null, correlationId: string): Promise<string[]> {
    if (initPaymentId === null) {
      await this.command(merchantId, scheduleId, correlationId, { type: 'DetachScheduleChains', data: { now: this.now() } });
      return [];
    }
    const schedule = await this.info(merchantId, scheduleId);
    const metadata = { correlationId, causationId: correlationId };
    const chainIds = new Set(await this.deps.chains.chainIdsOf(merchantId, scheduleId, initPaymentId));
    // The usual chain is the initial payment's own, which the read model may not show yet.
    const { state: init } = await loadState(this.deps.store, paymentStreamId(initPaymentId), paymentDecider);
    if (init.exists && init.merchantId === merchantId && init.recurring?.schedule?.scheduleId === scheduleId) chainIds.add(initPaymentId);
    if (chainIds.size === 0) throw new DomainError('incorrect_transaction', 'Incorrect transaction');
    const now = this.now();
    for (const chainId of chainIds) {
      const { state } = await loadState(this.deps.store, chainStreamId(chainId), chainFold);
      if (state.ended) continue;
      const ended: ChainEvent = { type: 'ScheduledChainEnded', data: { chainId, scheduleId: schedule.scheduleId, reason: 'descheduled', endedAt: now } };
      // Appended whatever the version: the scheduler re-reads the chain before each charge.
      await this.deps.store.append(chainStreamId(chainId), [toNewEvent(ended, CHAIN_EVENT_SCHEMA_VERSION, metadata)], ANY);
    }
    return [...chainIds];
  }

  private async command(merchantId: string, scheduleId: string, correlationId: string, command: ScheduleCommand): Promise<ExistingSchedule> {
    await this.info(merchantId, scheduleId);
    const result = await handleCommand(this.deps.store, scheduleStreamId(scheduleId), scheduleDecider, command, {
      correlationId,
      causationId: correlationId,
    });
    return result.state as ExistingSchedule;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
