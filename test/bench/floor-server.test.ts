import { expect } from 'chai';
import { freePort, makeTempDir, removeTempDir, startServer, stopServer, type ServerChild } from './children';

describe('bench: the durability floor with extra work per request', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: ServerChild | null = null;

  beforeEach(function () {
    dataDir = makeTempDir('floor-test-');
  });

  afterEach(async function () {
    if (server) await stopServer(server);
    server = null;
    removeTempDir(dataDir);
  });

  it('Given FLOOR_EXTRA_WORK_US, when a SALE is sent, then it is answered no sooner than that much later', async function () {
    server = await startServer({
      name: 'floor',
      script: 'test/bench/floor-server.ts',
      env: { ...process.env, DATA_DIR: dataDir, FLOOR_EXTRA_WORK_US: '300000' },
      port: await freePort(),
    });
    const health = await fetch(`${server.baseUrl}/health`);
    expect(health.status).to.equal(200);

    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/post`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=SALE&order_id=floor-test-1&payer_email=a%40b.c',
    });
    const elapsedMs = performance.now() - started;
    expect(response.status).to.equal(200);
    expect(((await response.json()) as { result: string }).result).to.equal('SUCCESS');
    // A lower bound only: however busy the machine, the busy wait cannot end sooner.
    expect(elapsedMs).to.be.at.least(300);
  });
});
