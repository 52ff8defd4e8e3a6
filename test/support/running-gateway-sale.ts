/**
 * A gateway started with `runGateway` (as `npm start` runs it) and card SALEs over HTTP to it,
 * signed for its demo merchant.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { runGateway, type RunningGateway } from '../../src/server';
import { CallbackReceiver } from './callback-receiver';
import { defaultSaleFields, signSale, type Fields } from './gateway-harness';

/** Answers the transaction id of the SETTLED payment. */
export async function settledSaleOver(running: RunningGateway, orderId: string, extra: Fields = {}): Promise<string> {
  const merchant = running.demoMerchant!;
  const fields: Fields = { ...defaultSaleFields({ client_key: merchant.client_key } as never), order_id: orderId, ...extra };
  fields.hash = signSale(fields, merchant.password);
  const body = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
  const answer = (await (await fetch(`${running.baseUrl}/post`, { method: 'POST', body })).json()) as { status: string; trans_id: string };
  expect(answer.status).to.equal('SETTLED');
  return answer.trans_id;
}

/**
 * Registers mocha hooks that start, before the suite, a gateway as `npm start` runs it (role all,
 * SQLite, a DATA_DIR of its own) and a receiver of its callbacks, and stop both after it.
 */
export function runningGatewayWithCallbacks(dirPrefix: string) {
  const receiver = new CallbackReceiver();
  let running: RunningGateway | undefined;
  let dataDir = '';

  before(async () => {
    await receiver.start();
    dataDir = mkdtempSync(join(tmpdir(), dirPrefix));
    running = await runGateway(loadConfig({ DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite' }), 'all');
  });

  after(async () => {
    await running?.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    receiver,
    running: () => running!,
    dataDir: () => dataDir,
    /** A settled SALE whose callbacks go to the receiver. */
    sale: (orderId: string) => settledSaleOver(running!, orderId, { notification_url: receiver.url }),
  };
}
