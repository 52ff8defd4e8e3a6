/**
 * S2S APM payments are covered by the operators' tools like card payments: the payment's history
 * over the admin API (its method, no card), the audit of the event log's chains, and the check that
 * the read models are what a replay of the events gives.
 */
import { expect } from 'chai';
import { verifyProjections } from '../../projections/rebuild';
import { verifyEventLog } from '../../src/application/audit/verifier';
import { apmCreditVoid, apmSale, postNotification, providerNotification } from '../support/apm-client';
import { forEachStore } from '../support/gateway-harness';

forEachStore('S2S APM: history, audit and read models', (h) => {
  it('Given APM payments decided every way, Then history shows the method, the log verifies and the read models match a replay', async () => {
    const merchant = await h().createMerchant();
    const settled = (await apmSale(h(), merchant, { payer_email: 'success@gmail.com' })).body.trans_id as string;
    await apmCreditVoid(h(), merchant, settled, '2.50');
    const qr = (await apmSale(h(), merchant, { brand: 'sb-qr' })).body.trans_id as string;
    await postNotification(h(), 'sandbox-apm', providerNotification(h(), qr, 'approve', { vocabulary: 'qr' }));
    await apmSale(h(), merchant, { brand: 'sb-crypto', 'parameters[crypto_type]': 'BTC' });

    const history = await h().request(`/admin/payments/${qr}/history`, { headers: { Authorization: `Bearer ${h().gateway.adminToken}` } });
    expect(history.status).to.equal(200);
    expect(history.body.events.map((e: { type: string }) => e.type)).to.deep.equal(['PaymentInitiated', 'PayerRedirectRequired', 'PaymentSettled']);
    expect(history.body.state).to.include({ channel: 's2s_apm', status: 'SETTLED' });
    expect(history.body.state.method).to.include({ brand: 'sb-qr' });
    expect(history.body.state).not.to.have.property('card');

    expect((await verifyEventLog(h().gateway.rawStore)).ok).to.equal(true);
    await h().gateway.readModels.catchUpToHead(5000);
    expect(await verifyProjections({ store: h().gateway.store, db: h().gateway.readDb })).to.deep.equal([]);
  });
});
