/**
 * `/metrics` as a Prometheus scraper sees it: behind its token, labelled by route patterns (never
 * raw paths), and counting what a SALE and its callback did: the request, the payment and its
 * outcome, the acquirer call, the event-store appends, the callback's attempt and delay.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { CallbackReceiver } from '../support/callback-receiver';
import { forEachStore, startTestGateway, type TestGateway } from '../support/gateway-harness';

/** One sample's value from Prometheus text, matched by metric name and every label given. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[4]);
  }
  return undefined;
}

const scrape = async (t: TestGateway, token = t.gateway.adminToken) => {
  const response = await t.request('/metrics', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status, response.text).to.equal(200);
  return response.text;
};

forEachStore('Metrics', (h) => {
  it('Given a SALE, then /metrics counts the request by route and action, the payment and its outcome, the acquirer call and the appends', async () => {
    const t = h();
    const merchant = await t.createMerchant();
    const before = await scrape(t);
    const sale = await t.sale(merchant);
    expect(sale.body.status).to.equal('SETTLED');

    const text = await scrape(t);
    const delta = (name: string, labels: Record<string, string>) => (sample(text, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('gateway_http_request_duration_seconds_count', { method: 'POST', route: '/post', action: 'SALE', status: '200' })).to.equal(1);
    expect(delta('gateway_payments_initiated_total', { channel: 's2s_card', method: 'card' })).to.equal(1);
    expect(delta('gateway_payment_outcomes_total', { channel: 's2s_card', method: 'card', outcome: 'settled' })).to.equal(1);
    expect(delta('gateway_connector_call_duration_seconds_count', { connector: 'sandbox', outcome: 'success' })).to.be.at.least(1);
    expect(delta('gateway_event_store_append_duration_seconds_count', { result: 'ok' })).to.be.at.least(1);
    expect(text).to.include('gateway_event_store_append_batch_events_bucket');
    expect(text).to.match(/^# TYPE gateway_http_request_duration_seconds histogram$/m);
  });

  it('Given requests to paths with ids and to no route at all, then their labels are the route patterns, never the paths', async () => {
    const t = h();
    const id = randomUUID();
    await t.request(`/admin/callbacks/${id}`, { headers: { Authorization: `Bearer ${t.gateway.adminToken}` } });
    await t.request(`/nothing-here/${id}`);
    const text = await scrape(t);
    expect(text).not.to.include(id);
    expect(sample(text, 'gateway_http_request_duration_seconds_count', { route: '/admin/callbacks/:id', status: '404' })).to.equal(1);
    expect(sample(text, 'gateway_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).to.be.at.least(1);
  });

  it('Given an unknown S2S action, then its label is unknown, not what the client sent', async () => {
    const t = h();
    await t.post({ action: 'MADE_UP_ACTION', client_key: 'x' });
    const text = await scrape(t);
    expect(text).not.to.include('MADE_UP_ACTION');
    expect(sample(text, 'gateway_http_request_duration_seconds_count', { route: '/post', action: 'unknown', status: '404' })).to.equal(1);
  });

  it('Given projections, then each one\'s lag and the event-store head are gauges read at scrape time', async () => {
    const t = h();
    const merchant = await t.createMerchant();
    await t.sale(merchant);
    await t.gateway.readModels.catchUpToHead(5000);
    const text = await scrape(t);
    expect(sample(text, 'gateway_projection_lag_events', { projection: 'payments' })).to.equal(0);
    expect(sample(text, 'gateway_event_store_head_position')).to.be.greaterThan(0);
    expect(sample(text, 'gateway_callback_backlog', { state: 'pending' })).to.be.a('number');
    expect(sample(text, 'gateway_scheduler_chains_due')).to.equal(0);
    expect(sample(text, 'gateway_callback_blocked_urls')).to.equal(0);
  });

  it('Given no token or a wrong one, then /metrics answers 401 in the error shape and says nothing', async () => {
    const t = h();
    const none = await t.request('/metrics');
    expect(none.status).to.equal(401);
    expect(none.body).to.deep.equal({ result: 'ERROR', error_code: 401, error_message: 'Metrics token is missing or not valid.' });
    expect(none.headers.get('www-authenticate')).to.equal('Bearer realm="metrics"');
    const wrong = await t.request('/metrics', { headers: { Authorization: 'Bearer not-the-token-at-all-000000' } });
    expect(wrong.status).to.equal(401);
    expect(wrong.text).not.to.include('gateway_');
  });
});

describe('Metrics: a callback and the request that caused it', function () {
  let t: TestGateway;
  let receiver: CallbackReceiver;
  before(async () => {
    receiver = await new CallbackReceiver().start();
    t = await startTestGateway({ kind: 'sqlite', captureLogs: true });
    await t.gateway.notifier.start();
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  it('Given a SALE with a notification URL, then the delivery is counted with its delay, and its log line carries the SALE\'s request id', async () => {
    const merchant = await t.createMerchant();
    const requestId = `sale-${randomUUID().slice(0, 8)}`;
    const fields = t.saleFields(merchant, { notification_url: receiver.url });
    const sale = await t.request('/post', { method: 'POST', headers: { 'X-Request-Id': requestId }, body: new URLSearchParams(fields as Record<string, string>) });
    expect(sale.body.status).to.equal('SETTLED');
    await t.gateway.notifier.catchUp();
    expect(receiver.received).to.have.length(1);

    const text = await scrape(t);
    expect(sample(text, 'gateway_callback_deliveries_scheduled_total')).to.equal(1);
    expect(sample(text, 'gateway_callback_attempts_total')).to.equal(1);
    expect(sample(text, 'gateway_callbacks_delivered_total')).to.equal(1);
    expect(sample(text, 'gateway_callback_delivery_delay_seconds_count')).to.equal(1);

    const attempt = t.logLines.map((line) => JSON.parse(line)).find((line) => line.message === 'callback attempt');
    expect(attempt).to.include({ requestId, deliveryId: receiver.received[0].deliveryId, statusCode: 200, attempt: 1 });
    expect(JSON.stringify(attempt)).not.to.include(receiver.url);
  });
});

describe('Metrics: METRICS_TOKEN', function () {
  let t: TestGateway;
  const token = 'scrape-token-0123456789abcdef';
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite', env: { METRICS_TOKEN: token } });
  });
  after(async () => t?.stop());

  it('Given METRICS_TOKEN, then scrapers present it, and the admin token no longer opens /metrics', async () => {
    expect(await scrape(t, token)).to.include('gateway_http_request_duration_seconds');
    const admin = await t.request('/metrics', { headers: { Authorization: `Bearer ${t.gateway.adminToken}` } });
    expect(admin.status).to.equal(401);
  });
});

describe('Metrics: METRICS_PORT', function () {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite', env: { METRICS_PORT: '0' } });
  });
  after(async () => t?.stop());

  it('Given METRICS_PORT, then the API\'s own port has no /metrics', async () => {
    const response = await t.request('/metrics', { headers: { Authorization: `Bearer ${t.gateway.adminToken}` } });
    expect(response.status).to.equal(404);
  });
});

describe('Metrics: when an append fails', function () {
  it('Given a wrong expected version, then the append is counted as a conflict, not as ok', async () => {
    const t = await startTestGateway({ kind: 'sqlite' });
    try {
      const event = { id: randomUUID(), type: 'SomethingHappened', schemaVersion: 1, data: {} };
      await t.gateway.store.append('test-stream', [event], { kind: 'no_stream' });
      await t.gateway.store
        .append('test-stream', [{ ...event, id: randomUUID() }], { kind: 'no_stream' })
        .then(() => expect.fail('the second append must conflict'), () => undefined);
      const text = await scrape(t);
      expect(sample(text, 'gateway_event_store_append_duration_seconds_count', { operation: 'append', result: 'conflict' })).to.equal(1);
    } finally {
      await t.stop();
    }
  });
});
