import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LeanHttpClient } from './lean-http-client';
import { runOpenLoop } from './open-loop';

/** A server answering each POST as `answer` says, counting the connections it was given. */
async function givenServer(answer: (body: string, res: http.ServerResponse) => void): Promise<{ url: URL; connections(): number; close(): Promise<void> }> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(Buffer.concat(chunks).toString('utf8'), res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/post`),
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('bench: the open-loop sender', function () {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });

  it('reads answers framed by Content-Length and chunked, and reuses a free connection', async function () {
    const server = await givenServer((body, res) => {
      if (body === 'chunked') {
        res.write('{"result":');
        res.end('"SUCCESS"}');
      } else res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(`{"echo":"${body}"}`) }).end(`{"echo":"${body}"}`);
    });
    close = server.close;
    const client = new LeanHttpClient(server.url, 'application/x-www-form-urlencoded');
    try {
      expect(await client.post('a=1&b=é')).to.deep.equal({ status: 201, body: '{"echo":"a=1&b=é"}' });
      expect(await client.post('chunked')).to.deep.equal({ status: 200, body: '{"result":"SUCCESS"}' });
      expect(await client.post('again')).to.deep.equal({ status: 201, body: '{"echo":"again"}' });
      expect(server.connections()).to.equal(1);
    } finally {
      client.close();
    }
  });

  it('opens another connection while one waits for its answer, and carries on after the server closes one', async function () {
    const server = await givenServer((body, res) => {
      const send = () => res.writeHead(200, body === 'close' ? { connection: 'close' } : {}).end(`{"body":"${body}"}`);
      if (body === 'slow') setTimeout(send, 50);
      else send();
    });
    close = server.close;
    const client = new LeanHttpClient(server.url, 'text/plain');
    try {
      const slow = client.post('slow');
      expect(await client.post('fast')).to.deep.equal({ status: 200, body: '{"body":"fast"}' });
      expect(await slow).to.deep.equal({ status: 200, body: '{"body":"slow"}' });
      expect(await client.post('close')).to.deep.equal({ status: 200, body: '{"body":"close"}' });
      // One free connection is left: two requests at once take it and a new one, never the closed one.
      const [first, second] = await Promise.all([client.post('first'), client.post('second')]);
      expect([first.body, second.body]).to.deep.equal(['{"body":"first"}', '{"body":"second"}']);
      expect(server.connections()).to.equal(3);
    } finally {
      client.close();
    }
  });

  it('counts an answer that is not a 2xx success as an error, and measures every request from its scheduled instant', async function () {
    let n = 0;
    const server = await givenServer((_body, res) => {
      n++;
      if (n % 5 === 0) res.writeHead(400).end('{"result":"ERROR"}');
      else setTimeout(() => res.end('{"result":"SUCCESS"}'), 20);
    });
    close = server.close;

    const summary = await runOpenLoop({ url: server.url.toString(), rate: 100, durationS: 0.5, nextBody: () => 'x=1' });

    expect(summary.sent).to.equal(50);
    expect(summary.errors).to.equal(10);
    expect(summary.completed).to.equal(40);
    // Every success waited its 20 ms at the server, counted from the instant it was due.
    expect(summary.latencyMs.p50).to.be.at.least(20);
    expect(summary.badSamples[0]).to.match(/^400 /);
  });
});
