/**
 * The HTTP sender: given a merchant endpoint, when a callback is posted, then the outcome is what a
 * delivery decision needs (status, latency, timeout), and in production it never calls inside.
 */
import { expect } from 'chai';
import { HttpCallbackSender } from '../../src/adapters/http/callback-sender';
import { CallbackReceiver } from '../support/callback-receiver';

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
});
