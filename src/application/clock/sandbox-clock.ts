/**
 * The gateway's clock in the sandbox: real time (or a test's clock) plus the offset of the sandbox
 * test clock. `TestClockControl` moves it and lets the scheduler catch up; every other process
 * follows the recorded offset by polling the `sandbox-clock` stream.
 */
import type { Clock } from '../ports/clock';

export class SandboxClock implements Clock {
  private offset = 0;

  constructor(private readonly base: Clock) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offset);
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** Only ever forward: a payment recorded at a later time must never see time run back. */
  moveTo(offsetMs: number): void {
    if (offsetMs > this.offset) this.offset = offsetMs;
  }
}
