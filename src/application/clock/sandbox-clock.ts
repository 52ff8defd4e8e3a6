/**
 * The gateway's clock in the sandbox: real time (or a test's clock) plus the offset of the sandbox
 * test clock. `TestClockControl` moves it and lets the scheduler catch up; every other process
 * follows the recorded offset by polling the `sandbox-clock` stream.
 *
 * It moves business time only (payment dates, due dates, retries, timeouts). What is checked
 * against the merchant's own clock, such as the `t` of a callback's X-Signature, takes `real`.
 */
import type { Clock } from '../ports/clock';
import type { SandboxClockReading } from '../../domain/clock/sandbox-clock-events';

export class SandboxClock implements Clock {
  private offset = 0;
  private resets = 0;

  constructor(private readonly base: Clock) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offset);
  }

  /** The clock under the offset: real time (a test's clock in tests). */
  get real(): Clock {
    return this.base;
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** Only ever forward: a payment recorded at a later time must never see time run back. */
  moveTo(offsetMs: number): void {
    if (offsetMs > this.offset) this.offset = offsetMs;
  }

  /**
   * Follows the recorded clock. Within one era (between resets) only forward, as `moveTo`; a reset
   * recorded since the last reading starts a new era at the recorded offset, the one time the
   * clock goes back.
   */
  follow(reading: SandboxClockReading): void {
    if (reading.resets > this.resets) {
      this.resets = reading.resets;
      this.offset = reading.offsetMs;
      return;
    }
    if (reading.resets === this.resets) this.moveTo(reading.offsetMs);
  }
}
