/**
 * Given a projector that has stopped, when a merchant asks for a payment it just made, then the
 * answer still comes from the payment's stream: the read model being behind never loses a payment.
 */
import { expect } from 'chai';
import { requirePostgres } from '../support/postgres';
import { startTestGateway, STORE_KINDS, type TestGateway } from '../support/gateway-harness';

for (const kind of STORE_KINDS) {
  describe(`GET_TRANS_STATUS while the read models are behind [${kind}]`, function () {
    if (kind === 'postgres') requirePostgres(this);
    this.timeout(20_000);
    let g: TestGateway;
    before(async () => {
      g = await startTestGateway({ kind });
    });
    after(async () => {
      await g?.stop();
    });

    it('answers from the stream after waiting a bounded time for the projector', async () => {
      const merchant = await g.createMerchant();
      const other = await g.createMerchant();
      await g.gateway.readModels.catchUpToHead();
      await g.gateway.projector!.stop();

      const sale = await g.sale(merchant);
      expect(sale.body.status).to.equal('SETTLED');
      const started = Date.now();
      const status = await g.status(merchant, sale.body.trans_id);
      expect(status.body).to.include({ result: 'SUCCESS', status: 'SETTLED', trans_id: sale.body.trans_id });
      expect(Date.now() - started).to.be.below(5_000);

      const foreign = await g.status(other, sale.body.trans_id);
      expect(foreign.body).to.include({ error_code: 101000, error_message: 'Transaction does not exist.' });
    });
  });
}
