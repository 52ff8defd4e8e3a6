'use strict';
// The spec reporter, plus the ten slowest test files, the skipped count and one plain closing line
// "N passed, N failed" that CI reads. A file's time is the sum of its tests' and hooks' durations, as
// measured where the file ran, so it reads the same whether the files run one after another or in
// parallel workers. TEST_FILE_TIMES=<file> also writes every file's time there, as JSON.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_TEST_END, EVENT_HOOK_END } = Mocha.Runner.constants;

const SLOWEST_SHOWN = 10;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const fileMs = new Map();
    const add = (runnable) => {
      if (!runnable || !runnable.file || typeof runnable.duration !== 'number') return;
      fileMs.set(runnable.file, (fileMs.get(runnable.file) ?? 0) + runnable.duration);
    };
    runner.on(EVENT_TEST_END, add);
    runner.on(EVENT_HOOK_END, add);
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      const byTime = [...fileMs].sort((a, b) => b[1] - a[1]);
      const slowest = byTime.slice(0, SLOWEST_SHOWN);
      if (process.env.TEST_FILE_TIMES) {
        const times = Object.fromEntries(byTime.map(([file, ms]) => [path.relative(process.cwd(), file), Math.round(ms)]));
        fs.writeFileSync(process.env.TEST_FILE_TIMES, `${JSON.stringify(times, null, 2)}\n`);
      }
      const lines = slowest.map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${path.relative(process.cwd(), file)}`);
      const table = lines.length ? `\nSlowest test files:\n${lines.join('\n')}\n` : '';
      process.stdout.write(`${table}\n${pending} skipped\n${passes} passed, ${failures} failed\n`);
    });
  }
}

module.exports = SummaryReporter;
