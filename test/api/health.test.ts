import { expect } from 'chai';
import { forEachStore } from '../support/gateway-harness';

forEachStore('GET /health', (h) => {
  it('reports the event store head and how far each read model is behind it', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    await g.sale(merchant);
    await g.gateway.readModels.catchUpToHead();
    const health = await g.request('/health');
    expect(health.status).to.equal(200);
    expect(health.body.status).to.equal('ok');
    expect(BigInt(health.body.event_store_head)).to.equal(await g.gateway.store.headPosition());
    expect(health.body.projection_lag).to.deep.equal({ payments: 0, transactions: 0, merchants: 0 });
  });
});
