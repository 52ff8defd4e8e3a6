/**
 * Who gets into the dashboard: only a session opened with the admin token, checked by every page
 * and action before anything is read; forms only with the session's CSRF token; a cookie that is
 * HttpOnly, SameSite=Strict, Secure behind TLS, and useless once tampered with, expired or signed
 * out; wrong tokens counted with the admin API's; and no path into `/admin` through `/dashboard`.
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import { createApp, routerOf } from '../../src/api/app';
import { DASHBOARD_CSP } from '../../src/api/dashboard/html';
import { registerDashboardRoutes, PUBLIC_DASHBOARD_PATHS, type DashboardDeps } from '../../src/api/dashboard/routes';
import { DashboardSessions, SESSION_TTL_MS } from '../../src/api/dashboard/session';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

const ADMIN_TOKEN = 'admin-token-for-the-dashboard-tests-0123';

/** Dependencies whose every data member records being touched and answers nothing. */
function spyDeps(touched: string[], now: () => number): DashboardDeps {
  const spy = (name: string): unknown =>
    new Proxy(() => undefined, {
      get: (_target, property) => (property === 'then' ? undefined : spy(`${name}.${String(property)}`)),
      apply: () => {
        touched.push(name);
        throw new Error(`${name} must not be called`);
      },
    });
  const real: Partial<DashboardDeps> = {
    environment: 'sandbox',
    adminToken: ADMIN_TOKEN,
    sessionKey: Buffer.alloc(32, 7),
    publicBaseUrl: 'http://127.0.0.1',
    now,
    connectorNames: ['sandbox'],
    callbackBlockPolicy: { timeouts: 5, windowMs: 60_000, blockMs: 60_000 },
  };
  return new Proxy(real as DashboardDeps, {
    get: (target, property) => (property in target ? target[property as keyof DashboardDeps] : spy(String(property))),
  });
}

async function listen(app: ReturnType<typeof createApp>): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('Dashboard access', function () {
  describe('before any data is read', function () {
    const touched: string[] = [];
    let clock = Date.now();
    let app: ReturnType<typeof createApp>;
    let server: { base: string; close(): Promise<void> };
    before(async () => {
      app = createApp({ logger: createJsonLogger('silent'), routes: [(router) => registerDashboardRoutes(router, spyDeps(touched, () => clock))] });
      server = await listen(app);
    });
    after(async () => server?.close());
    beforeEach(() => {
      touched.length = 0;
    });

    /** Every dashboard route that needs a session, with a UUID for each path parameter. */
    const guardedRoutes = () =>
      routerOf(app)
        .stack.filter((layer) => String(layer.path).startsWith('/dashboard') && layer.methods.length > 0)
        .flatMap((layer) => layer.methods.filter((m) => m === 'GET' || m === 'POST').map((method) => ({ method, path: String(layer.path).replace(/:\w+/g, randomUUID()) })))
        .filter((r) => !PUBLIC_DASHBOARD_PATHS.includes(r.path));

    const cookieFor = (sessions: DashboardSessions) => `gw_dashboard=${sessions.open().cookie}`;
    const cookies: Record<string, () => string> = {
      'no cookie': () => '',
      'a random cookie': () => `gw_dashboard=${randomBytes(90).toString('base64url')}`,
      'a cookie sealed with another key': () => cookieFor(new DashboardSessions({ key: Buffer.alloc(32, 9), adminToken: ADMIN_TOKEN })),
      'a cookie of another admin token': () => cookieFor(new DashboardSessions({ key: Buffer.alloc(32, 7), adminToken: `${ADMIN_TOKEN}-rotated` })),
      'a tampered cookie': () => {
        const value = new DashboardSessions({ key: Buffer.alloc(32, 7), adminToken: ADMIN_TOKEN }).open().cookie;
        const flipped = value.slice(0, 20) + (value[20] === 'A' ? 'B' : 'A') + value.slice(21);
        return `gw_dashboard=${flipped}`;
      },
      'an expired cookie': () => cookieFor(new DashboardSessions({ key: Buffer.alloc(32, 7), adminToken: ADMIN_TOKEN, now: () => clock - SESSION_TTL_MS - 1000 })),
    };

    for (const [name, cookie] of Object.entries(cookies)) {
      it(`Given ${name}, then every page and action refuses (sign in, or 401 for JSON) and reads nothing`, async () => {
        const routes = guardedRoutes();
        expect(routes.length).to.be.at.least(12);
        for (const route of routes) {
          const response = await fetch(`${server.base}${route.path}`, {
            method: route.method,
            redirect: 'manual',
            headers: { cookie: cookie(), ...(route.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
            ...(route.method === 'POST' ? { body: '_csrf=x' } : {}),
          });
          const where = `${route.method} ${route.path}`;
          if (route.path.endsWith('.json')) expect(response.status, where).to.equal(401);
          else {
            expect(response.status, where).to.equal(303);
            expect(response.headers.get('location'), where).to.match(/^\/dashboard\/sign-in/);
          }
        }
        expect(touched).to.deep.equal([]);
      });
    }

    it('Given a session, then a form without the session\'s CSRF token is refused with 403 and changes nothing', async () => {
      const sessions = new DashboardSessions({ key: Buffer.alloc(32, 7), adminToken: ADMIN_TOKEN, now: () => clock });
      const cookie = `gw_dashboard=${sessions.open().cookie}`;
      const posts = guardedRoutes().filter((r) => r.method === 'POST');
      expect(posts.map((r) => r.path.replace(/[0-9a-f-]{36}/, ':id'))).to.include.members([
        '/dashboard/sign-out',
        '/dashboard/merchants',
        '/dashboard/merchants/:id',
        '/dashboard/merchants/:id/wallets',
        '/dashboard/callbacks/:id/redeliver',
        '/dashboard/health/audit',
      ]);
      for (const body of ['', '_csrf=', `_csrf=${randomBytes(32).toString('base64url')}`]) {
        for (const route of posts) {
          const response = await fetch(`${server.base}${route.path}`, {
            method: 'POST',
            redirect: 'manual',
            headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
            body,
          });
          expect(response.status, `${route.path} with "${body}"`).to.equal(403);
        }
      }
      expect(touched).to.deep.equal([]);
    });

    it('Given a session past its eight hours, then it no longer opens a page', async () => {
      const sessions = new DashboardSessions({ key: Buffer.alloc(32, 7), adminToken: ADMIN_TOKEN, now: () => clock });
      const cookie = `gw_dashboard=${sessions.open().cookie}`;
      clock += SESSION_TTL_MS + 1;
      try {
        const response = await fetch(`${server.base}/dashboard/health`, { redirect: 'manual', headers: { cookie } });
        expect(response.status).to.equal(303);
      } finally {
        clock -= SESSION_TTL_MS + 1;
      }
    });
  });

  describe('on a running gateway', function () {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway({ kind: 'sqlite' });
    });
    after(async () => t?.stop());

    const signIn = async (gateway: TestGateway, headers: Record<string, string> = {}) =>
      gateway.request('/dashboard/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ token: gateway.gateway.adminToken, next: '/dashboard/health' }),
      });

    it('Given the admin token, then sign-in sets an HttpOnly, SameSite=Strict cookie for /dashboard that expires, not Secure over plain HTTP', async () => {
      const response = await signIn(t);
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal('/dashboard/health');
      const cookie = response.headers.get('set-cookie')!;
      expect(cookie).to.match(/^gw_dashboard=[\w-]+; Path=\/dashboard; Max-Age=28800; HttpOnly; SameSite=Strict$/);
      const page = await t.request('/dashboard/health', { headers: { cookie: cookie.split(';')[0] } });
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-security-policy')).to.equal(DASHBOARD_CSP);
      expect(page.text).not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.text).not.to.match(/\sstyle="/);
    });

    it('Given a next address off the dashboard, then sign-in goes to the dashboard instead', async () => {
      for (const next of ['https://evil.example/', '//evil.example/x', '/admin/callbacks', '/dashboard/../admin']) {
        const response = await t.request('/dashboard/sign-in', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: t.gateway.adminToken, next }),
        });
        expect(response.headers.get('location'), next).to.equal('/dashboard/payments');
      }
    });

    it('Given a session, then no spelling of /dashboard reaches the admin API without the bearer token', async () => {
      const cookie = (await signIn(t)).headers.get('set-cookie')!.split(';')[0];
      for (const path of ['/dashboard/%2e%2e/admin/callbacks', '/dashboard/..%2Fadmin/callbacks', '/dashboard/%2E%2E%2fadmin/ledger/balances', '/dashboard/.%2e/admin/clock']) {
        const response = await t.request(path, { headers: { cookie } });
        expect(response.status, path).to.equal(401);
        expect(response.body, path).to.deep.equal({ result: 'ERROR', error_code: 401, error_message: 'Admin token is missing or not valid.' });
      }
    });

    it('Given sign-out, then the cookie is cleared and no longer opens a page', async () => {
      const cookie = (await signIn(t)).headers.get('set-cookie')!.split(';')[0];
      const page = await t.request('/dashboard/payments', { headers: { cookie } });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
      const out = await t.request('/dashboard/sign-out', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf }),
      });
      expect(out.status).to.equal(303);
      expect(out.headers.get('set-cookie')).to.match(/^gw_dashboard=; Path=\/dashboard; Max-Age=0;/);
      const after = await t.request('/dashboard/payments', { headers: { cookie } });
      expect(after.status).to.equal(303);
      expect(after.headers.get('location')).to.match(/^\/dashboard\/sign-in/);
    });

    it('Given the merchant form, then a payment mode the CLI refuses is refused with the CLI\'s words and nothing is created', async () => {
      const cookie = (await signIn(t)).headers.get('set-cookie')!.split(';')[0];
      const page = await t.request('/dashboard/merchants/new', { headers: { cookie } });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
      const before = (await t.gateway.merchants.list()).length;
      const refused = await t.request('/dashboard/merchants', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, name: 'Bad mode', 'payment-mode': 'MONTHLY', refunds: 'on', 'card-on-file': 'off' }),
      });
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include('Payment mode must be one of SMS, DMS, SMS/DMS.');
      expect((await t.gateway.merchants.list()).length).to.equal(before);
    });
  });

  describe('behind TLS', function () {
    it('Given PUBLIC_BASE_URL on https, then the session cookie is Secure', async () => {
      const t = await startTestGateway({ kind: 'sqlite', env: { PUBLIC_BASE_URL: 'https://gateway.example' } });
      try {
        const response = await t.request('/dashboard/sign-in', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: t.gateway.adminToken }),
        });
        expect(response.headers.get('set-cookie')).to.match(/; Secure$/);
      } finally {
        await t.stop();
      }
    });

    it('Given TRUST_PROXY, then X-Forwarded-Proto: https makes it Secure; without TRUST_PROXY the header is not believed', async () => {
      for (const [trust, secure] of [['true', true], ['false', false]] as const) {
        const t = await startTestGateway({ kind: 'sqlite', env: { TRUST_PROXY: trust } });
        try {
          const response = await t.request('/dashboard/sign-in', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-Forwarded-Proto': 'https' },
            body: new URLSearchParams({ token: t.gateway.adminToken }),
          });
          expect(/; Secure$/.test(response.headers.get('set-cookie')!), `TRUST_PROXY=${trust}`).to.equal(secure);
        } finally {
          await t.stop();
        }
      }
    });
  });

  describe('failed sign-ins', function () {
    it('Given wrong tokens, then they count with the admin API\'s: the address is locked for both, even with the right token', async () => {
      const t = await startTestGateway({ kind: 'sqlite', env: { AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW: '60' } });
      try {
        const attempt = (token: string) =>
          t.request('/dashboard/sign-in', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ token }),
          });
        for (let i = 0; i < 3; i++) expect((await attempt(`wrong-token-${i}-0000000000000000`)).status).to.equal(401);
        const locked = await attempt(t.gateway.adminToken);
        expect(locked.status).to.equal(429);
        expect(Number(locked.headers.get('retry-after'))).to.be.greaterThan(0);
        expect(locked.text).to.include('Too many failed sign-ins');
        const admin = await t.request('/admin/callbacks', { headers: { Authorization: `Bearer ${t.gateway.adminToken}` } });
        expect(admin.status).to.equal(429);
      } finally {
        await t.stop();
      }
    });
  });
});
