/**
 * Which thread is full: the gateway's threads name themselves, so `top -H` shows them and
 * `/metrics` counts each one's CPU time (`gateway_thread_cpu_seconds_total`).
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { nameThisThread, threadCpuSeconds } from '../../src/adapters/os/linux-threads';

const secondsOf = (thread: string) => threadCpuSeconds()?.find((t) => t.thread === thread)?.seconds;

describe('threads named and their CPU time read', function () {
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('Given a worker thread that names itself and spins for 300 ms of CPU, then its time is read under its name, and the main thread keeps the process\'s name', async () => {
    const module = resolve(__dirname, '../../src/adapters/os/linux-threads.ts');
    const worker = new Worker(
      `require('tsx/cjs');
      const { parentPort } = require('node:worker_threads');
      require(${JSON.stringify(module)}).nameThisThread('cpu-probe');
      const start = process.hrtime.bigint();
      let x = 0;
      while (process.hrtime.bigint() - start < 300_000_000n) x += Math.sqrt(x + 1);
      parentPort.postMessage(x);
      setTimeout(() => {}, 60_000);`,
      { eval: true },
    );
    try {
      await new Promise((done, fail) => {
        worker.once('message', done);
        worker.once('error', fail);
      });
      // The kernel keeps 15 bytes of the name: "gw-" and twelve of the role.
      expect(secondsOf('cpu-probe')).to.be.at.least(0.2);
      expect(secondsOf('main')).to.be.greaterThan(0);
      const processName = readFileSync('/proc/self/comm', 'utf8');
      expect(nameThisThread('main-renamed')).to.equal(false);
      expect(readFileSync('/proc/self/comm', 'utf8')).to.equal(processName);
    } finally {
      await worker.terminate();
    }
    expect(secondsOf('cpu-probe')).to.equal(undefined);
  });
});
