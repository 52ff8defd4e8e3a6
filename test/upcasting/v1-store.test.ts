/**
 * Upgrading a gateway whose store was written by the previous release: every PaymentDeclined is
 * schema version 1 (no decline code) and no event has a chain hash. The store opens, is chained,
 * verifies, and merchants and operators see the old payments exactly as before, now with codes.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { verifyEventLog } from '../../src/application/audit/verifier';
import { loadState } from '../../src/application/command-handler';
import { paymentDecider } from '../../src/domain/payment/decider';
import { paymentStreamId } from '../../src/domain/payment/events';
import { PREVIOUS_RELEASE_SQLITE_EVENTS } from '../support/previous-release-schema';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';

interface FixtureEvent {
  streamId: string;
  version: number;
  id: string;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recordedAt: string;
}

const fixture = JSON.parse(readFileSync(join(__dirname, '../fixtures/v1-store.json'), 'utf8')) as {
  vaultKey: string;
  merchant: { merchantId: string; clientKey: string; password: string };
  payments: Record<'settled' | 'declinedByIssuer' | 'declined3ds' | 'cancelledRedirect' | 'abandoned3ds' | 'authorized', string>;
  events: FixtureEvent[];
};

function writePreviousReleaseStore(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(PREVIOUS_RELEASE_SQLITE_EVENTS);
    const insert = db.prepare(
      'INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const e of fixture.events) {
      insert.run(e.streamId, e.version, e.id, e.type, e.schemaVersion, JSON.stringify(e.data), JSON.stringify(e.metadata), e.recordedAt);
    }
  } finally {
    db.close();
  }
}

describe('a store written before PaymentDeclined had a decline code', function () {
  let dataDir: string;
  let h: TestGateway;
  const merchant = { client_key: fixture.merchant.clientKey, password: fixture.merchant.password } as TestMerchant;
  const ids = fixture.payments;

  before(async function () {
    dataDir = mkdtempSync(join(tmpdir(), 'v1-store-'));
    writePreviousReleaseStore(join(dataDir, 'events.db'));
    h = await startTestGateway({ kind: 'sqlite', env: { DATA_DIR: dataDir, VAULT_KEY: fixture.vaultKey } });
  });

  after(async function () {
    await h?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fixture: holds version 1 declines only', function () {
    const declines = fixture.events.filter((e) => e.type === 'PaymentDeclined');
    expect(declines).to.have.length(4);
    for (const e of declines) {
      expect(e.schemaVersion).to.equal(1);
      expect(e.data).to.not.have.property('code');
    }
  });

  it('answers status lookups of the old payments as the previous release did', async function () {
    const expected: Array<[string, string, string | undefined]> = [
      [ids.settled, 'SETTLED', undefined],
      [ids.declinedByIssuer, 'DECLINED', 'Declined by issuer'],
      [ids.declined3ds, 'DECLINED', '3-D Secure authentication failed'],
      [ids.cancelledRedirect, 'DECLINED', 'Payment cancelled by payer'],
      [ids.abandoned3ds, 'DECLINED', '3-D Secure authentication was not completed in time'],
      [ids.authorized, 'PENDING', undefined],
    ];
    for (const [id, status, reason] of expected) {
      const res = await h.status(merchant, id);
      expect(res.body, id).to.include({ result: 'SUCCESS', status, trans_id: id });
      expect(res.body.decline_reason, id).to.equal(reason);
    }
  });

  it('gives every old decline the code the decider records today, in the read model and on the command side', async function () {
    const codes: Array<[string, string]> = [
      [ids.declinedByIssuer, 'do_not_honor'],
      [ids.declined3ds, '3ds_failed'],
      [ids.cancelledRedirect, 'payer_cancelled'],
      [ids.abandoned3ds, 'payer_timeout'],
    ];
    for (const [id, code] of codes) {
      const row = await h.gateway.readModels.paymentById(id);
      expect(row!.state.declineCode, `read model of ${id}`).to.equal(code);
      const { state } = await loadState(h.gateway.store, paymentStreamId(id), paymentDecider);
      expect(state.exists && state.declineCode, `state of ${id}`).to.equal(code);
    }
  });

  it('reads upcast events through the gateway but never rewrites what is stored', async function () {
    const [, declined] = await h.gateway.store.readStream(paymentStreamId(ids.declinedByIssuer));
    expect(declined).to.include({ type: 'PaymentDeclined', schemaVersion: 2 });
    expect(declined!.data).to.include({ code: 'do_not_honor', reason: 'Declined by issuer', stage: 'authorization' });

    const [, stored] = await h.gateway.rawStore.readStream(paymentStreamId(ids.declinedByIssuer));
    expect(stored).to.include({ type: 'PaymentDeclined', schemaVersion: 1, chainHash: declined!.chainHash });
    expect(stored!.data).to.not.have.property('code');
  });

  it('shows an auditor the old event as stored in the payment history, and the state in today\'s shape', async function () {
    const history = (await h.request(`/admin/payments/${ids.declinedByIssuer}/history`, {
      headers: { Authorization: `Bearer ${h.gateway.adminToken}` },
    })).body;
    const declined = history.events.find((e: { type: string }) => e.type === 'PaymentDeclined');
    expect(declined).to.include({ schema_version: 1 });
    expect(declined.data).to.not.have.property('code');
    expect(history.state).to.include({ status: 'DECLINED', declineCode: 'do_not_honor' });
  });

  it('chains the old history on upgrade, so the whole store verifies', async function () {
    const report = await verifyEventLog(h.gateway.rawStore);
    expect(report).to.include({ ok: true, broken: null });
    expect(report.events).to.be.at.least(fixture.events.length);
  });

  it('runs commands on old payments: the authorization from before the upgrade is captured', async function () {
    const res = await h.capture(merchant, ids.authorized);
    expect(res.body).to.include({ action: 'CAPTURE', result: 'SUCCESS', status: 'SETTLED' });
    expect((await h.status(merchant, ids.authorized)).body).to.include({ status: 'SETTLED' });
    expect(await verifyEventLog(h.gateway.rawStore)).to.include({ ok: true });
  });

  it('records declines from now on at version 2, with their code', async function () {
    const sale = await h.sale(merchant, { card_exp_month: '02', card_exp_year: '2038' });
    expect(sale.body).to.include({ result: 'DECLINED', status: 'DECLINED' });
    const events = await h.gateway.rawStore.readStream(paymentStreamId(sale.body.trans_id));
    const declined = events.find((e) => e.type === 'PaymentDeclined')!;
    expect(declined.schemaVersion).to.equal(2);
    expect(declined.data).to.include({ code: 'do_not_honor' });
  });
});
