/**
 * Background threads yield the CPU to the threads requests wait on: the projector lowers its own
 * priority, and only its own.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import path from 'node:path';

const tidOfThisThread = () => Number(fs.readlinkSync('/proc/thread-self').split('/').pop());

describe('lowering a thread\'s scheduling priority', function () {
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('Given a worker thread that lowers its priority by 10, then that thread runs 10 nicer and the thread that started it does not', async () => {
    const module = path.resolve(__dirname, '../../src/workers/thread-priority.ts');
    const source = `
      require('tsx/cjs');
      const fs = require('node:fs'); const os = require('node:os');
      const { parentPort } = require('node:worker_threads');
      const { lowerThisThreadPriority } = require(${JSON.stringify(module)});
      const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
      const before = os.getPriority(tid);
      const applied = lowerThisThreadPriority(10);
      parentPort.postMessage({ tid, before, after: os.getPriority(tid), applied });`;
    const mainBefore = os.getPriority(tidOfThisThread());
    const worker = new Worker(source, { eval: true });
    const seen = await new Promise<{ tid: number; before: number; after: number; applied: boolean }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(seen.applied).to.equal(true);
    expect(seen.after).to.equal(Math.min(19, seen.before + 10));
    expect(seen.tid).to.not.equal(tidOfThisThread());
    expect(os.getPriority(tidOfThisThread())).to.equal(mainBefore);
    expect(os.getPriority(process.pid)).to.equal(mainBefore);
  });
});
