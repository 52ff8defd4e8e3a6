/**
 * `GET /`: what a person opening the base URL needs (what this is, where the dashboard, the API
 * reference, the health check and the metrics are), as a page for browsers and as JSON for
 * `Accept: application/json`.
 */
import type Router from '@koa/router';
import { HOSTED_PAGE_CSP, escapeHtml, renderHostedPage } from './html/page-kit';

export interface FrontDoorDeps {
  environment: string;
  baseUrl: string;
  /** Where the metrics are scraped, as the operator configured it (see docs/operations.md). */
  metrics: { path: string | null; note: string };
}

interface Link {
  rel: string;
  href: string;
  title: string;
  note: string;
}

export function frontDoorLinks(deps: FrontDoorDeps): Link[] {
  const links: Link[] = [
    { rel: 'dashboard', href: '/dashboard', title: 'Operator dashboard', note: 'payments, callbacks, merchants, analytics and health; sign in with the admin token' },
    { rel: 'api_docs', href: '/docs/api', title: 'API reference', note: 'the Checkout JSON API, the S2S form API, callbacks and the admin API' },
    { rel: 'openapi', href: '/openapi.json', title: 'OpenAPI document', note: 'the same reference, machine-readable (OpenAPI 3.1)' },
    { rel: 'health', href: '/health', title: 'Health', note: 'event store and read models, as JSON' },
  ];
  if (deps.metrics.path) links.push({ rel: 'metrics', href: deps.metrics.path, title: 'Metrics', note: deps.metrics.note });
  return links;
}

export function registerFrontDoor(router: Router, deps: FrontDoorDeps): void {
  router.get('/', (ctx) => {
    const links = frontDoorLinks(deps);
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = {
        name: 'Ledger gateway',
        description: 'A payment gateway whose core is an event-sourced ledger.',
        environment: deps.environment,
        base_url: deps.baseUrl,
        links: Object.fromEntries(links.map((l) => [l.rel, { href: l.href, title: l.title, note: l.note }])),
        ...(deps.metrics.path ? {} : { metrics: deps.metrics.note }),
      };
      return;
    }
    ctx.set('Content-Security-Policy', `${HOSTED_PAGE_CSP}; frame-ancestors 'none'`);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderHostedPage({
      title: 'Ledger gateway',
      main: [
        `<span class="badge">${escapeHtml(deps.environment)}</span>`,
        '<h1>Ledger gateway</h1>',
        '<p>A payment gateway whose core is an event-sourced ledger. Merchants pay over the S2S form API (<code>POST /post</code>) and the Checkout JSON API; operators work here.</p>',
        '<nav aria-label="Gateway"><dl>',
        ...links.map((l) => `<dt><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a></dt><dd>${escapeHtml(l.note)}</dd>`),
        '</dl></nav>',
        deps.metrics.path ? '' : `<p>Metrics: ${escapeHtml(deps.metrics.note)}</p>`,
        '<p>The admin token: <code>npm run gateway -- admin-token</code>. Operators\' guide: docs/operations.md.</p>',
      ].join('\n'),
    });
  });
}
