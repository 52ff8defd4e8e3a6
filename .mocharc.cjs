'use strict';
// `npm test` runs every suite; `npm test -- test/api/x.test.ts` (or `npx mocha <file|dir>`) runs only
// the files named. A spec list here would be added to the named files, not replaced by them.
//
// With TEST_JOBS=N (N > 1) the files run in N parallel worker processes, each file whole in one
// worker, so suites must not share ports, schemas, directories or files. A single file named always
// runs in this process, its output streamed as it goes.
const fs = require('node:fs');

const named = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && /^(\.\/)?test\//.test(arg) && fs.existsSync(arg));
const oneFile = named.length === 1 && fs.statSync(named[0]).isFile();
const jobs = Number(process.env.TEST_JOBS) || 1;

module.exports = {
  require: ['tsx/cjs', 'tsx/esm', 'test/support/setup.ts'],
  spec: named.length ? [] : ['test/**/*.test.ts'],
  extension: ['ts'],
  recursive: true,
  timeout: 20000,
  exit: true,
  parallel: jobs > 1 && !oneFile,
  jobs,
  reporter: './test/support/summary-reporter.js',
};
