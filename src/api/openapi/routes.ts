/**
 * `GET /openapi.json` (the document) and `GET /docs/api` (it rendered by swagger-ui, served from
 * the swagger-ui-dist package on disk: no CDN, works offline).
 *
 * The page runs under the payment pages' CSP (page-kit.ts) with two additions swagger-ui needs and
 * nothing more: `connect-src 'self'` to fetch the document, and `style-src 'self'` for its
 * stylesheet (its inline style attributes are covered by the kit's `'unsafe-inline'` styles).
 * Scripts stay `'self'` only: the page's own start-up script is a file (/docs/api/assets/init.js),
 * never inline. `frame-ancestors 'none'`: nobody needs to frame the reference.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import { htmlDocument } from '../html/document';
import { escapeHtml } from '../html/page-kit';
import { buildOpenApiDocument, type OpenApiOptions } from './document';

export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The swagger-ui-dist files the page loads, and their types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const INIT_JS = `'use strict';
// Starts swagger-ui on the gateway's own document; no validator service, nothing fetched from elsewhere.
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
  });
});
`;

const PAGE_CSS = `
body { margin: 0; background: #fafafa; }
.docs-header { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; padding: 0.75rem 1.25rem; background: #1b1f24; color: #fff; font: 16px/1.4 system-ui, sans-serif; }
.docs-header a { color: #9ecbff; }
.docs-header h1 { font-size: 1.1rem; margin: 0; }
`;

const page = () =>
  htmlDocument(
    {
      title: 'API reference · Ledger gateway',
      stylesheets: ['/docs/api/assets/swagger-ui.css', '/docs/api/assets/page.css'],
      scripts: ['/docs/api/assets/swagger-ui-bundle.js', '/docs/api/assets/init.js'],
    },
    `<header class="docs-header"><h1>Ledger gateway API reference</h1><a href="/openapi.json">openapi.json</a><a href="/">Home</a><a href="/dashboard">Dashboard</a></header>
<main id="swagger-ui"><noscript><p>This page needs JavaScript. The document itself: <a href="${escapeHtml('/openapi.json')}">/openapi.json</a>.</p></noscript></main>`,
  );

export function swaggerUiDirectory(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

export function registerOpenApiRoutes(router: Router, options: OpenApiOptions): void {
  // Built once, when first asked for: the routes and schemas it describes do not change while running.
  let json: string | undefined;
  router.get('/openapi.json', (ctx) => {
    json ??= JSON.stringify(buildOpenApiDocument(options), null, 2);
    ctx.type = 'application/json; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = json;
  });

  router.get('/docs/api', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_PAGE_CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page();
  });

  const files = new Map<string, Buffer>();
  router.get('/docs/api/assets/:file', (ctx) => {
    const name = ctx.params.file;
    ctx.set('Cache-Control', 'public, max-age=3600');
    if (name === 'init.js' || name === 'page.css') {
      ctx.type = name === 'init.js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
      ctx.body = name === 'init.js' ? INIT_JS : PAGE_CSS;
      return;
    }
    const type = ASSETS[name];
    if (!type) return; // 404 in the error shape
    let body = files.get(name);
    if (!body) {
      body = readFileSync(path.join(swaggerUiDirectory(), name));
      files.set(name, body);
    }
    ctx.type = type;
    ctx.body = body;
  });
}
