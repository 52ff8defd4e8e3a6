/**
 * A sample shop that takes card payments with the gateway's hosted payment fields.
 *
 *   GATEWAY_URL=http://127.0.0.1:8080 MERCHANT_KEY=... MERCHANT_PASSWORD=... PORT=4000 \
 *     npx tsx docs/sample-merchant/server.ts
 *
 * Without MERCHANT_KEY / MERCHANT_PASSWORD it uses the demo merchant the gateway saved in
 * `$DATA_DIR/demo-merchant.json` (default ./data). See README.md in this folder for the flow.
 *
 * The shop's server holds the merchant password and the session token; the payer's browser holds
 * neither the password nor, outside the gateway's iframes, the card.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SHOP_CSS, SHOP_JS, errorPage, redirectPage, returnPage, shopPage, type ShopOrder } from './pages';

export interface SampleMerchantOptions {
  gatewayUrl: string;
  merchantKey: string;
  password: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
}

/** What reached the shop's server, and what it sent to the gateway: bodies as they were. */
export interface LoggedRequest {
  direction: 'in' | 'out';
  method: string;
  url: string;
  body: string;
}

export interface SampleMerchant {
  url: string;
  requestLog: LoggedRequest[];
  close(): Promise<void>;
}

interface OrderRecord {
  order: ShopOrder;
  token: string;
  /** The payer's Accept header, passed on to the gateway as the payer's (3-D Secure needs it). */
  payerAccept: string;
  redirect?: { url: string; params?: Record<string, string> };
}

const MAX_BODY = 64 * 1024;

/** ASCII-only uppercasing: the gateway's hash rule (non-ASCII letters stay as they are). */
const asciiUpper = (s: string) => s.replace(/[a-z]/g, (c) => c.toUpperCase());
const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');
const checkoutHash = (parts: string[], password: string) => sha1(md5(asciiUpper(parts.join('') + password)));

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startSampleMerchant(options: SampleMerchantOptions): Promise<SampleMerchant> {
  const gatewayUrl = options.gatewayUrl.replace(/\/+$/, '');
  const gatewayOrigin = new URL(gatewayUrl).origin;
  const orders = new Map<string, OrderRecord>();
  const requestLog: LoggedRequest[] = [];
  let selfUrl = '';

  async function callGateway(pathname: string, body: unknown, headers: Record<string, string> = {}) {
    const text = JSON.stringify(body);
    requestLog.push({ direction: 'out', method: 'POST', url: `${gatewayUrl}${pathname}`, body: text });
    const response = await fetch(`${gatewayUrl}${pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: text,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  function send(res: http.ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...extra });
    res.end(body);
  }
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${gatewayOrigin}`,
    `frame-src ${gatewayOrigin}`,
    "style-src 'self'",
    "connect-src 'self'",
    `form-action 'self' ${gatewayOrigin}`,
    "base-uri 'none'",
  ].join('; ');
  const html = (res: http.ServerResponse, status: number, body: string) =>
    send(res, status, 'text/html; charset=utf-8', body, { 'Content-Security-Policy': csp });
  const json = (res: http.ServerResponse, status: number, body: unknown) => send(res, status, 'application/json', JSON.stringify(body));

  async function showShop(req: http.IncomingMessage, res: http.ServerResponse) {
    const order: ShopOrder = { number: `shop-${randomUUID()}`, amount: '25.00', currency: 'EUR', description: 'Coffee beans, 1 kg' };
    // The shop knows its signed-in customer; the name on the card comes with the payment.
    const created = await callGateway('/api/v1/session/token', {
      merchant_key: options.merchantKey,
      operation: 'purchase',
      methods: ['card'],
      order,
      return_url: `${selfUrl}/return`,
      customer: { name: 'Alex Example', email: 'alex@example.com' },
      hash: checkoutHash([order.number, order.amount, order.currency, order.description], options.password),
    });
    const token = created.body.token;
    if (created.status !== 200 || typeof token !== 'string') {
      return html(res, 502, errorPage(`The payment service refused the session: ${String(created.body.error_message ?? created.status)}`));
    }
    orders.set(order.number, { order, token, payerAccept: req.headers.accept ?? '' });
    html(res, 200, shopPage({ token, order, gatewayUrl }));
  }

  async function pay(body: string, res: http.ServerResponse) {
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return json(res, 400, { result: 'error', message: 'Not JSON.' });
    }
    const record = typeof input.order === 'string' ? orders.get(input.order) : undefined;
    if (!record) return json(res, 404, { result: 'error', message: 'Unknown order.' });
    const answer = await callGateway(
      '/api/v1/processing/purchase/card',
      {
        name: String(input.name ?? ''),
        with_hosted_fields: true,
        ...(typeof input.email === 'string' && input.email ? { email: input.email } : {}),
        ...(input.browser_info && typeof input.browser_info === 'object' ? { browser_info: input.browser_info } : {}),
      },
      // The payer's own Accept header: the gateway takes accept_header from it.
      { Token: record.token, ...(record.payerAccept ? { Accept: record.payerAccept } : {}) },
    );
    const result = answer.body;
    if (answer.status !== 200) {
      const errors = Array.isArray(result.errors) ? (result.errors as { error_message: string }[]).map((e) => e.error_message).join(' ') : '';
      return json(res, 200, { result: 'error', message: errors || String(result.error_message ?? 'The payment failed.') });
    }
    if (result.result === 'redirect' && typeof result.redirect_url === 'string') {
      record.redirect = { url: result.redirect_url, params: result.redirect_params as Record<string, string> | undefined };
      return json(res, 200, { result: 'redirect', next: `/redirect/${encodeURIComponent(record.order.number)}` });
    }
    json(res, 200, { result: result.result, decline_message: result.decline_message, public_id: result.public_id });
  }

  function followRedirect(orderNumber: string, res: http.ServerResponse) {
    const redirect = orders.get(orderNumber)?.redirect;
    if (!redirect) return html(res, 404, errorPage('Nothing to continue for this order.'));
    // With parameters the redirect is a POST (3-D Secure); without, a plain GET.
    if (redirect.params && Object.keys(redirect.params).length) return html(res, 200, redirectPage(redirect.url, redirect.params));
    send(res, 303, 'text/plain', '', { Location: redirect.url });
  }

  function showReturn(params: Record<string, string>, res: http.ServerResponse) {
    const record = params.order_id ? orders.get(params.order_id) : undefined;
    let signature: 'valid' | 'invalid' | 'unknown order' = 'unknown order';
    if (record) {
      const { order } = record;
      const expected = checkoutHash([params.payment_id ?? '', order.number, order.amount, order.currency, order.description], options.password);
      signature = sameHash(expected, params.hash ?? '') ? 'valid' : 'invalid';
    }
    html(res, 200, returnPage(params, signature));
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://shop.invalid');
    const body = req.method === 'POST' ? await readBody(req) : '';
    requestLog.push({ direction: 'in', method: req.method ?? '', url: req.url ?? '', body });
    if (req.method === 'GET' && url.pathname === '/') return showShop(req, res);
    if (req.method === 'GET' && url.pathname === '/shop.js') return send(res, 200, 'text/javascript; charset=utf-8', SHOP_JS);
    if (req.method === 'GET' && url.pathname === '/shop.css') return send(res, 200, 'text/css; charset=utf-8', SHOP_CSS);
    if (req.method === 'POST' && url.pathname === '/pay') return pay(body, res);
    if (req.method === 'GET' && url.pathname.startsWith('/redirect/')) return followRedirect(decodeURIComponent(url.pathname.slice(10)), res);
    if (url.pathname === '/return' && (req.method === 'GET' || req.method === 'POST')) {
      const params = new URLSearchParams(req.method === 'POST' ? body : url.search);
      return showReturn(Object.fromEntries(params), res);
    }
    if (req.method === 'GET' && url.pathname === '/favicon.ico') return send(res, 204, 'text/plain', '');
    html(res, 404, errorPage('Page not found.'));
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      console.error('sample shop:', error instanceof Error ? error.message : String(error));
      if (!res.headersSent) html(res, 500, errorPage('Something went wrong.'));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  selfUrl = `http://${options.host ?? '127.0.0.1'}:${address.port}`;
  return {
    url: selfUrl,
    requestLog,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function demoMerchant(): { merchant_key?: string; password?: string } {
  try {
    const file = path.join(path.resolve(process.env.DATA_DIR || './data'), 'demo-merchant.json');
    return JSON.parse(readFileSync(file, 'utf8')) as { merchant_key?: string; password?: string };
  } catch {
    return {};
  }
}

if (require.main === module) {
  const demo = demoMerchant();
  const merchantKey = process.env.MERCHANT_KEY || demo.merchant_key;
  const password = process.env.MERCHANT_PASSWORD || demo.password;
  if (!merchantKey || !password) {
    console.error('Set MERCHANT_KEY and MERCHANT_PASSWORD (or start the gateway once so it saves data/demo-merchant.json).');
    process.exit(2);
  }
  startSampleMerchant({
    gatewayUrl: process.env.GATEWAY_URL || 'http://127.0.0.1:8080',
    merchantKey,
    password,
    port: Number(process.env.PORT || 4000),
    host: process.env.HOST,
  })
    .then((shop) => console.log(`Sample shop on ${shop.url} (gateway ${process.env.GATEWAY_URL || 'http://127.0.0.1:8080'})`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
