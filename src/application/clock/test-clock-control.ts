/**
 * Moves the sandbox test clock forward and lets the scheduler catch up in order: the clock stops
 * at each date some chain falls due within the move, the scheduler makes what is due, and only
 * then does the clock go on. So every automatic payment is made at its own due date, in order,
 * as if the time had really passed. `reset` puts it back on real time. Production refuses both.
 */
import { DomainError } from '../../domain/errors';
import {
  SANDBOX_CLOCK_EVENT_SCHEMA_VERSION,
  SANDBOX_CLOCK_STREAM,
  readSandboxClock,
  type SandboxClockAdvanced,
  type SandboxClockReset,
} from '../../domain/clock/sandbox-clock-events';
import { dueInstant } from '../../domain/schedule/chain-decide';
import { toNewEvent } from '../command-handler';
import type { Environment } from '../../domain/merchant/events';
import { ANY, type EventStore } from '../ports/event-store';
import type { Logger } from '../ports/logger';
import type { Scheduler, SchedulerRun } from '../schedules/scheduler';
import type { SandboxClock } from './sandbox-clock';

export interface TestClockControlOptions {
  store: EventStore;
  clock: SandboxClock;
  environment: Environment;
  logger: Logger;
  scheduler: Scheduler;
  /** The earliest due date after `date` of an open chain, once the read models include everything appended. */
  earliestDueDateAfter(date: string): Promise<string | null>;
  /** Real time, for the record of each move. */
  realNow?: () => Date;
}

export interface ClockAdvance extends SchedulerRun {
  from: string;
  to: string;
  offsetMs: number;
  /** Stops made at due dates on the way. */
  stops: number;
}

export interface ClockReset {
  from: string;
  to: string;
  /** How far ahead of real time the clock was. */
  previousOffsetMs: number;
}

export class TestClockUnavailableError extends DomainError {}

export class TestClockControl {
  private followed: bigint | null = null;
  private timer: NodeJS.Timeout | null = null;
  private advancing: Promise<unknown> | null = null;

  constructor(private readonly options: TestClockControlOptions) {}

  get available(): boolean {
    return this.options.environment === 'sandbox';
  }

  /** Picks up the latest recorded offset (another process may have moved the clock). */
  async sync(): Promise<void> {
    if (!this.available) return;
    const version = await this.options.store.streamVersion(SANDBOX_CLOCK_STREAM);
    if (version === null || version === this.followed) return;
    const events = await this.options.store.readStream(SANDBOX_CLOCK_STREAM);
    this.options.clock.follow(readSandboxClock(events));
    this.followed = version;
  }

  /** Follows moves made by other processes. */
  follow(intervalMs = 500): void {
    if (!this.available || this.timer) return;
    this.timer = setInterval(() => {
      this.sync().catch((error) => this.options.logger.error('test clock sync failed', { error: String(error) }));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async advance(byMs: number): Promise<ClockAdvance> {
    return this.exclusive(() => this.advanceNow(byMs));
  }

  /**
   * Puts the clock back on real time. Payments made at the moved dates keep their dates; a chain
   * pays its next date when real time reaches it, and a due date already claimed is never charged
   * again (claims are per due date).
   */
  async reset(): Promise<ClockReset> {
    return this.exclusive(async () => {
      const { clock, store } = this.options;
      await this.sync();
      const from = clock.now().toISOString();
      const previousOffsetMs = clock.offsetMs;
      // Already on real time: nothing to record, so asking twice is harmless.
      if (previousOffsetMs === 0) return { from, to: from, previousOffsetMs };
      const event: SandboxClockReset = {
        type: 'SandboxClockReset',
        data: { previousOffsetMs, at: this.realNow().toISOString() },
      };
      await store.append(SANDBOX_CLOCK_STREAM, [toNewEvent(event, SANDBOX_CLOCK_EVENT_SCHEMA_VERSION, {})], ANY);
      await this.sync();
      return { from, to: clock.now().toISOString(), previousOffsetMs };
    });
  }

  /** One move at a time: two overlapping moves would interleave their stops. */
  private async exclusive<T>(move: () => Promise<T>): Promise<T> {
    if (!this.available) {
      throw new TestClockUnavailableError('test_clock_unavailable', 'The test clock exists in the sandbox only.');
    }
    while (this.advancing) await this.advancing.catch(() => undefined);
    const run = move();
    this.advancing = run;
    try {
      return await run;
    } finally {
      this.advancing = null;
    }
  }

  private realNow(): Date {
    return this.options.realNow?.() ?? this.options.clock.real.now();
  }

  private async advanceNow(byMs: number): Promise<ClockAdvance> {
    const { clock, scheduler } = this.options;
    await this.sync();
    const from = clock.now();
    const target = from.getTime() + byMs;
    const total: ClockAdvance = { from: from.toISOString(), to: '', offsetMs: 0, stops: 0, charged: 0, skipped: 0, ended: 0 };
    const add = (run: SchedulerRun) => {
      total.charged += run.charged;
      total.skipped += run.skipped;
      total.ended += run.ended;
    };
    add(await scheduler.runDue());
    for (;;) {
      // Chains still due today were looked at by the run just made (some wait on an undecided
      // first payment): the next stop is the first later date. Each stop moves strictly forward.
      const next = await this.options.earliestDueDateAfter(clock.now().toISOString().slice(0, 10));
      if (next === null) break;
      const due = Date.parse(dueInstant(next));
      if (Number.isNaN(due) || due > target) break;
      await this.record(clock.offsetMs + (due - clock.now().getTime()));
      total.stops++;
      add(await scheduler.runDue());
    }
    if (clock.now().getTime() < target) await this.record(clock.offsetMs + (target - clock.now().getTime()));
    add(await scheduler.runDue());
    total.to = clock.now().toISOString();
    total.offsetMs = clock.offsetMs;
    return total;
  }

  private async record(offsetMs: number): Promise<void> {
    const { clock, store } = this.options;
    clock.moveTo(Math.ceil(offsetMs));
    const event: SandboxClockAdvanced = {
      type: 'SandboxClockAdvanced',
      data: { offsetMs: clock.offsetMs, to: clock.now().toISOString(), at: this.realNow().toISOString() },
    };
    const written = await store.append(SANDBOX_CLOCK_STREAM, [toNewEvent(event, SANDBOX_CLOCK_EVENT_SCHEMA_VERSION, {})], ANY);
    this.followed = written.nextExpectedVersion;
  }
}
