/** Schedules and their automatic payments, and the sandbox's test clock that moves them ahead. */
import { TestClockControl } from '../application/clock/test-clock-control';
import type { PaymentService } from '../application/payments';
import { ScheduleService } from '../application/schedules/schedule-service';
import { Scheduler } from '../application/schedules/scheduler';
import type { Clocks } from './clocks';
import type { Core } from './core';

export interface Schedules {
  schedules: ScheduleService;
  /** Makes the automatic payments of schedules; started by the roles that schedule. */
  scheduler: Scheduler;
  testClock: TestClockControl;
}

export async function wireSchedules({ config, store, clock, logger, readModels }: Core, clocks: Clocks, payments: PaymentService): Promise<Schedules> {
  const schedules = new ScheduleService({ store, clock, chains: readModels });
  const scheduler = new Scheduler({ store, payments, clock, logger, due: readModels });
  const testClock = new TestClockControl({
    store,
    clock: clocks.sandboxClock,
    environment: config.environment,
    logger,
    scheduler,
    async earliestDueDateAfter(date) {
      await readModels.catchUpToHead(10_000);
      return readModels.earliestDueDateAfter(date);
    },
  });
  // Start where the sandbox's clock was last moved to, by whichever process moved it.
  await testClock.sync();
  return { schedules, scheduler, testClock };
}
