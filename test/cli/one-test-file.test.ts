/**
 * `npm test -- <file>` runs that file and nothing else, and every run ends with the plain line CI
 * reads. A newcomer's first try at running one test must not start the whole suite.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

describe('npm test -- <one file>', () => {
  it('runs only the file named and ends with "N passed, N failed"', () => {
    const run = spawnSync('npm', ['test', '--silent', '--', 'test/fixtures/one-test-file/sample.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CI: '' },
      timeout: 60_000,
    });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1), run.stderr).to.equal('1 passed, 1 failed');
    expect(lines.at(-2)).to.equal('0 skipped');
    expect(run.stdout).to.include('a single test file run alone');
    // mocha exits with the number of failures
    expect(run.status).to.equal(1);
  });
});
