/**
 * The sandbox test clock moves business time only: callbacks are signed with real time (a merchant
 * refuses a `t` far from its own clock), /health says how far the clock runs ahead, and a reset puts
 * it back on real time without charging any due date twice.
 */
import { expect } from 'chai';
import { verifyCallbackSignature } from '../../src/domain/callback/callback-encoding';
import { CallbackReceiver } from '../support/callback-receiver';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { scheduledPayments, startChain } from '../support/recurring-chains';

const DAY = 86_400_000;

function admin(gw: TestGateway) {
  return (method: 'GET' | 'POST', path: string, body?: unknown) =>
    gw.request(path, {
      method,
      headers: { Authorization: `Bearer ${gw.gateway.adminToken}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

describe('Sandbox test clock and real time', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  const receiver = new CallbackReceiver();

  beforeEach(async () => {
    await receiver.start();
    gw = await startTestGateway({ kind: 'sqlite' });
    await gw.gateway.notifier.start();
  });
  afterEach(async () => {
    await gw.stop();
    await receiver.stop();
    receiver.received.length = 0;
  });

  it('Given the clock moved 30 days, when a payment calls back, then X-Signature carries real time while the payment keeps the sandbox date', async () => {
    const merchant = await gw.createMerchant({ notificationUrl: receiver.url });
    expect((await admin(gw)('POST', '/admin/clock/advance', { by: '30d' })).status).to.equal(200);

    const sale = await gw.sale(merchant);
    expect(sale.status, sale.text).to.equal(200);
    await gw.gateway.notifier.catchUp();

    const [callback] = receiver.ofTransaction(sale.body.trans_id);
    expect(callback, 'a callback arrived').to.exist;
    const header = String(callback.headers['x-signature']);
    const t = Number(/t=(\d+)/.exec(header)![1]);
    const realSeconds = gw.clock.now().getTime() / 1000;
    expect(Math.abs(t - realSeconds)).to.be.lessThan(60);
    // What a merchant following docs/callbacks.md runs: a 5-minute tolerance against its own clock.
    expect(verifyCallbackSignature(merchant.password, callback.body, header, Math.floor(realSeconds))).to.equal(true);
    // The business date is the sandbox's: 30 days on.
    const transDate = Date.parse(`${callback.fields.get('trans_date')!.replace(' ', 'T')}Z`);
    expect(transDate - gw.clock.now().getTime()).to.be.within(30 * DAY - 60_000, 30 * DAY + 60_000);
  });

  it('Given the clock moved, when /health is asked, then it shows the offset and the sandbox now', async () => {
    const before = await gw.request('/health');
    expect(before.body.sandbox_clock.offset_seconds).to.be.lessThan(60);

    await admin(gw)('POST', '/admin/clock/advance', { by: '2d' });

    const after = await gw.request('/health');
    expect(after.status).to.equal(200);
    expect(after.body.sandbox_clock.offset_seconds).to.be.within(2 * 86_400 - 60, 2 * 86_400 + 60);
    expect(Date.parse(after.body.sandbox_clock.now) - gw.clock.now().getTime()).to.be.within(2 * DAY - 60_000, 2 * DAY + 60_000);
  });

  it('Given a daily chain charged 3 days ahead, when the clock is reset and moved again, then the clock is on real time and no due date is charged twice', async () => {
    const g = gw.gateway;
    const merchant = await gw.createMerchant();
    const chain = await startChain(g, merchant.merchant_id);
    expect((await admin(gw)('POST', '/admin/clock/advance', { by: '3d' })).body.payments_created).to.equal(3);

    const reset = await admin(gw)('POST', '/admin/clock/reset');

    expect(reset.status, reset.text).to.equal(200);
    expect(reset.body).to.include({ result: 'SUCCESS', offset_ms: 0 });
    expect(reset.body.previous_offset_ms).to.be.within(3 * DAY - 60_000, 3 * DAY + 60_000);
    expect(Math.abs(g.clock.now().getTime() - gw.clock.now().getTime())).to.be.lessThan(1000);
    expect((await gw.request('/health')).body.sandbox_clock.offset_seconds).to.equal(0);

    // The same 3 days again: those dates are claimed already; the 4th is new.
    expect((await admin(gw)('POST', '/admin/clock/advance', { by: '3d' })).body.payments_created).to.equal(0);
    expect((await admin(gw)('POST', '/admin/clock/advance', { by: '1d' })).body.payments_created).to.equal(1);
    expect((await scheduledPayments(g, chain.chainId)).map((p) => p.recurring!.sequence)).to.deep.equal([1, 2, 3, 4]);
  });
});

describe('Sandbox test clock reset in production', () => {
  it('is refused with 403, and /health says nothing of a sandbox clock', async () => {
    const gw = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
    try {
      const reset = await admin(gw)('POST', '/admin/clock/reset');
      expect(reset.status).to.equal(403);
      expect(reset.body).to.include({ result: 'ERROR', error_message: 'The test clock exists in the sandbox only.' });
      expect((await gw.request('/health')).body).not.to.have.property('sandbox_clock');
    } finally {
      await gw.stop();
    }
  });
});
