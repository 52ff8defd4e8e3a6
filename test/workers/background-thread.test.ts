/**
 * The notifier as `npm start` runs it (role all): on the background thread, its appends through
 * the API's writer thread. Callbacks reach the merchant, the log stays one unbroken chain, and an
 * operator's redelivery from the API thread still sends.
 */
import { expect } from 'chai';
import { verifyEventLog } from '../../src/application/audit/verifier';
import { runningGatewayWithCallbacks } from '../support/running-gateway-sale';

describe('the notifier on the background thread of a running gateway', function () {
  this.timeout(60_000);
  const { receiver, running, sale } = runningGatewayWithCallbacks('background-thread-');
  const received = receiver.received;

  async function until(what: string, ok: () => boolean): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('is not the API thread\'s: role all hands the process no notifier of its own to start', () => {
    expect(running().notifier).to.equal(null);
  });

  it('Given SALEs naming a notification_url, then each is called back once, and the log the two threads wrote through one writer verifies', async () => {
    const transIds = await Promise.all(Array.from({ length: 20 }, (_, i) => sale(`thread-${i}`)));
    await until('20 callbacks', () => transIds.every((id) => received.some((r) => r.body.includes(id))));
    for (const id of transIds) expect(received.filter((r) => r.body.includes(id)), id).to.have.length(1);
    const report = await verifyEventLog(running().gateway.rawStore);
    expect(report.ok).to.equal(true);
  });

  it('Given callbacks the thread delivered, then the process\'s /metrics counts them with its own requests', async () => {
    const auth = { authorization: `Bearer ${running().gateway.adminToken}` };
    const counted = async () => {
      const text = await (await fetch(`${running().baseUrl}/metrics`, { headers: auth })).text();
      const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
      return { delivered: value('gateway_callbacks_delivered_total'), posts: /gateway_http_request_duration_seconds_count\{[^}]*route="\/post"/.test(text) };
    };
    const deadline = Date.now() + 10_000;
    let seen = await counted();
    while (!(seen.delivered >= 20) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      seen = await counted();
    }
    expect(seen.delivered, 'callbacks delivered, as /metrics shows them').to.be.at.least(20);
    expect(seen.posts, 'the API thread\'s own requests').to.equal(true);
  });

  it('Given a delivered callback, when an operator redelivers it through the API thread, then it is sent again', async () => {
    const transId = await sale('thread-redeliver');
    await until('the first callback', () => received.some((r) => r.body.includes(transId)));
    const deliveryId = received.find((r) => r.body.includes(transId))!.deliveryId;
    const auth = { authorization: `Bearer ${running().gateway.adminToken}` };
    // The thread records the attempt's outcome just after the answer arrives; a redelivery asked
    // for before that is told to try again (409), as an operator would be.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const shown = (await (await fetch(`${running().baseUrl}/admin/callbacks/${deliveryId}`, { headers: auth })).json()) as { status?: string };
      if (shown.status === 'delivered') break;
      if (Date.now() > deadline) throw new Error(`the attempt was not recorded: ${JSON.stringify(shown)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const res = await fetch(`${running().baseUrl}/admin/callbacks/${deliveryId}/redeliver`, { method: 'POST', headers: auth });
    expect(res.status, await res.clone().text()).to.be.within(200, 299);
    await until('the redelivery', () => received.filter((r) => r.body.includes(transId)).length === 2);
  });
});
