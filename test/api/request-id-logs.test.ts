/**
 * An operator follows a request through the logs by its id: the lines the gateway writes about a
 * request's work name it (`requestId`, the `X-Request-Id` the client sent or the one the gateway
 * gave), wherever in the gateway they are written, and two requests at once never swap theirs.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { SandboxConnector } from '../../src/adapters/connectors/sandbox/connector';
import type { Connector } from '../../src/application/ports/connector';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

type Line = Record<string, unknown>;

/** The sandbox, except that an authorization from this payer's e-mail address breaks on the wire. */
function breakingFor(payerEmail: string): Connector {
  const sandbox = new SandboxConnector({ secret: randomBytes(32), simulatorBaseUrl: 'http://127.0.0.1:1' });
  return Object.assign(Object.create(sandbox) as Connector, {
    authorize: async (request: Parameters<Connector['authorize']>[0]) => {
      // A moment's wait, so that the other request of a pair is under way meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (request.payerEmail === payerEmail) throw new Error('socket hang up');
      return sandbox.authorize(request);
    },
  });
}

describe('Request ids in the operator\'s log lines', function () {
  let t: TestGateway;
  const lines = (): Line[] => t.logLines.map((line) => JSON.parse(line) as Line);

  before(async () => {
    t = await startTestGateway({
      kind: 'sqlite',
      captureLogs: true,
      connectors: [breakingFor('broken@example.com')],
      env: { TRUST_PROXY: 'true', AUTH_FAILURE_IP_LIMIT: '2', AUTH_FAILURE_WINDOW: '1h' },
    });
  });
  after(() => t?.stop());

  it('Given two SALEs at once, one of which breaks at the acquirer, then the failure\'s line names the request that met it', async () => {
    const merchant = await t.createMerchant();
    const post = (requestId: string, payerEmail: string) =>
      t.request('/post', {
        method: 'POST',
        headers: { 'X-Request-Id': requestId },
        body: new URLSearchParams(t.saleFields(merchant, { payer_email: payerEmail }) as Record<string, string>),
      });
    const [broken, fine] = await Promise.all([post('sale-broken', 'broken@example.com'), post('sale-fine', 'fine@example.com')]);
    expect(fine.body, fine.text).to.include({ status: 'SETTLED' });
    expect(broken.body, broken.text).to.include({ result: 'ACCEPTED', status: 'PENDING' });

    const failures = lines().filter((l) => l.message === 'connector call failed');
    expect(failures.map((l) => [l.requestId, l.connector, l.error])).to.deep.equal([['sale-broken', 'sandbox', 'socket hang up']]);
    const requests = lines().filter((l) => l.message === 'request' && l.path === '/post');
    expect(requests.map((l) => l.requestId)).to.have.members(['sale-broken', 'sale-fine']);
  });

  it('Given failed authentications that lock an address, then the lock\'s line names the request that tipped it', async () => {
    const tries = ['auth-1', 'auth-2'];
    for (const requestId of tries) {
      const res = await t.request('/post', {
        method: 'POST',
        headers: { 'X-Request-Id': requestId, 'X-Forwarded-For': '198.18.200.1' },
        body: new URLSearchParams({ action: 'SALE', client_key: 'nobody-has-this-key', hash: 'x' }),
      });
      expect(res.status, res.text).to.be.within(400, 499);
    }
    const locks = lines().filter((l) => l.message === 'failed authentications locked an address');
    expect(locks.map((l) => [l.requestId, l.ip])).to.deep.equal([['auth-2', '198.18.200.1']]);
  });
});
