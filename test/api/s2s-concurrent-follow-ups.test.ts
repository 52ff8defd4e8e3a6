/**
 * Given one payment, when merchants fire the same follow-up many times at once (a retrying client,
 * two workers), then the acquirer is asked once per accepted operation and money never moves twice.
 */
import { expect } from 'chai';
import { forEachStore } from '../support/gateway-harness';

forEachStore('S2S CARD concurrent follow-ups', (h) => {
  it('10 concurrent CAPTUREs of one authorization: exactly one capture happens', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    const auth = await g.sale(merchant, { auth: 'Y', order_amount: '30.00' });
    expect(auth.body.status).to.equal('PENDING');

    const answers = await Promise.all(Array.from({ length: 10 }, () => g.capture(merchant, auth.body.trans_id)));

    const captured = answers.filter((a) => a.body.result === 'SUCCESS');
    expect(captured).to.have.length(1);
    for (const refused of answers.filter((a) => a.body.result !== 'SUCCESS')) {
      expect(refused.status).to.equal(400);
      expect(refused.body.result).to.equal('ERROR');
    }
    const types = await g.paymentEventTypes(auth.body.trans_id);
    expect(types.filter((t) => t === 'CaptureRequested')).to.have.length(1);
    expect(types.filter((t) => t === 'CaptureSucceeded')).to.have.length(1);
    expect((await g.status(merchant, auth.body.trans_id)).body.status).to.equal('SETTLED');
  });

  it('10 concurrent partial CREDITVOIDs of 10.00 on a 30.00 sale: never more than 30.00 refunded', async () => {
    const g = h();
    const merchant = await g.createMerchant();
    const sale = await g.sale(merchant, { order_amount: '30.00' });
    expect(sale.body.status).to.equal('SETTLED');

    const answers = await Promise.all(Array.from({ length: 10 }, () => g.creditVoid(merchant, sale.body.trans_id, '10.00')));

    const accepted = answers.filter((a) => a.body.result === 'ACCEPTED').length;
    expect(accepted).to.be.at.least(1).and.at.most(3);
    const events = await g.paymentEvents(sale.body.trans_id);
    const refunded = events
      .filter((e) => e.type === 'RefundSucceeded')
      .reduce((sum, e) => sum + (e.data.amount as number), 0);
    expect(refunded).to.equal(accepted * 1000);
    expect(refunded).to.be.at.most(3000);
    const status = (await g.status(merchant, sale.body.trans_id)).body.status;
    expect(status).to.equal(refunded === 3000 ? 'REFUND' : 'SETTLED');
  });
});
