/**
 * Checkout session creation under load: signed `POST /api/v1/session` JSON bodies, each with an
 * order number of its own, against the gateway (role all, as `npm start` runs it) in a child
 * process of its own, with the SALE run's connections, duration and warm-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkoutHash } from '../../src/domain/signatures';
import { BenchFailure, freePort, makeTempDir, removeTempDir, startGateway, stopServer, type ServerChild } from './children';
import { runLoad, type LoadSummary } from './load';

/**
 * Session bodies with a fixed-width unique order number. The hash covers the order number, so
 * it is computed per body (one md5 and one sha1, small next to the request itself).
 */
export function sessionBodyFactory(input: { merchantKey: string; password: string }, runTag: string): { next(): string; sample(): string } {
  const order = { amount: '10.00', currency: 'USD', description: 'Benchmark order' };
  let counter = 0;
  const body = (n: number) => {
    const number = `bench-${runTag}-${String(n).padStart(10, '0')}`;
    return JSON.stringify({
      merchant_key: input.merchantKey,
      operation: 'purchase',
      methods: ['card'],
      order: { number, ...order },
      success_url: 'https://merchant.example.com/success',
      cancel_url: 'https://merchant.example.com/cancel',
      customer: { name: 'Jane Doe', email: 'jane.doe@example.com' },
      billing_address: { country: 'US', state: 'CA', city: 'Los Angeles', address: '1 Main Street', zip: '90001' },
      hash: checkoutHash([number, order.amount, order.currency, order.description], input.password),
    });
  };
  return { next: () => body(++counter), sample: () => body(0) };
}

const SESSION_SUCCESS = { marker: '"redirect_url":"', check: (json: Record<string, unknown>) => typeof json.redirect_url === 'string' };

export async function benchSession(
  settings: { durationS: number; connections: number; warmupS: number },
  runTag: string,
  gatewayEnv: NodeJS.ProcessEnv,
): Promise<{ warm: LoadSummary; load: LoadSummary; bodyBytes: number }> {
  const dataDir = makeTempDir('gateway-bench-session-');
  let gateway: ServerChild | null = null;
  try {
    gateway = await startGateway({
      name: 'gateway',
      env: { ...gatewayEnv, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' },
      port: await freePort(),
    });
    const merchant = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as { merchant_key?: string; password?: string };
    if (!merchant.merchant_key || !merchant.password) throw new BenchFailure('demo-merchant.json lacks merchant_key or password');
    const bodies = sessionBodyFactory({ merchantKey: merchant.merchant_key, password: merchant.password }, `${runTag}-s`);
    const run = {
      url: `${gateway.baseUrl}/api/v1/session`,
      connections: settings.connections,
      contentType: 'application/json',
      success: SESSION_SUCCESS,
      nextBody: bodies.next,
    };
    const warm = await runLoad({ ...run, durationS: settings.warmupS });
    const load = await runLoad({ ...run, durationS: settings.durationS });
    return { warm, load, bodyBytes: Buffer.byteLength(bodies.sample()) };
  } finally {
    if (gateway) await stopServer(gateway);
    removeTempDir(dataDir);
  }
}
