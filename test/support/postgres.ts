/**
 * PostgreSQL for tests. On a developer's laptop without a server the PostgreSQL suites skip with a
 * loud message; under CI=true a missing server fails the run instead of skipping silently.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let availability: Promise<boolean> | undefined;

export function postgresAvailable(): Promise<boolean> {
  availability ??= (async () => {
    const client = new Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return availability;
}

/**
 * Call inside a mocha `describe` (with `function () {}`): skips the suite when PostgreSQL is not
 * reachable on a laptop, fails it under CI.
 */
export function requirePostgres(suite: Mocha.Suite): void {
  suite.beforeAll(async function () {
    if (await postgresAvailable()) return;
    const message = `PostgreSQL is not reachable at ${TEST_DATABASE_URL}`;
    if (process.env.CI === 'true') throw new Error(`${message}; CI needs it`);
    console.warn(`\n  !!! SKIPPING "${suite.fullTitle()}": ${message} !!!\n`);
    this.skip();
  });
}

/**
 * Creates an empty schema for one suite and returns a connection string whose sessions use it,
 * so suites never see each other's tables. Drop it with `dropSchema`.
 */
export async function createTestSchema(prefix = 't'): Promise<{ url: string; schema: string }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`create schema "${schema}"`);
  } finally {
    await client.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), schema };
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
