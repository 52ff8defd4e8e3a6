/**
 * "Unreachable" notification URLs (spec Errors rule 4): a TCP connect to the URL's port, on top of
 * the lookup. Refused when every address tried turns the connection away; accepted as soon as one
 * takes it, and when it cannot be told in time. Cached like the lookup.
 */
import { expect } from 'chai';
import net from 'node:net';
import { NotificationUrlCheck, UNREACHABLE } from '../../src/application/callbacks/notification-url-check';
import type { ConnectProbe } from '../../src/application/ports/host-lookups';
import { tcpProbe } from '../../src/adapters/http/tcp-probe';

function checker(answers: Record<string, 'open' | 'refused' | 'unknown'>, hosts: Record<string, string[]> = {}, now = () => 0) {
  const probes: string[] = [];
  const probe: ConnectProbe = async (address, port) => {
    probes.push(`${address}:${port}`);
    return answers[`${address}:${port}`] ?? 'unknown';
  };
  const check = new NotificationUrlCheck({ allowNonPublicAddresses: true, resolve: async (host) => hosts[host] ?? [], probe, now });
  return { check, probes };
}

describe('notification URL check: reachability', () => {
  it('refuses a URL whose host refuses the connection, on the URL\'s port', async () => {
    const { check, probes } = checker({ '127.0.0.1:1': 'refused' });
    expect(await check.problem('http://127.0.0.1:1/cb')).to.equal(UNREACHABLE);
    expect(probes).to.deep.equal(['127.0.0.1:1']);
  });

  it('accepts one whose host takes the connection; the default port follows the scheme', async () => {
    const { check, probes } = checker({ '93.184.216.34:443': 'open', '93.184.216.34:80': 'open' }, { 'shop.example': ['93.184.216.34'] });
    expect(await check.problem('https://shop.example/cb')).to.equal(null);
    expect(await check.problem('http://shop.example/cb')).to.equal(null);
    expect(probes).to.deep.equal(['93.184.216.34:443', '93.184.216.34:80']);
  });

  it('is reachable when any of the host\'s addresses takes it, unreachable only when all refuse', async () => {
    const some = checker({ '10.0.0.1:8080': 'refused', '10.0.0.2:8080': 'open' }, { 'two.example': ['10.0.0.1', '10.0.0.2'] });
    expect(await some.check.problem('http://two.example:8080/cb')).to.equal(null);
    const none = checker({ '10.0.0.1:8080': 'refused', '10.0.0.2:8080': 'refused' }, { 'two.example': ['10.0.0.1', '10.0.0.2'] });
    expect(await none.check.problem('http://two.example:8080/cb')).to.equal(UNREACHABLE);
  });

  it('accepts a URL whose connect could not be told in time, and asks again next time', async () => {
    const { check, probes } = checker({ '127.0.0.1:9999': 'unknown' });
    expect(await check.problem('http://127.0.0.1:9999/cb')).to.equal(null);
    expect(await check.problem('http://127.0.0.1:9999/cb')).to.equal(null);
    expect(probes).to.have.length(2);
  });

  it('remembers a verdict: a refusal for a minute, a connection for ten', async () => {
    let clock = 0;
    const { check, probes } = checker({ '127.0.0.1:1': 'refused', '127.0.0.1:2': 'open' }, {}, () => clock);
    await check.problem('http://127.0.0.1:1/a');
    await check.problem('http://127.0.0.1:1/b');
    await check.problem('http://127.0.0.1:2/a');
    expect(probes).to.deep.equal(['127.0.0.1:1', '127.0.0.1:2']);
    clock += 61_000;
    await check.problem('http://127.0.0.1:1/a');
    await check.problem('http://127.0.0.1:2/a');
    expect(probes).to.deep.equal(['127.0.0.1:1', '127.0.0.1:2', '127.0.0.1:1']);
  });

  it('does not connect for a merchant\'s default URL, which is judged by where it points only', async () => {
    const { check, probes } = checker({ '127.0.0.1:1': 'refused' });
    expect(await check.destinationProblem('http://127.0.0.1:1/cb')).to.equal(null);
    expect(probes).to.deep.equal([]);
  });

  describe('the TCP probe', () => {
    it('says open for a listening port and refused for a closed one', async () => {
      const server = net.createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const open = (server.address() as net.AddressInfo).port;
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const gone = (closed.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      try {
        expect(await tcpProbe('127.0.0.1', open, 5000)).to.equal('open');
        expect(await tcpProbe('127.0.0.1', gone, 5000)).to.equal('refused');
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  });
});
