/**
 * Which thread is full: the gateway's threads name themselves, so `top -H` shows them and
 * `/metrics` counts each one's CPU time (`gateway_thread_cpu_seconds_total`).
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { cpuByThreadName, nameThisThread, threadCpuSeconds } from '../../src/adapters/os/linux-threads';
import { loadConfig } from '../../src/config';
import { runGateway, type RunningGateway } from '../../src/server';
import { settledSaleOver } from '../support/running-gateway-sale';

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
      // 300 ms of this thread's own CPU time, not of the clock: on a busy machine the clock runs
      // ahead of the CPU a thread gets.
      const { readFileSync } = require('node:fs');
      const cpuTicks = () => readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ').slice(11, 13).reduce((n, t) => n + Number(t), 0);
      let x = 0;
      while (cpuTicks() < 30) for (let i = 0; i < 100000; i++) x += Math.sqrt(x + 1);
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

  it('Given the stat lines of a process\'s threads, then their user and system time summed by name, in the kernel\'s hundredths of a second', function () {
    // pid 100: the main thread; two threads of ours, one named "gw-a (b)" with a space and parentheses; three of the runtime.
    const stat = (tid: number, name: string, utime: number, stime: number) =>
      `${tid} (${name}) S 1 100 100 0 -1 4194560 1 0 0 0 ${utime} ${stime} 0 0 20 0 9 0 1 1 1`;
    const threads = cpuByThreadName(100, [
      { tid: 100, stat: stat(100, 'node', 120, 7) },
      { tid: 101, stat: stat(101, 'gw-writer', 30, 25) },
      { tid: 102, stat: stat(102, 'gw-a (b)', 1, 0) },
      { tid: 103, stat: stat(103, 'node', 40, 7) },
      { tid: 104, stat: stat(104, 'V8 DefaultWorke', 51, 10) },
      { tid: 105, stat: stat(105, 'libuv-worker', 30, 5) },
    ]);
    expect(threads).to.have.deep.members([
      { thread: 'main', seconds: 1.27 },
      { thread: 'writer', seconds: 0.55 },
      { thread: 'a (b)', seconds: 0.01 },
      // 0.47 + 0.61 + 0.35 in floating point would read 1.4300000000000002.
      { thread: 'runtime', seconds: 1.43 },
    ]);
  });
});

describe('thread CPU in the metrics of a gateway as npm start runs it', function () {
  this.timeout(60_000);
  let dataDir = '';
  let running: RunningGateway | undefined;

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    dataDir = mkdtempSync(join(tmpdir(), 'thread-cpu-'));
    running = await runGateway(loadConfig({ DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite' }), 'all');
  });

  after(async () => {
    await running?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given SALEs answered, then /metrics counts CPU time for the HTTP thread, the writer, the projector, the notifier and the workers', async () => {
    for (let i = 0; i < 20; i++) await settledSaleOver(running!, `thread-cpu-${i}`);
    const res = await fetch(`${running!.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${running!.gateway.adminToken}` } });
    expect(res.status).to.equal(200);
    const text = await res.text();
    const seconds = (thread: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`gateway_thread_cpu_seconds_total{thread="${thread}"}`));
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };
    for (const thread of ['main', 'writer', 'projector', 'notifier', 'workers', 'runtime']) {
      expect(seconds(thread), thread).to.be.a('number');
    }
    expect(seconds('main')).to.be.greaterThan(0);
  });
});
