import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { saleCardHash } from '../../src/domain/signatures';
import { freePort, makeTempDir, removeTempDir, startServer, stopServer, type ServerChild } from './children';
import { BENCH_MERCHANT_PASSWORD } from './floor-events';

describe('bench: the group-commit floor', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: ServerChild | null = null;

  beforeEach(async function () {
    dataDir = makeTempDir('group-floor-test-');
    server = await startServer({ name: 'group-commit floor', script: 'test/bench/group-commit-floor-server.ts', env: { ...process.env, DATA_DIR: dataDir }, port: await freePort() });
  });

  afterEach(async function () {
    if (server) await stopServer(server);
    server = null;
    removeTempDir(dataDir);
  });

  function sale(orderId: string, hash: string): Promise<Response> {
    const form = new URLSearchParams({ action: 'SALE', order_id: orderId, payer_email: 'a@b.c', card_number: '4111111111111111', hash });
    return fetch(`${server!.baseUrl}/post`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }

  async function commits(): Promise<number> {
    return ((await (await fetch(`${server!.baseUrl}/health`)).json()) as { commits: number }).commits;
  }

  function storedTypes(): string[] {
    const db = new Database(path.join(dataDir, 'floor-events.db'), { readonly: true });
    try {
      return (db.prepare('SELECT type FROM events ORDER BY position').pluck().all() as string[]);
    } finally {
      db.close();
    }
  }

  it('Given SALEs sent at once with the right hash, when they are answered, then each one\'s three events are already stored', async function () {
    const hash = saleCardHash({ payerEmail: 'a@b.c', password: BENCH_MERCHANT_PASSWORD, cardNumber: '4111111111111111' });
    const answers = await Promise.all(['o-1', 'o-2', 'o-3'].map((id) => sale(id, hash)));
    for (const answer of answers) expect(((await answer.json()) as { result: string }).result).to.equal('SUCCESS');
    const types = storedTypes();
    expect(types).to.have.length(9);
    expect(types.filter((t) => t === 'PaymentSettled')).to.have.length(3);
  });

  it('Given a SALE with a wrong hash, when it is sent, then it is refused and nothing is stored', async function () {
    const answer = await sale('o-bad', 'WRONG');
    expect(((await answer.json()) as { result: string }).result).to.equal('ERROR');
    expect(storedTypes()).to.have.length(0);
  });

  it('Given an order id already used, when a SALE repeats it, then the unique (stream, version) refuses it and the first SALE\'s events stay alone', async function () {
    const hash = saleCardHash({ payerEmail: 'a@b.c', password: BENCH_MERCHANT_PASSWORD, cardNumber: '4111111111111111' });
    expect((await sale('o-same', hash)).status).to.equal(200);
    expect((await sale('o-same', hash)).status).to.equal(500);
    expect(storedTypes()).to.have.length(3);
  });

  it('Given the intent-first floor, when SALEs are answered, then each one\'s reservation and PaymentInitiated are stored before its PaymentSettled', async function () {
    await stopServer(server!);
    server = await startServer({ name: 'intent-first floor', script: 'test/bench/group-commit-floor-server.ts', env: { ...process.env, DATA_DIR: dataDir, FLOOR_INTENT_FIRST: '1' }, port: await freePort() });
    const hash = saleCardHash({ payerEmail: 'a@b.c', password: BENCH_MERCHANT_PASSWORD, cardNumber: '4111111111111111' });
    const answers = await Promise.all(['i-1', 'i-2'].map((id) => sale(id, hash)));
    for (const answer of answers) expect(((await answer.json()) as { result: string }).result).to.equal('SUCCESS');
    const types = storedTypes();
    expect([...types].sort()).to.deep.equal(['OrderIdReserved', 'OrderIdReserved', 'PaymentInitiated', 'PaymentInitiated', 'PaymentSettled', 'PaymentSettled']);
    expect(types.slice(0, 2)).to.deep.equal(['OrderIdReserved', 'PaymentInitiated']);
    const before = await commits();
    expect((await sale('i-3', hash)).status).to.equal(200);
    expect((await commits()) - before).to.equal(2);
  });

  it('Given the floor, when one SALE is answered, then its three events took one commit', async function () {
    const hash = saleCardHash({ payerEmail: 'a@b.c', password: BENCH_MERCHANT_PASSWORD, cardNumber: '4111111111111111' });
    const before = await commits();
    expect((await sale('c-1', hash)).status).to.equal(200);
    expect((await commits()) - before).to.equal(1);
  });
});
