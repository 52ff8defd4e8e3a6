'use strict';
// The spec reporter, plus the skipped count and one plain closing line "N passed, N failed" that CI reads.
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`\n${pending} skipped\n${passes} passed, ${failures} failed\n`);
    });
  }
}

module.exports = SummaryReporter;
