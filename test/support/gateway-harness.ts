/**
 * A real gateway for API tests: built through the composition root on SQLite (a temp DATA_DIR) or
 * PostgreSQL (a schema of its own, read models included), its projector running, listening on
 * 127.0.0.1 on a free port so tests talk to it over HTTP exactly as a merchant would.
 *
 * The socket is opened before the gateway is built, so PUBLIC_BASE_URL (used for redirect URLs,
 * the ACS simulator and TermUrl) names the port the tests actually reach.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import type { MerchantCredentials, RegisterMerchantInput } from '../../src/application/merchant-service';
import type { Clock } from '../../src/application/ports/clock';
import type { Connector } from '../../src/application/ports/connector';
import type { Logger } from '../../src/application/ports/logger';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { paymentStreamId } from '../../src/domain/payment/events';
import { orderIdHash, saleCardHash, saleTokenHash, transIdHash } from '../../src/domain/signatures';
import { createTestSchema, dropSchema, requirePostgres } from './postgres';

export type StoreKind = 'sqlite' | 'postgres';
export const STORE_KINDS: readonly StoreKind[] = ['sqlite', 'postgres'];

/** Form fields; an `undefined` value means "do not send this field". */
export type Fields = Record<string, string | undefined>;

export interface HttpResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
  text: string;
}

/** A clock the test moves forward by hand; it starts at the real time. */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  now(): Date {
    return new Date((this.frozenAt ?? Date.now()) + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  /**
   * Stops the clock where it is, for a test whose outcome depends on a boundary a few seconds wide
   * (a slow machine must not move it); `resume` lets it run on from there.
   */
  freeze(): void {
    this.frozenAt ??= Date.now();
  }
  resume(): void {
    if (this.frozenAt === null) return;
    this.offsetMs += this.frozenAt - Date.now();
    this.frozenAt = null;
  }
}

export type TestMerchant = MerchantCredentials;

export interface StartOptions {
  kind: StoreKind;
  env?: Record<string, string>;
  /** Default: a TestClock. */
  clock?: Clock;
  /** A logger of the test's own; see also `captureLogs`. */
  logger?: Logger;
  /** Log at level info into `logLines` (one JSON line each) instead of staying silent. */
  captureLogs?: boolean;
  /** The deployment's connectors, in place of the ones CONNECTORS names (test doubles of a provider). */
  connectors?: Connector[];
}

export interface TestGateway {
  kind: StoreKind;
  gateway: Gateway;
  baseUrl: string;
  clock: Clock;
  /** Filled when started with `captureLogs`. */
  logLines: string[];

  /** Raw request against the gateway (path or absolute URL); never follows redirects. */
  request(pathOrUrl: string, init?: RequestInit): Promise<HttpResult>;
  /** url-encoded POST /post. */
  post(fields: Fields, baseUrl?: string): Promise<HttpResult>;
  /** multipart/form-data POST /post. */
  postMultipart(fields: Fields, baseUrl?: string): Promise<HttpResult>;
  /** url-encoded POST to any URL (hosted pages), redirects not followed. */
  postForm(url: string, fields: Fields): Promise<HttpResult>;

  createMerchant(opts?: Partial<RegisterMerchantInput>): Promise<TestMerchant>;

  /** Signed SALE fields (Formula 1, card number or token); an explicit `hash` override wins. */
  saleFields(merchant: TestMerchant, overrides?: Fields): Fields;
  sale(merchant: TestMerchant, overrides?: Fields, options?: { multipart?: boolean; baseUrl?: string }): Promise<HttpResult & { fields: Fields }>;
  status(merchant: TestMerchant, transId: string): Promise<HttpResult>;
  statusByOrder(merchant: TestMerchant, orderId: string): Promise<HttpResult>;
  capture(merchant: TestMerchant, transId: string, amount?: string): Promise<HttpResult>;
  voidPayment(merchant: TestMerchant, transId: string): Promise<HttpResult>;
  creditVoid(merchant: TestMerchant, transId: string, amount: string): Promise<HttpResult>;
  /** A follow-up action signed with `trans_id + password`. */
  byTransId(action: string, merchant: TestMerchant, transId: string, extra?: Fields): Promise<HttpResult>;

  /** Events of `payment-<transId>`. */
  paymentEvents(transId: string): Promise<StoredEvent[]>;
  paymentEventTypes(transId: string): Promise<string[]>;
  /** Every `PaymentInitiated` of one merchant's order, across the whole store. */
  initiatedForOrder(merchant: TestMerchant, orderId: string): Promise<StoredEvent[]>;

  /**
   * Another API process on the same PostgreSQL schema and vault key (no projector of its own,
   * like a separate API role). Stopped with this gateway.
   */
  startPeer(): Promise<TestGateway>;
  stop(): Promise<void>;
}

export const TEST_PAN = '4111111111111111';
export const TEST_CVV = '987';

/** Fields of a SALE that settles in the sandbox (expiry 01/2038). */
export function defaultSaleFields(merchant: TestMerchant): Fields {
  return {
    action: 'SALE',
    client_key: merchant.client_key,
    order_id: `ord-${randomUUID()}`,
    order_amount: '10.50',
    order_currency: 'USD',
    order_description: 'Test order',
    card_number: TEST_PAN,
    card_exp_month: '01',
    card_exp_year: '2038',
    card_cvv2: TEST_CVV,
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_address: '1 Main Street',
    payer_country: 'US',
    payer_state: 'CA',
    payer_city: 'Springfield',
    payer_zip: '12345',
    payer_email: 'doe@example.com',
    payer_phone: '+15551234567',
    payer_ip: '198.51.100.7',
    term_url_3ds: 'https://merchant.example/3ds-return',
  };
}

/** Formula 1 over whatever the fields hold (card number, else card token). */
export function signSale(fields: Fields, password: string): string {
  const payerEmail = fields.payer_email || undefined;
  if (!fields.card_number && fields.card_token) {
    return saleTokenHash({ payerEmail, password, cardToken: fields.card_token });
  }
  return saleCardHash({ payerEmail, password, cardNumber: fields.card_number ?? '' });
}

export { orderIdHash, transIdHash };

function definedEntries(fields: Fields): [string, string][] {
  return Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined);
}

async function toResult(response: Response): Promise<HttpResult> {
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, body, headers: response.headers, text };
}

interface Shared {
  databaseUrl: string | null;
  vaultKey: string;
}

export async function startTestGateway(options: StartOptions): Promise<TestGateway> {
  let schema: string | null = null;
  let databaseUrl: string | null = null;
  if (options.kind === 'postgres') {
    const created = await createTestSchema('api');
    schema = created.schema;
    databaseUrl = created.url;
  }
  const shared: Shared = { databaseUrl, vaultKey: randomBytes(32).toString('hex') };
  let main: TestGateway;
  try {
    main = await startInstance(options, shared, true);
  } catch (error) {
    if (schema) await dropSchema(schema);
    throw error;
  }
  const stopMain = main.stop;
  main.stop = async () => {
    try {
      await stopMain();
    } finally {
      if (schema) await dropSchema(schema);
    }
  };
  return main;
}

async function startInstance(options: StartOptions, shared: Shared, withProjector: boolean): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), `gw-api-${options.kind}-`));
  let handler: http.RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;

  const logLines: string[] = [];
  const logger = options.logger ?? (options.captureLogs ? createJsonLogger('info', (line) => logLines.push(line)) : undefined);
  const clock = options.clock ?? new TestClock();
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    DATA_DIR: dataDir,
    GATEWAY_LOG_LEVEL: 'silent',
    VAULT_KEY: shared.vaultKey,
    GATEWAY_ENV: 'sandbox',
    // Every test client is 127.0.0.1, and many suites send wrong hashes and tokens on purpose:
    // limits on failed authentication are off unless a suite sets them (auth-throttling.test.ts).
    AUTH_FAILURE_LIMIT: 'off',
    AUTH_FAILURE_IP_LIMIT: 'off',
    AUTH_FAILURE_KEY_LIMIT: 'off',
    ...(options.kind === 'postgres' ? { EVENT_STORE: 'postgres', DATABASE_URL: shared.databaseUrl! } : { EVENT_STORE: 'sqlite' }),
    ...options.env,
  };

  let gateway: Gateway;
  try {
    gateway = await buildGateway(loadConfig(env), { withProjector, clock, logger, ...(options.connectors ? { connectors: options.connectors } : {}) });
    await gateway.projector?.start();
  } catch (error) {
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  handler = gateway.app.callback();

  const peers: TestGateway[] = [];

  const request = async (pathOrUrl: string, init: RequestInit = {}): Promise<HttpResult> => {
    const url = /^https?:/.test(pathOrUrl) ? pathOrUrl : `${baseUrl}${pathOrUrl}`;
    return toResult(await fetch(url, { redirect: 'manual', ...init }));
  };
  const postForm = (url: string, fields: Fields) =>
    request(url, { method: 'POST', body: new URLSearchParams(definedEntries(fields)) });
  const post = (fields: Fields, target = baseUrl) => postForm(`${target}/post`, fields);
  const postMultipart = (fields: Fields, target = baseUrl) => {
    const form = new FormData();
    for (const [k, v] of definedEntries(fields)) form.append(k, v);
    return request(`${target}/post`, { method: 'POST', body: form });
  };

  const saleFields = (merchant: TestMerchant, overrides: Fields = {}): Fields => {
    const fields: Fields = { ...defaultSaleFields(merchant), ...overrides };
    if (!('hash' in overrides)) fields.hash = signSale(fields, merchant.password);
    return fields;
  };

  const byTransId = (action: string, merchant: TestMerchant, transId: string, extra: Fields = {}) =>
    post({ action, client_key: merchant.client_key, trans_id: transId, hash: transIdHash(transId, merchant.password), ...extra });

  const paymentEvents = (transId: string) => gateway.store.readStream(paymentStreamId(transId));

  const instance: TestGateway = {
    kind: options.kind,
    gateway,
    baseUrl,
    clock,
    logLines,
    request,
    post,
    postMultipart,
    postForm,
    createMerchant: (opts = {}) => gateway.merchants.register({ name: `Merchant ${randomUUID().slice(0, 8)}`, ...opts }),
    saleFields,
    async sale(merchant, overrides = {}, opts = {}) {
      const fields = saleFields(merchant, overrides);
      const result = opts.multipart ? await postMultipart(fields, opts.baseUrl) : await post(fields, opts.baseUrl);
      return { ...result, fields };
    },
    status: (merchant, transId) => byTransId('GET_TRANS_STATUS', merchant, transId),
    statusByOrder: (merchant, orderId) =>
      post({
        action: 'GET_TRANS_STATUS_BY_ORDER',
        client_key: merchant.client_key,
        order_id: orderId,
        hash: orderIdHash(orderId, merchant.password),
      }),
    capture: (merchant, transId, amount) => byTransId('CAPTURE', merchant, transId, { amount }),
    voidPayment: (merchant, transId) => byTransId('VOID', merchant, transId),
    creditVoid: (merchant, transId, amount) => byTransId('CREDITVOID', merchant, transId, { amount }),
    byTransId,
    paymentEvents,
    async paymentEventTypes(transId) {
      return (await paymentEvents(transId)).map((e) => e.type);
    },
    async initiatedForOrder(merchant, orderId) {
      const all = await gateway.store.readAll();
      return all.filter(
        (e) => e.type === 'PaymentInitiated' && e.data.orderId === orderId && e.data.merchantId === merchant.merchant_id,
      );
    },
    async startPeer() {
      if (options.kind !== 'postgres') throw new Error('A peer API process needs a shared PostgreSQL database');
      const peer = await startInstance({ ...options, captureLogs: false, logger: undefined, clock }, shared, false);
      peers.push(peer);
      return peer;
    },
    async stop() {
      for (const peer of peers.splice(0)) await peer.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      try {
        await gateway.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
  return instance;
}

/**
 * Declares the suite once per store kind, one gateway per suite (merchants are per test, so tests
 * stay independent). The PostgreSQL run skips (or fails under CI) without a server.
 */
export function forEachStore(
  title: string,
  body: (h: () => TestGateway, kind: StoreKind) => void,
  options: Omit<StartOptions, 'kind'> = {},
): void {
  for (const kind of STORE_KINDS) {
    describe(`${title} [${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}]`, function () {
      if (kind === 'postgres') requirePostgres(this);
      let current: TestGateway | undefined;
      before(async function () {
        current = await startTestGateway({ kind, ...options });
      });
      after(async function () {
        await current?.stop();
        current = undefined;
      });
      body(() => {
        if (!current) throw new Error('gateway not started');
        return current;
      }, kind);
    });
  }
}

/** `YYYY-MM-DD HH:MM:SS`. */
export const TRANS_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
