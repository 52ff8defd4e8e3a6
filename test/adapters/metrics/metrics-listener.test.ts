/** METRICS_PORT's listener: /metrics only, behind METRICS_TOKEN when one is set. */
import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayMetrics } from '../../../src/adapters/metrics/gateway-metrics';
import { startMetricsListener } from '../../../src/api/metrics/metrics-listener';

describe('Metrics listener (METRICS_PORT)', function () {
  const servers: Server[] = [];
  const start = async (token: string | null) => {
    const metrics = new GatewayMetrics();
    metrics.httpRequest('GET', '/health', '-', 200, 0.002);
    const server = await startMetricsListener({ host: '127.0.0.1', port: 0, metrics, token, onError: () => undefined });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  after(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('Given no METRICS_TOKEN, then GET /metrics answers the Prometheus text, and every other path 404', async () => {
    const base = await start(null);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).to.equal(200);
    expect(metrics.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    expect(await metrics.text()).to.include('gateway_http_request_duration_seconds_count{method="GET",route="/health",action="-",status="200"} 1');
    expect((await fetch(`${base}/post`)).status).to.equal(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).to.equal(404);
  });

  it('Given METRICS_TOKEN, then only a request bearing it gets the metrics', async () => {
    const base = await start('scrape-token-0123456789abcdef');
    expect((await fetch(`${base}/metrics`)).status).to.equal(401);
    expect((await fetch(`${base}/metrics`, { headers: { Authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).to.equal(401);
    expect((await fetch(`${base}/metrics`, { headers: { Authorization: 'Bearer scrape-token-0123456789abcdef' } })).status).to.equal(200);
  });
});
