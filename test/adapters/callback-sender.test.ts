/**
 * The HTTP sender: given a merchant endpoint, when a callback is posted, then the outcome is what a
 * delivery decision needs (status, latency, timeout), and in production it never calls inside.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { HttpCallbackSender } from '../../src/adapters/http/callback-sender';
import { CallbackReceiver } from '../support/callback-receiver';

/** An endpoint that counts every connection made to it, whether or not a request follows. */
async function countingServer(host: string, port = 0, serverOptions?: https.ServerOptions) {
  const hits: Array<{ host: string | undefined; servername?: string | false | null }> = [];
  let connections = 0;
  const handler: http.RequestListener = (req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push({ host: req.headers.host, servername: (req.socket as TLSSocket).servername });
      res.end('ok');
    });
  };
  const server = serverOptions ? https.createServer(serverOptions, handler) : http.createServer(handler);
  server.on(serverOptions ? 'secureConnection' : 'connection', () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    get connections() {
      return connections;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A resolver whose answer changes from call to call, as a rebinding DNS server's does. */
function scriptedResolver(...answers: string[][]) {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    return answers[Math.min(asked.length, answers.length) - 1];
  };
  return { resolve, asked };
}

describe('HTTP callback sender', () => {
  let receiver: CallbackReceiver;
  beforeEach(async () => {
    receiver = await new CallbackReceiver().start();
  });
  afterEach(async () => {
    await receiver.stop();
  });

  const request = (url: string, timeoutMs = 1000) => ({
    url,
    contentType: 'application/x-www-form-urlencoded',
    body: 'a=1&b=2',
    headers: { 'X-Delivery-Id': 'd-1' },
    timeoutMs,
  });

  it('posts the exact body with its headers and reports the status', async () => {
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: true });
    try {
      receiver.script.push(302);
      const redirected = await sender.send(request(receiver.url));
      expect(redirected).to.include({ statusCode: 302, timedOut: false, error: null });
      const ok = await sender.send(request(receiver.url));
      expect(ok).to.include({ statusCode: 200, timedOut: false });
      expect(ok.latencyMs).to.be.a('number');
      expect(receiver.received).to.have.length(2);
      expect(receiver.received[1].body).to.equal('a=1&b=2');
      expect(receiver.received[1].headers['x-delivery-id']).to.equal('d-1');
      expect(receiver.received[1].headers['content-type']).to.equal('application/x-www-form-urlencoded');
    } finally {
      sender.close();
    }
  });

  it('gives up after the timeout', async () => {
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: true });
    try {
      receiver.script.push('hang');
      const outcome = await sender.send(request(receiver.url, 150));
      expect(outcome).to.include({ statusCode: null, timedOut: true });
      expect(outcome.latencyMs).to.be.within(140, 1000);
    } finally {
      sender.close();
    }
  });

  it('in production refuses loopback, by address and by name', async () => {
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: false });
    try {
      const byAddress = await sender.send(request(receiver.url));
      expect(byAddress).to.include({ statusCode: null, error: 'non-public address refused' });
      const byName = await sender.send(request(receiver.url.replace('127.0.0.1', 'localhost')));
      expect(byName.statusCode).to.equal(null);
      expect(byName.error).to.match(/non-public/);
      expect(receiver.received).to.have.length(0);
    } finally {
      sender.close();
    }
  });

  it('in production refuses every spelling of loopback and the metadata service without connecting', async () => {
    const server = await countingServer('127.0.0.1');
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: false });
    try {
      const urls = [
        `http://[::ffff:127.0.0.1]:${server.port}/`,
        `http://[0:0:0:0:0:ffff:7f00:1]:${server.port}/`,
        `http://[::127.0.0.1]:${server.port}/`,
        'http://[::ffff:169.254.169.254]/',
        'http://[64:ff9b::a9fe:a9fe]/',
      ];
      for (const url of urls) {
        const outcome = await sender.send(request(url, 300));
        expect(outcome, url).to.include({ statusCode: null, error: 'non-public address refused', timedOut: false });
      }
      expect(server.connections).to.equal(0);
    } finally {
      sender.close();
      await server.stop();
    }
  });

  it('in production refuses a name when any of its addresses is non-public, after one lookup and without connecting', async () => {
    const server = await countingServer('127.0.0.1');
    const { resolve, asked } = scriptedResolver(['93.184.216.34', '127.0.0.1'], ['::ffff:7f00:1']);
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: false, resolve });
    try {
      const mixed = await sender.send(request(`http://shop.invalid:${server.port}/cb`, 300));
      expect(mixed).to.include({ statusCode: null, error: 'non-public address refused' });
      const mapped = await sender.send(request(`http://shop.invalid:${server.port}/cb`, 300));
      expect(mapped).to.include({ statusCode: null, error: 'non-public address refused' });
      expect(asked).to.deep.equal(['shop.invalid', 'shop.invalid']);
      expect(server.connections).to.equal(0);
    } finally {
      sender.close();
      await server.stop();
    }
  });

  it('connects to the address its one lookup returned, and a kept-alive connection never carries a request for another answer', async () => {
    const first = await countingServer('127.0.0.1');
    const second = await countingServer('127.0.0.2', first.port);
    // `.invalid` never resolves: a lookup of its own by the HTTP client would fail the request.
    const { resolve, asked } = scriptedResolver(['127.0.0.1'], ['127.0.0.2'], ['127.0.0.1']);
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: true, resolve });
    try {
      const url = `http://merchant.invalid:${first.port}/cb`;
      for (let i = 0; i < 3; i++) expect(await sender.send(request(url)), `attempt ${i + 1}`).to.include({ statusCode: 200, error: null });
      expect(asked).to.deep.equal(['merchant.invalid', 'merchant.invalid', 'merchant.invalid']);
      expect(first.hits.map((h) => h.host)).to.deep.equal([`merchant.invalid:${first.port}`, `merchant.invalid:${first.port}`]);
      expect(second.hits.map((h) => h.host)).to.deep.equal([`merchant.invalid:${first.port}`]);
      expect(first.connections, 'the kept-alive connection served the third attempt').to.equal(1);
    } finally {
      sender.close();
      await first.stop();
      await second.stop();
    }
  });

  it('tries the next checked address when one refuses the connection', async () => {
    const server = await countingServer('127.0.0.1');
    const { resolve } = scriptedResolver(['127.0.0.3', '127.0.0.1']);
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: true, resolve });
    try {
      const outcome = await sender.send(request(`http://merchant.invalid:${server.port}/cb`));
      expect(outcome).to.include({ statusCode: 200, error: null });
      expect(server.hits).to.have.length(1);
    } finally {
      sender.close();
      await server.stop();
    }
  });

  it('over HTTPS connects to the checked address but names the host for SNI and the certificate check', async () => {
    // A self-signed certificate for merchant.invalid (openssl req -x509, valid for a century).
    const fixtures = path.join(__dirname, '../fixtures/tls');
    const cert = readFileSync(path.join(fixtures, 'merchant-invalid.crt'));
    const server = await countingServer('127.0.0.1', 0, { cert, key: readFileSync(path.join(fixtures, 'merchant-invalid.key')) });
    const { resolve } = scriptedResolver(['127.0.0.1']);
    const sender = new HttpCallbackSender({ allowNonPublicAddresses: true, resolve, ca: cert });
    try {
      const ok = await sender.send(request(`https://merchant.invalid:${server.port}/cb`));
      expect(ok).to.include({ statusCode: 200, error: null });
      expect(server.hits).to.deep.equal([{ host: `merchant.invalid:${server.port}`, servername: 'merchant.invalid' }]);
      const otherName = await sender.send(request(`https://other.invalid:${server.port}/cb`));
      expect(otherName.statusCode).to.equal(null);
      expect(otherName.error).to.match(/ERR_TLS_CERT_ALTNAME_INVALID/);
      expect(server.hits).to.have.length(1);
    } finally {
      sender.close();
      await server.stop();
    }
  });
});
