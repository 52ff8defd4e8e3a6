/**
 * A database that cannot be reached right now is not a bug. Given a request whose handler fails
 * because the connection was refused, dropped or terminated (or SQLite stayed locked), when the
 * error middleware answers, then the client gets 503 in the spec's error shape with Retry-After: 1,
 * and anything else unexpected still gets the generic 500.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import Koa from 'koa';
import { errorMiddleware } from '../../src/api/errors';
import { isDatabaseUnavailable } from '../../src/api/database-unavailable';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('error middleware: the database unavailable', () => {
  let server: Server;
  let url: string;
  let toThrow: unknown;
  const warnings: string[] = [];

  before(async () => {
    const app = new Koa();
    app.use(errorMiddleware({ info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined }));
    app.use(() => {
      throw toThrow;
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/post`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const cases: Array<[string, unknown]> = [
    ['a backend terminated by an operator (57P01)', pgError('57P01', 'terminating connection due to administrator command')],
    ['the server starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    ['a connection failure (08006)', pgError('08006', 'connection failure')],
    ['a connection that ended mid-query', new Error('Connection terminated unexpectedly')],
    ['a client that lost its connection before the query', new Error('Client has encountered a connection error and is not queryable')],
    ['the database host refusing connections', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a statement timeout (57014)', pgError('57014', 'canceling statement due to statement timeout')],
    ['SQLite still locked after its busy timeout', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
  ];
  for (const [what, error] of cases) {
    it(`Given ${what}, when the request fails, then it is answered 503 with Retry-After: 1`, async () => {
      toThrow = error;
      const response = await fetch(url, { method: 'POST' });
      expect(response.status).to.equal(503);
      expect(response.headers.get('retry-after')).to.equal('1');
      expect(await response.json()).to.deep.equal({
        result: 'ERROR',
        error_code: 503,
        error_message: 'Service temporarily unavailable, try again.',
      });
    });
  }

  it('Given any other unexpected error (a unique violation, a bug), when the request fails, then it stays a generic 500', async () => {
    for (const error of [pgError('23505', 'duplicate key value violates unique constraint'), new TypeError('x is undefined')]) {
      toThrow = error;
      const response = await fetch(url, { method: 'POST' });
      expect(response.status).to.equal(500);
      expect(response.headers.get('retry-after')).to.equal(null);
      expect(await response.json()).to.deep.equal({ result: 'ERROR', error_code: 500, error_message: 'Internal error' });
    }
  });

  it('Given a connection error wrapped as the cause of another, then it is still recognised', () => {
    expect(isDatabaseUnavailable(new Error('append failed', { cause: pgError('57P01', 'terminating') }))).to.equal(true);
    expect(isDatabaseUnavailable(new Error('append failed', { cause: new Error('nothing to do with it') }))).to.equal(false);
    expect(isDatabaseUnavailable(null)).to.equal(false);
    expect(isDatabaseUnavailable('Connection terminated')).to.equal(false);
  });
});
