/**
 * The sandbox test clock over the admin API: it moves the gateway's now, the scheduler catching up
 * date by date; other processes follow it; production refuses it.
 */
import { expect } from 'chai';
import { forEachStore, startTestGateway } from '../support/gateway-harness';
import { scheduledPayments, startChain } from '../support/recurring-chains';

const DAY = 86_400_000;

forEachStore('Admin API: the sandbox test clock', (h, kind) => {
  const call = (method: 'GET' | 'POST', path: string, body?: unknown, token: string | null = h().gateway.adminToken) =>
    h().request(path, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('Given no admin token, when the clock is read or moved, then 401 and nothing moves', async () => {
    const before = h().gateway.clock.now().getTime();
    expect((await call('GET', '/admin/clock', undefined, null)).status).to.equal(401);
    expect((await call('POST', '/admin/clock/advance', { by: '30d' }, null)).status).to.equal(401);
    expect(h().gateway.clock.now().getTime() - before).to.be.lessThan(DAY);
  });

  it('Given a daily chain, when the clock is moved 3 days over the admin API, then its first 3 payments are made and the answer says so', async () => {
    const g = h().gateway;
    const merchant = await h().createMerchant();
    const chain = await startChain(g, merchant.merchant_id);
    const before = g.clock.now().getTime();

    const res = await call('POST', '/admin/clock/advance', { by: '3d' });

    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ result: 'SUCCESS', payments_created: 3, dates_skipped: 0 });
    expect(res.body.stops).to.equal(3);
    expect(Date.parse(res.body.now) - before).to.be.within(3 * DAY, 3 * DAY + 60_000);
    expect((await scheduledPayments(g, chain.chainId)).map((p) => p.recurring!.sequence)).to.deep.equal([1, 2, 3]);
    const shown = await call('GET', '/admin/clock');
    // The offset is what the move took less the real time it lasted: now is 3 days on either way.
    expect(shown.body.offset_ms).to.be.within(3 * DAY - 60_000, 3 * DAY + 60_000);
  });

  it('Given a duration that is not one, when the clock is moved, then 400 in the API error shape', async () => {
    for (const by of ['', '30', 'thirty days', '1y', '-5d', '99999d', 30]) {
      const res = await call('POST', '/admin/clock/advance', { by });
      expect(res.status, String(by)).to.equal(400);
      expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
      expect(res.body.errors[0].error_message).to.match(/^by: /);
    }
  });

  if (kind === 'postgres') {
    it('Given another process of the deployment, when the clock moves, then that process follows it', async () => {
      const peer = await h().startPeer();
      const res = await call('POST', '/admin/clock/advance', { by: '2d' });
      expect(res.status).to.equal(200);
      await peer.gateway.testClock.sync();
      expect(Math.abs(peer.gateway.clock.now().getTime() - h().gateway.clock.now().getTime())).to.be.lessThan(60_000);
    });
  }
});

describe('Admin API: the test clock in production', () => {
  it('is refused with 403 and the clock stays on real time', async () => {
    const gw = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
    try {
      const headers = { Authorization: `Bearer ${gw.gateway.adminToken}`, 'Content-Type': 'application/json' };
      const moved = await gw.request('/admin/clock/advance', { method: 'POST', headers, body: JSON.stringify({ by: '30d' }) });
      expect(moved.status).to.equal(403);
      expect(moved.body).to.include({ result: 'ERROR', error_message: 'The test clock exists in the sandbox only.' });
      expect((await gw.request('/admin/clock', { headers })).status).to.equal(403);
      expect(Math.abs(gw.gateway.clock.now().getTime() - gw.clock.now().getTime())).to.be.lessThan(1000);
      let refused: unknown;
      await gw.gateway.testClock.advance(DAY).catch((error) => (refused = error));
      expect(refused).to.be.instanceOf(Error);
    } finally {
      await gw.stop();
    }
  });
});
