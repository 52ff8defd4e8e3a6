'use strict';
// `npm test` runs every suite; `npm test -- test/api/x.test.ts` (or `npx mocha <file|dir>`) runs only
// the files named. A spec list here would be added to the named files, not replaced by them.
//
// The files run in TEST_JOBS parallel worker processes (default 2; TEST_JOBS=1: one after another), each file whole in one
// worker, so suites must not share ports, schemas, directories or files. A single file named always
// runs in this process, its output streamed as it goes.
const fs = require('node:fs');

const named = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && /^(\.\/)?test\//.test(arg) && fs.existsSync(arg));
const oneFile = named.length === 1 && fs.statSync(named[0]).isFile();
// Two workers by default: on a 2-core machine the whole suite takes five to ten minutes that way;
// four workers ran slower than two.
const jobs = Number(process.env.TEST_JOBS) || 2;

module.exports = {
  require: ['tsx/cjs', 'tsx/esm', 'test/support/setup.ts'],
  spec: named.length ? [] : ['test/**/*.test.ts'],
  // A folder named on the command line contributes its test files only, not the modules beside them
  // (a bench server started as a suite would write its store into the working directory).
  extension: ['test.ts'],
  recursive: true,
  timeout: 20000,
  exit: true,
  parallel: jobs > 1 && !oneFile,
  jobs,
  reporter: './test/support/summary-reporter.js',
};
