/** `GET /`: a page for people opening the base URL, JSON for programs that ask for it. */
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

describe('The front door (GET /)', function () {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
  });
  after(async () => t?.stop());

  it('Given a browser, then / is a page linking the dashboard, the API reference, the OpenAPI document, health and metrics', async () => {
    const page = await t.request('/', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
    for (const href of ['/dashboard', '/docs/api', '/openapi.json', '/health', '/metrics']) expect(page.text).to.include(`href="${href}"`);
    expect(page.text).to.include('<h1>Ledger gateway</h1>');
  });

  it('Given Accept: application/json, then / answers the same links as JSON', async () => {
    const answer = await t.request('/', { headers: { Accept: 'application/json' } });
    expect(answer.status).to.equal(200);
    expect(answer.body).to.include({ name: 'Ledger gateway', environment: 'sandbox', base_url: t.baseUrl });
    expect(Object.fromEntries(Object.entries(answer.body.links as Record<string, { href: string }>).map(([k, v]) => [k, v.href]))).to.deep.equal({
      dashboard: '/dashboard',
      api_docs: '/docs/api',
      openapi: '/openapi.json',
      health: '/health',
      metrics: '/metrics',
    });
  });

  it('Given curl\'s Accept: */*, then / is the page', async () => {
    const page = await t.request('/', { headers: { Accept: '*/*' } });
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
  });
});
