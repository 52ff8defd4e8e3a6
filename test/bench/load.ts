/**
 * Load generation for the benchmark: SALE form bodies with a unique order_id per request (Checkout
 * session bodies are in session.ts), and a thin wrapper over the load generator (a dev dependency)
 * that checks every response.
 *
 * Errors are non-2xx answers, connection errors, timeouts, and 2xx answers that are not a success
 * (for SALE: JSON `result` not SUCCESS): a quick substring test on every body, plus a full JSON
 * parse of every 50th body to make sure the substring test is not fooling us.
 */
import { apmSaleHash, saleCardHash } from '../../src/domain/signatures';

// The load generator has no bundled type declarations; the small part used here is typed below.
const generate: LoadGenerator = require('autocannon');

interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  pipelining?: number;
  timeout?: number;
  method?: string;
  headers?: Record<string, string>;
  requests?: Array<{
    setupRequest?: (req: LoadRequest, context: Record<string, unknown>) => LoadRequest;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }>;
}

interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  p99_9: number;
  [key: string]: number;
}

interface LoadResult {
  duration: number;
  latency: Histogram;
  requests: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

interface LoadInstance {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, responseTimeMs: number) => void): unknown;
}

type LoadGenerator = (options: LoadOptions, callback: (error: Error | null, result: LoadResult) => void) => LoadInstance;

export interface SaleFormInput {
  clientKey: string;
  password: string;
}

const PAYER_EMAIL = 'jane.doe@example.com';
const CARD_NUMBER = '4111111111111111';

/**
 * Builds SALE bodies as prefix + order_id + suffix. The order_id has a fixed width, so every body
 * has the same length, and the hash is computed once: it does not cover order_id.
 */
export function saleBodyFactory(
  input: SaleFormInput,
  runTag: string,
  /** Further fields every SALE carries (e.g. a notification_url). */
  extraFields: Record<string, string> = {},
): { next(): string; sample(): string } {
  const hash = saleCardHash({ payerEmail: PAYER_EMAIL, password: input.password, cardNumber: CARD_NUMBER });
  const head = new URLSearchParams({ action: 'SALE', client_key: input.clientKey }).toString();
  const tail = new URLSearchParams({
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Benchmark order',
    card_number: CARD_NUMBER,
    card_exp_month: '01',
    card_exp_year: '2038',
    card_cvv2: '123',
    payer_first_name: 'Jane',
    payer_last_name: 'Doe',
    payer_address: '1 Main Street',
    payer_country: 'US',
    payer_state: 'CA',
    payer_city: 'Los Angeles',
    payer_zip: '90001',
    payer_email: PAYER_EMAIL,
    payer_phone: '12135550100',
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://merchant.example.com/3ds-return',
    hash,
    ...extraFields,
  }).toString();
  const prefix = `${head}&order_id=bench-${runTag}-`;
  const suffix = `&${tail}`;
  let counter = 0;
  return {
    next: () => `${prefix}${String(++counter).padStart(10, '0')}${suffix}`,
    sample: () => `${prefix}${'0'.repeat(10)}${suffix}`,
  };
}

/**
 * S2S APM SALE bodies of the sandbox's redirect method, decided at once by the payer's email
 * (`success@gmail.com` settles, docs/apm.md#how-the-sandbox-decides). The APM hash covers order_id, so each body is
 * signed on its own.
 */
export function apmSaleBodyFactory(input: SaleFormInput, runTag: string): { next(): string; sample(): string } {
  const head = new URLSearchParams({ action: 'SALE', client_key: input.clientKey, brand: 'sb-redirect' }).toString();
  const fixed = new URLSearchParams({
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Benchmark APM order',
    identifier: 'bench-payer',
    payer_email: 'success@gmail.com',
    payer_ip: '203.0.113.10',
    return_url: 'https://merchant.example.com/apm-return',
  }).toString();
  let counter = 0;
  const body = (n: number) => {
    const orderId = `bench-apm-${runTag}-${String(n).padStart(10, '0')}`;
    const hash = apmSaleHash({ identifier: 'bench-payer', orderId, orderAmount: '10.00', orderCurrency: 'USD', password: input.password });
    return `${head}&order_id=${orderId}&${fixed}&hash=${hash}`;
  };
  return { next: () => body(++counter), sample: () => body(0) };
}

export interface LoadSummary {
  durationS: number;
  connections: number;
  requestsTotal: number;
  requestsPerSec: number;
  /** Exact percentiles of every 2xx response time (sub-millisecond). */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** The load generator's own histogram, which has whole-millisecond resolution. */
  latencyHistogramMs: { p50: number; p99: number };
  errors: { non2xx: number; connectionErrors: number; timeouts: number; notSuccess: number; total: number; rate: number };
  statusCodes: Record<string, number>;
  badBodySamples: string[];
}

export interface LoadRun {
  url: string;
  connections: number;
  durationS: number;
  nextBody: () => string;
  /** Default: a url-encoded form, as SALE is sent. */
  contentType?: string;
  /**
   * What a successful 2xx body contains (`marker`, tested on every body) and satisfies (`check`,
   * on every 50th body's JSON). Default: SALE's `"result":"SUCCESS"`.
   */
  success?: { marker: string; check: (json: Record<string, unknown>) => boolean };
}

const SALE_SUCCESS: NonNullable<LoadRun['success']> = { marker: '"result":"SUCCESS"', check: (json) => json.result === 'SUCCESS' };

export async function runLoad(run: LoadRun): Promise<LoadSummary> {
  const success = run.success ?? SALE_SUCCESS;
  let notSuccess = 0;
  let checked = 0;
  const badBodySamples: string[] = [];
  const noteBad = (status: number, body: string) => {
    if (badBodySamples.length < 5) badBodySamples.push(`${status} ${body.slice(0, 300)}`);
  };
  const times: number[] = [];
  const result = await new Promise<LoadResult>((resolve, reject) => {
    const instance = generate(
      {
        url: run.url,
        connections: run.connections,
        duration: run.durationS,
        pipelining: 1,
        timeout: 10,
        method: 'POST',
        headers: { 'content-type': run.contentType ?? 'application/x-www-form-urlencoded' },
        requests: [
          {
            setupRequest(req) {
              req.method = 'POST';
              req.body = run.nextBody();
              return req;
            },
            onResponse(status, body) {
              if (status < 200 || status > 299) {
                noteBad(status, body);
                return;
              }
              let ok = body.includes(success.marker);
              if (ok && ++checked % 50 === 0) {
                try {
                  ok = success.check(JSON.parse(body) as Record<string, unknown>);
                } catch {
                  ok = false;
                }
              }
              if (!ok) {
                notSuccess++;
                noteBad(status, body);
              }
            },
          },
        ],
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on('response', (_client, status, _bytes, responseTimeMs) => {
      if (status >= 200 && status <= 299) times.push(responseTimeMs);
    });
  });
  const total = result.requests.total;
  const latency = percentiles(times);
  const errorTotal = result.non2xx + result.errors + result.timeouts + notSuccess;
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats)) statusCodes[code] = stat.count;
  return {
    durationS: result.duration,
    connections: run.connections,
    requestsTotal: total,
    requestsPerSec: result.requests.average,
    latencyMs: latency,
    latencyHistogramMs: { p50: result.latency.p50, p99: result.latency.p99 },
    errors: {
      non2xx: result.non2xx,
      connectionErrors: result.errors,
      timeouts: result.timeouts,
      notSuccess,
      total: errorTotal,
      rate: total + result.errors + result.timeouts > 0 ? errorTotal / (total + result.errors + result.timeouts) : 1,
    },
    statusCodes,
    badBodySamples,
  };
}

/** Nearest-rank percentile of ascending values: the smallest with at least p% of them at or below it. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function percentiles(values: number[]): LoadSummary['latencyMs'] {
  if (values.length === 0) return { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => round2(nearestRank(sorted, p));
  let sum = 0;
  for (const v of sorted) sum += v;
  return { p50: at(50), p90: at(90), p99: at(99), max: round2(sorted[sorted.length - 1]), mean: round2(sum / sorted.length) };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
