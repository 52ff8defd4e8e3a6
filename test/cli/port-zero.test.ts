import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { runGateway, type RunningGateway } from '../../src/server';
import { defaultSaleFields, signSale, type Fields } from '../support/gateway-harness';

describe('start-up: PORT=0 without PUBLIC_BASE_URL', function () {
  this.timeout(60_000);
  let running: RunningGateway | undefined;
  let dataDir = '';

  before(async function () {
    dataDir = mkdtempSync(join(tmpdir(), 'port-zero-'));
    running = await runGateway(loadConfig({ DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite' }), 'all');
  });

  after(async function () {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given a gateway on a port the system chose, when a SALE needs 3-D Secure, then its redirect_url names the port the gateway listens on', async function () {
    const merchant = running!.demoMerchant!;
    const fields: Fields = { ...defaultSaleFields({ client_key: merchant.client_key } as never), order_id: 'port-zero-3ds', card_exp_month: '05', card_exp_year: '2038' };
    fields.hash = signSale(fields, merchant.password);
    const body = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
    const answer = (await (await fetch(`${running!.baseUrl}/post`, { method: 'POST', body })).json()) as { status: string; redirect_url: string };
    expect(answer.status).to.equal('3DS');
    const port = new URL(running!.baseUrl).port;
    expect(port).to.not.equal('0');
    expect(new URL(answer.redirect_url).port).to.equal(port);
  });
});
