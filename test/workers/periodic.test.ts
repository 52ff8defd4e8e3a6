/**
 * The periodic helper every background loop runs on (scheduler, payer-action expiry, reconciler,
 * audit checkpoints, payout balances): timed passes that never overlap, failures logged with a
 * growing pause, a stop that waits for the pass in progress, a timer that keeps the process alive
 * only when asked, and passes woken by the writer's commits for a task that follows the log.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import sinon from 'sinon';
import { CommitSignal } from '../../src/adapters/event-store/commit-signal';
import { startPeriodic, type Periodic, type PeriodicOptions } from '../../src/application/periodic';
import type { Logger } from '../../src/application/ports/logger';

interface Logged {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

function recordingLogger(): Logger & { lines: Logged[] } {
  const lines: Logged[] = [];
  return {
    lines,
    info: (message, fields) => void lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => void lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => void lines.push({ level: 'error', message, fields }),
  };
}

/** A promise with its resolve function, to hold a pass open. */
function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('periodic worker helper', function () {
  let clock: sinon.SinonFakeTimers;
  let workers: Periodic[];
  const start = (options: Omit<PeriodicOptions, 'logger' | 'keepsProcessAlive' | 'name'> & Partial<PeriodicOptions>) => {
    const worker = startPeriodic({ name: 'test task', logger: recordingLogger(), keepsProcessAlive: false, ...options });
    workers.push(worker);
    return worker;
  };

  beforeEach(function () {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    workers = [];
  });

  afterEach(async function () {
    // A pass may still be waiting on a fake timer: let them run out, then let the stops finish.
    const stops = Promise.all(workers.map((worker) => worker.stop()));
    await clock.runAllAsync();
    await stops;
    clock.restore();
  });

  it('Given a 1 s interval, when time passes, then one pass starts per second and none before the first second', async function () {
    const starts: number[] = [];
    start({ intervalMs: 1_000, run: async () => void starts.push(Date.now()) });

    await clock.tickAsync(999);
    expect(starts).to.deep.equal([]);
    await clock.tickAsync(1);
    await clock.tickAsync(2_000);
    expect(starts).to.deep.equal([1_000, 2_000, 3_000]);
  });

  it('Given a pass slower than the interval, then the next pass starts an interval after it ends, never beside it', async function () {
    let running = 0;
    let mostAtOnce = 0;
    const starts: number[] = [];
    start({
      intervalMs: 1_000,
      run: async () => {
        starts.push(Date.now());
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        running--;
      },
    });

    await clock.tickAsync(10_000);
    expect(mostAtOnce).to.equal(1);
    expect(starts).to.deep.equal([1_000, 4_500, 8_000]);
  });

  it('Given runOnce during a pass, then it joins that pass instead of starting another', async function () {
    const hold = deferred();
    let passes = 0;
    const worker = start({
      intervalMs: 1_000,
      run: async () => {
        passes++;
        await hold.promise;
      },
    });
    const first = worker.runOnce();
    const second = worker.runOnce();
    expect(second).to.equal(first);
    hold.resolve();
    await first;
    expect(passes).to.equal(1);
  });

  it('Given passes that fail, then each failure is logged and the pause doubles up to the maximum, and drops back to the interval after a success', async function () {
    const logger = recordingLogger();
    const starts: number[] = [];
    let failing = true;
    start({
      name: 'reconciler',
      logger,
      intervalMs: 1_000,
      maxBackoffMs: 5_000,
      run: async () => {
        starts.push(Date.now());
        if (failing) throw new Error('database unreachable');
      },
    });

    // Passes at 1 s, then after pauses of 2, 4, 5 (the maximum) and 5 seconds.
    await clock.tickAsync(17_000);
    expect(starts).to.deep.equal([1_000, 3_000, 7_000, 12_000, 17_000]);
    expect(logger.lines.map((l) => [l.level, l.message, l.fields?.error, l.fields?.retryInMs])).to.deep.equal([
      ['error', 'reconciler failed', 'Error: database unreachable', 2_000],
      ['error', 'reconciler failed', 'Error: database unreachable', 4_000],
      ['error', 'reconciler failed', 'Error: database unreachable', 5_000],
      ['error', 'reconciler failed', 'Error: database unreachable', 5_000],
      ['error', 'reconciler failed', 'Error: database unreachable', 5_000],
    ]);

    failing = false;
    await clock.tickAsync(5_000 + 2_000);
    expect(starts.slice(5)).to.deep.equal([22_000, 23_000, 24_000]);
  });

  it('Given a pass in progress, when stopped, then stop resolves only once the pass has finished, and no pass starts after it', async function () {
    const hold = deferred();
    let passes = 0;
    let finished = false;
    const worker = start({
      intervalMs: 1_000,
      run: async () => {
        passes++;
        await hold.promise;
        finished = true;
      },
    });
    await clock.tickAsync(1_000);
    expect(passes).to.equal(1);

    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await clock.tickAsync(0);
    expect(stopped, 'stop waits for the pass in progress').to.equal(false);
    hold.resolve();
    await stopping;
    expect(finished).to.equal(true);

    await clock.tickAsync(10_000);
    expect(passes).to.equal(1);
  });

  it('Given a pass working through a backlog, when stopped, then the pass is told to end (its signal aborted) and stop resolves once it has', async function () {
    const signals: AbortSignal[] = [];
    let steps = 0;
    const worker = start({
      intervalMs: 1_000,
      run: async (signal) => {
        signals.push(signal);
        // A backlog of a thousand steps, one per turn, checking the signal between them.
        while (steps < 1_000 && !signal.aborted) {
          steps++;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      },
    });
    await clock.tickAsync(1_000);
    expect(signals).to.have.length(1);
    expect(signals[0]!.aborted).to.equal(false);

    await worker.stop();
    expect(signals[0]!.aborted).to.equal(true);
    expect(steps, 'steps taken before the pass ended').to.be.below(1_000);
  });

  it('Given keepsProcessAlive, then its timer holds the process; otherwise its timer does not', async function () {
    const timers = sinon.spy(globalThis, 'setTimeout');
    try {
      start({ intervalMs: 1_000, keepsProcessAlive: true, run: async () => undefined });
      start({ intervalMs: 1_000, keepsProcessAlive: false, run: async () => undefined });
      const [kept, unrefd] = timers.returnValues as unknown as NodeJS.Timeout[];
      expect(kept.hasRef()).to.equal(true);
      expect(unrefd.hasRef()).to.equal(false);
      // Also the timers set for later passes.
      await clock.tickAsync(1_000);
      const later = timers.returnValues.slice(2) as unknown as NodeJS.Timeout[];
      expect(later.map((t) => t.hasRef())).to.have.members([true, false]);
    } finally {
      timers.restore();
    }
  });
});

describe('periodic worker helper in a process of its own', function () {
  this.timeout(60_000);
  const ROOT = path.resolve(__dirname, '../..');

  /** A node process whose only work is one periodic task printing `pass` on each pass. */
  function processWith(keepsProcessAlive: boolean) {
    const script = `
      const { startPeriodic } = require('./src/application/periodic');
      const quiet = { info() {}, warn() {}, error() {} };
      startPeriodic({ name: 'only work', intervalMs: 20, logger: quiet, keepsProcessAlive: ${keepsProcessAlive},
        run: async () => { process.stdout.write('pass\\n'); } });
      process.stdout.write('started\\n');`;
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, passes: () => output.split('\n').filter((l) => l === 'pass').length, started: () => output.includes('started') };
  }

  it('Given a task that keeps the process alive as its only work, then the process goes on making passes until it is stopped', async function () {
    const run = processWith(true);
    try {
      while (run.passes() < 3 && run.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(run.child.exitCode, 'the process is still running').to.equal(null);
      expect(run.passes()).to.be.at.least(3);
    } finally {
      run.child.kill();
      await run.exited;
    }
  });

  it('Given a task that does not keep the process alive, then a process with nothing else to do exits by itself', async function () {
    const run = processWith(false);
    const code = await run.exited;
    expect(run.started()).to.equal(true);
    expect(code).to.equal(0);
  });
});

describe('periodic worker helper woken by the event store writer\'s commits', function () {
  this.timeout(20_000);
  let workers: Periodic[];
  const ONE_MINUTE = 60_000;
  const start = (options: Omit<PeriodicOptions, 'logger' | 'keepsProcessAlive' | 'name'>) => {
    const worker = startPeriodic({ name: 'woken task', logger: recordingLogger(), keepsProcessAlive: false, ...options });
    workers.push(worker);
    return worker;
  };
  /** A task that would wait a minute between passes, woken by its own writer's commits. */
  const startWoken = (settleMs: number, run: () => Promise<void>) => {
    const commits = CommitSignal.create();
    return { commits, worker: start({ intervalMs: ONE_MINUTE, wakeOn: { signal: commits, settleMs }, run }) };
  };
  const until = async (what: string, done: () => boolean, withinMs = 5_000) => {
    const deadline = Date.now() + withinMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  beforeEach(() => (workers = []));
  afterEach(async () => void (await Promise.all(workers.map((worker) => worker.stop()))));

  it('Given a one-minute interval, when the writer commits, then the next pass starts after the settling time, not at the end of the minute', async function () {
    const starts: number[] = [];
    const { commits } = startWoken(50, async () => void starts.push(performance.now()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(starts, 'no pass before a commit').to.have.length(0);

    const committedAt = performance.now();
    commits.committed();
    await until('a pass after the commit', () => starts.length === 1);
    expect(starts[0]! - committedAt, 'waited the settling time').to.be.at.least(45);

    commits.committed();
    await until('a pass after the second commit', () => starts.length === 2);
  });

  it('Given a commit while a pass runs, then another pass follows it, since the running one may have read before it', async function () {
    const held = deferred();
    let passes = 0;
    const { commits, worker } = startWoken(10, async () => {
      passes++;
      if (passes === 1) await held.promise;
    });
    void worker.runOnce();
    await until('the first pass runs', () => passes === 1);
    commits.committed();
    held.resolve();
    await until('a second pass', () => passes === 2);
  });

  it('Given a pass that failed, then commits do not hurry the next one: the backoff decides', async function () {
    let passes = 0;
    const { commits, worker } = startWoken(10, async () => {
      passes++;
      throw new Error('store down');
    });
    await worker.runOnce();
    commits.committed();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(passes).to.equal(1);
  });
});
