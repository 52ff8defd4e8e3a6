/**
 * A thread started from the TypeScript sources runs the JavaScript compiled from them when dist/ is
 * current (the test run builds it first), and needs no loader then; otherwise it loads the sources.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { threadEntry } from '../../../src/adapters/os/module-thread';

const ROOT = path.resolve(__dirname, '../../..');

describe('Threads started from the sources', function () {
  it('Given dist/ built from the current sources, when a thread of a .ts module starts, then it loads the compiled twin without the TypeScript loader', function () {
    const source = path.join(ROOT, 'src/adapters/os/module-thread.ts');
    const entry = threadEntry(source);
    expect(entry).to.deep.equal({ file: path.join(ROOT, 'dist/src/adapters/os/module-thread.js'), needsLoader: false });
    expect(existsSync(entry.file)).to.equal(true);
  });

  it('Given a module outside src/ and projections/ (a test\'s own thread), then its thread loads it from the sources', function () {
    const testModule = path.join(ROOT, 'test/workers/fixtures/commit-signal-probe-thread.ts');
    expect(threadEntry(testModule)).to.deep.equal({ file: testModule, needsLoader: true });
  });

  it('Given a compiled module, then its thread loads it as it is', function () {
    const compiled = path.join(ROOT, 'dist/src/adapters/os/module-thread.js');
    expect(threadEntry(compiled)).to.deep.equal({ file: compiled, needsLoader: false });
  });
});
