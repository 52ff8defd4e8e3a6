'use strict';
// `npm test` runs every suite; `npm test -- test/api/x.test.ts` (or `npx mocha <file|dir>`) runs only
// the files named. A spec list here would be added to the named files, not replaced by them.
const fs = require('node:fs');

const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /^(\.\/)?test\//.test(arg) && fs.existsSync(arg));

module.exports = {
  require: ['tsx/cjs', 'tsx/esm', 'test/support/setup.ts'],
  spec: named ? [] : ['test/**/*.test.ts'],
  extension: ['ts'],
  recursive: true,
  timeout: 20000,
  exit: true,
  reporter: './test/support/summary-reporter.js',
};
