/**
 * A merchant reading its own write from a gateway as `npm start` runs it (role all): the read
 * models are written by the projector's thread, which gathers live events before writing them; a
 * status lookup waiting for its SALE tells that thread, which then writes at once.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadModelDb, migrateReadModels } from '../../projections/database';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import { NO_STREAM } from '../../src/application/ports/event-store';
import { readModelTarget } from '../../src/storage-targets';
import { loadConfig } from '../../src/config';
import { startProjectorThread } from '../../src/workers/projector-thread';
import { orderIdHash } from '../../src/domain/signatures';
import { runGateway, type RunningGateway } from '../../src/server';
import { defaultSaleFields, signSale, type Fields } from '../support/gateway-harness';

describe('the projector on its own thread of a running gateway', function () {
  this.timeout(60_000);
  let dataDir = '';
  let running: RunningGateway | undefined;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'projector-thread-'));
    // A gathering far longer than a status lookup waits (two seconds): only hurrying the projector
    // can answer it.
    running = await runGateway(
      loadConfig({ DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite', PROJECTOR_GATHER_MS: '60000' }),
      'all',
    );
  });

  after(async () => {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (fields: Fields): Promise<Record<string, string>> => {
    const body = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
    const res = await fetch(`${running!.baseUrl}/post`, { method: 'POST', body });
    return (await res.json()) as Record<string, string>;
  };

  it('Given a SALE just answered, when the merchant asks for the status by order, then the read models have it: the projector wrote it without gathering more', async () => {
    const merchant = running!.demoMerchant!;
    for (const orderId of ['hurry-1', 'hurry-2']) {
      const fields: Fields = { ...defaultSaleFields({ client_key: merchant.client_key } as never), order_id: orderId };
      fields.hash = signSale(fields, merchant.password);
      const sale = await post(fields);
      expect(sale.status).to.equal('SETTLED');

      const status = await post({
        action: 'GET_TRANS_STATUS_BY_ORDER',
        client_key: merchant.client_key,
        order_id: orderId,
        hash: orderIdHash(orderId, merchant.password),
      });

      expect(status).to.include({ result: 'SUCCESS', status: 'SETTLED', order_id: orderId, trans_id: sale.trans_id });
    }
  });
});

describe('the projector\'s thread, as the HTTP thread\'s status lookups follow it', function () {
  this.timeout(30_000);

  it('tells, through its applied signal, each batch it writes: a lookup waits on that, not on a poll of the checkpoints', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'projector-thread-applied-'));
    const config = loadConfig({ DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite' });
    const readDb = createReadModelDb(readModelTarget(config));
    await migrateReadModels(readDb);
    const store = new SqliteEventStore({ filename: join(dataDir, 'events.db'), writerThread: true });
    const thread = await startProjectorThread(config, createJsonLogger('silent'), store.commitSignal());
    try {
      const before = thread.applied.count();
      await store.append(`probe-${randomUUID()}`, [{ id: randomUUID(), type: 'ProbeRecorded', schemaVersion: 1, data: {} }], NO_STREAM);

      await thread.applied.changedSince(before, 5000);

      expect(thread.applied.count(), 'a batch applied').to.not.equal(before);
    } finally {
      await thread.stop();
      await store.close();
      await readDb.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
