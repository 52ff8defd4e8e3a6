/**
 * A gateway started on a store someone edited by hand refuses to serve it: given a store whose
 * recent payment was changed in the database, when `npm start` runs, then it exits with code 3 and
 * names the broken link; with `--allow-broken-log` (forensics) it starts and says so in its banner.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { saleCardHash } from '../../src/domain/signatures';
import { runGatewayToExit, startGatewayProcess } from '../support/gateway-process';

describe('Starting on a tampered event log', function () {
  this.timeout(120_000);
  let dataDir: string;
  let transId: string;

  before(async () => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-tampered-')), 'data');
    const gateway = await startGatewayProcess(dataDir);
    try {
      const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8'));
      const response = await fetch(`${gateway.baseUrl}/post`, {
        method: 'POST',
        body: new URLSearchParams({
          action: 'SALE', client_key: demo.client_key, order_id: 'tamper-1', order_amount: '12.34', order_currency: 'EUR',
          order_description: 'Tamper test', card_number: '4111111111111111', card_exp_month: '01', card_exp_year: '2038',
          card_cvv2: '123', payer_first_name: 'Ada', payer_last_name: 'Lovelace', payer_email: 'ada@example.com',
          payer_ip: '203.0.113.7', term_url_3ds: 'https://shop.example/return',
          hash: saleCardHash({ payerEmail: 'ada@example.com', password: demo.password, cardNumber: '4111111111111111' }),
        }),
      });
      transId = ((await response.json()) as { trans_id: string }).trans_id;
    } finally {
      await gateway.stop();
    }
  });
  after(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it('Given an untouched store, when the gateway starts again, then it serves', async () => {
    const gateway = await startGatewayProcess(dataDir);
    await gateway.stop();
    expect(gateway.output()).not.to.include('WARNING');
  });

  it('Given a settled amount changed in the database, when the gateway starts, then it exits with code 3 naming the broken link, and with --allow-broken-log it starts with a warning', async () => {
    const db = new Database(path.join(dataDir, 'events.db'));
    const changed = db
      .prepare("UPDATE events SET data = json_set(data, '$.amount', 1) WHERE stream_id = ? AND type = 'PaymentSettled'")
      .run(`payment-${transId}`);
    db.close();
    expect(changed.changes).to.equal(1);

    const refused = await runGatewayToExit(dataDir);
    expect(refused.code, refused.output).to.equal(3);
    expect(refused.output).to.include(`Refusing to start: The event log failed verification: BROKEN payment-${transId} version 1: hash does not match its content`);
    expect(refused.output).to.include('--allow-broken-log');

    const forensic = await startGatewayProcess(dataDir, ['--allow-broken-log']);
    await forensic.stop();
    expect(forensic.output()).to.include(`WARNING: started with --allow-broken-log on an event log that failed verification: BROKEN payment-${transId} version 1`);
  });
});
