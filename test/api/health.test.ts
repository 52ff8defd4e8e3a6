import { expect } from 'chai';
import { allProjectionNames, allProjections } from '../../projections';
import { forEachStore, type TestGateway } from '../support/gateway-harness';

async function checkpointOf(g: TestGateway): Promise<bigint> {
  return (await g.gateway.readModels.checkpoints()).notifier;
}

forEachStore('GET /health', (h) => {
  it('reports the event store head and how far each read model is behind it', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    await g.sale(merchant);
    await g.gateway.readModels.catchUpToHead(2000, allProjectionNames());
    const health = await g.request('/health');
    expect(health.status).to.equal(200);
    expect(health.body.status).to.equal('ok');
    expect(BigInt(health.body.event_store_head)).to.equal(await g.gateway.store.headPosition());
    expect(health.body.projection_lag).to.deep.equal(Object.fromEntries(allProjections().map((p) => [p.name, 0])));
  });

  it('reports the notifier lag beside the projections once it runs', async () => {
    const g = h();
    await g.gateway.notifier.start();
    await g.sale(await g.createMerchant());
    await g.gateway.notifier.catchUp();
    await g.gateway.notifier.stop(); // saves its checkpoint
    const health = await g.request('/health');
    expect(health.body.projection_lag.notifier).to.equal(Number((await g.gateway.store.headPosition())! - (await checkpointOf(g))));
  });
});
