/**
 * The admin API answers only to its token, whatever spelling of `/admin` a client sends: another
 * case, a trailing or doubled slash, percent-encoded letters or slashes, dot segments. Every admin
 * route is tried with every spelling and every kind of bad credential; none of them may answer with
 * data. With the valid token, only the one canonical spelling reaches a route.
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { forEachStore, type HttpResult } from '../support/gateway-harness';
import { rawRequest } from '../support/raw-request';
import { SANDBOX_CLOCK_STREAM } from '../../src/domain/clock/sandbox-clock-events';

interface AdminRoute {
  method: 'GET' | 'POST';
  /** As registered under the `/admin` prefix, e.g. `/callbacks/:id`. */
  pattern: string;
  /** A concrete path under `/admin`. */
  path: string;
  /** A body that reaches the route without changing anything when the token is valid. */
  body?: string;
}

const ID = randomUUID();

/** Every route the files in src/api/admin register (checked against the source below). */
const ADMIN_ROUTES: AdminRoute[] = [
  { method: 'GET', pattern: '/callbacks', path: '/callbacks' },
  { method: 'GET', pattern: '/callbacks/:id', path: `/callbacks/${ID}` },
  { method: 'POST', pattern: '/callbacks/:id/redeliver', path: `/callbacks/${ID}/redeliver` },
  { method: 'GET', pattern: '/ledger/balances', path: '/ledger/balances' },
  { method: 'GET', pattern: '/payments/:id/history', path: `/payments/${ID}/history` },
  { method: 'GET', pattern: '/chains/:id', path: `/chains/${ID}` },
  { method: 'GET', pattern: '/clock', path: '/clock' },
  { method: 'POST', pattern: '/clock/advance', path: '/clock/advance', body: '{"by":"not a duration"}' },
  // The clock is on real time in these tests, so a reset records nothing.
  { method: 'POST', pattern: '/clock/reset', path: '/clock/reset' },
];

/** Spellings of `/admin<rest>` that are not the canonical one. */
function variants(rest: string): [string, string][] {
  const upperRest = rest.replace(/[a-z]/g, (c) => c.toUpperCase());
  return [
    ['upper case', `/ADMIN${rest}`],
    ['capitalised', `/Admin${rest}`],
    ['mixed case', `/aDMIN${rest}`],
    ['whole path upper case', `/ADMIN${upperRest}`],
    ['trailing slash', `/admin${rest}/`],
    ['encoded letter', `/%61dmin${rest}`],
    ['encoded upper-case letters', `/%41%44%4D%49%4E${rest}`],
    ['encoded letter in the middle', `/adm%69n${rest}`],
    ['double-encoded letter', `/%2561dmin${rest}`],
    ['encoded slash', `/admin%2F${rest.slice(1)}`],
    ['encoded slash, lower case', `/admin%2f${rest.slice(1)}`],
    ['double slash in front', `//admin${rest}`],
    ['double slash after admin', `/admin/${rest}`],
    ['backslash', `/\\admin${rest.replace(/\//g, '\\')}`],
    ['dot segments', `/x/../admin${rest}`],
    ['encoded dot segments', `/x/%2e%2e/admin${rest}`],
    ['encoded NUL after admin', `/admin%00${rest}`],
  ];
}

const BAD_CREDENTIALS: [string, Record<string, string>][] = [
  ['no token', {}],
  ['a wrong token', { Authorization: `Bearer ${randomBytes(32).toString('hex')}` }],
  ['a short token', { Authorization: 'Bearer x' }],
  ['an empty bearer', { Authorization: 'Bearer ' }],
];

const UNAUTHORIZED = { result: 'ERROR', error_code: 401, error_message: 'Admin token is missing or not valid.' };
const NOT_SUPPORTED = { result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' };
const CONTROL_IN_PATH = {
  result: 'ERROR',
  error_code: 100000,
  error_message: 'Request data is invalid.',
  errors: [{ error_code: 100000, error_message: 'path: This value contains control characters.' }],
};

function registeredAdminRoutes(): string[] {
  const dir = join(__dirname, '../../src/api/admin');
  const found: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const m of source.matchAll(/router\.(get|post|put|patch|delete|all)\(\s*'([^']+)'/g)) found.push(`${m[1].toUpperCase()} ${m[2]}`);
  }
  return found.sort();
}

forEachStore('Admin API: every spelling of /admin needs the token', (h) => {
  const send = (route: AdminRoute, target: string, headers: Record<string, string>): Promise<HttpResult> =>
    rawRequest(h().baseUrl, target, {
      method: route.method,
      headers: { 'Content-Type': 'application/json', ...headers },
      ...(route.method === 'POST' ? { body: route.body ?? '{}' } : {}),
    });

  it('Given the admin route files, then the table below covers every route they register', () => {
    const table = ADMIN_ROUTES.map((r) => `${r.method} ${r.pattern}`).sort();
    expect(table).to.deep.equal(registeredAdminRoutes());
  });

  for (const route of ADMIN_ROUTES) {
    describe(`${route.method} /admin${route.pattern}`, () => {
      const canonical = `/admin${route.path}`;
      const spellings: [string, string][] = [['canonical', canonical], ...variants(route.path)];

      it('Given any spelling and no valid token (none, wrong, short, empty), when called, then 401 and no data', async () => {
        for (const [spelling, target] of spellings) {
          for (const [credential, headers] of BAD_CREDENTIALS) {
            const res = await send(route, target, headers);
            const label = `${spelling} ${target} with ${credential}`;
            expect(res.status, `${label}: ${res.text}`).to.equal(401);
            expect(res.body, label).to.deep.equal(UNAUTHORIZED);
            expect(res.headers.get('www-authenticate'), label).to.equal('Bearer realm="admin"');
          }
        }
      });

      it('Given the right token under another scheme (Basic, Token, none), when called, then 401', async () => {
        const token = h().gateway.adminToken;
        for (const [spelling, target] of spellings) {
          for (const authorization of [`Basic ${token}`, `Token ${token}`, token, `Bearer${token}`, `Bearer ${token} x`]) {
            const res = await send(route, target, { Authorization: authorization });
            expect(res.status, `${spelling} ${target} with ${authorization.slice(0, 12)}…: ${res.text}`).to.equal(401);
            expect(res.body).to.deep.equal(UNAUTHORIZED);
          }
        }
      });

      it('Given the valid token, when the canonical path is called, then the route answers; any other spelling is a 404 in the spec shape (a 400 for an encoded NUL)', async () => {
        const auth = { Authorization: `Bearer ${h().gateway.adminToken}` };
        const reached = await send(route, canonical, auth);
        expect(reached.status, reached.text).to.not.be.oneOf([401, 405]);
        expect(reached.body, reached.text).to.not.deep.equal(NOT_SUPPORTED);
        for (const [spelling, target] of variants(route.path)) {
          const res = await send(route, target, auth);
          // A control character in the path is refused as input before routing.
          const expected = target.includes('%00') ? CONTROL_IN_PATH : NOT_SUPPORTED;
          expect(res.status, `${spelling} ${target}: ${res.text}`).to.equal(target.includes('%00') ? 400 : 404);
          expect(res.body, `${spelling} ${target}`).to.deep.equal(expected);
        }
      });
    });
  }

  it('Given every unauthenticated spelling of the clock and redelivery routes was sent, then the sandbox clock never moved', async () => {
    expect(await h().gateway.store.readStream(SANDBOX_CLOCK_STREAM)).to.have.length(0);
  });

  it('Given another HTTP method on an admin path without a token, then 401 before anything else', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND', 'OPTIONS']) {
      const res = await rawRequest(h().baseUrl, '/ADMIN/callbacks', { method });
      expect(res.status, `${method}: ${res.text}`).to.equal(401);
    }
  });
});
