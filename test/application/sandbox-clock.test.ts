/** The sandbox clock as every process follows it from the `sandbox-clock` stream. */
import { expect } from 'chai';
import { SandboxClock } from '../../src/application/clock/sandbox-clock';
import { readSandboxClock } from '../../src/domain/clock/sandbox-clock-events';

const DAY = 86_400_000;
const advanced = (offsetMs: number) => ({ type: 'SandboxClockAdvanced', data: { offsetMs, to: '', at: '' } });
const reset = (previousOffsetMs: number) => ({ type: 'SandboxClockReset', data: { previousOffsetMs, at: '' } });
const fixed = { now: () => new Date('2030-01-01T00:00:00Z') };

describe('sandbox clock', () => {
  it('Given moves and a reset recorded, when read, then the offset is the largest move since the reset', () => {
    expect(readSandboxClock([])).to.deep.equal({ offsetMs: 0, resets: 0 });
    expect(readSandboxClock([advanced(DAY), advanced(3 * DAY)])).to.deep.equal({ offsetMs: 3 * DAY, resets: 0 });
    expect(readSandboxClock([advanced(3 * DAY), reset(3 * DAY)])).to.deep.equal({ offsetMs: 0, resets: 1 });
    expect(readSandboxClock([advanced(3 * DAY), reset(3 * DAY), advanced(DAY)])).to.deep.equal({ offsetMs: DAY, resets: 1 });
  });

  it('Given a process that followed a move, when a reset is recorded, then it goes back to real time; an older reading never moves it back', () => {
    const clock = new SandboxClock(fixed);
    clock.follow(readSandboxClock([advanced(5 * DAY)]));
    expect(clock.now().toISOString()).to.equal('2030-01-06T00:00:00.000Z');

    // A stale reading of the same era does not move it back.
    clock.follow(readSandboxClock([advanced(DAY)]));
    expect(clock.offsetMs).to.equal(5 * DAY);

    clock.follow(readSandboxClock([advanced(5 * DAY), reset(5 * DAY)]));
    expect(clock.now().toISOString()).to.equal('2030-01-01T00:00:00.000Z');
    expect(clock.real.now().toISOString()).to.equal('2030-01-01T00:00:00.000Z');
  });
});
