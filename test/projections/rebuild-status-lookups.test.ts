/**
 * What a merchant sees while an operator rebuilds the read models: status lookups keep answering
 * with the right status all through the replay and the swap, and payments made meanwhile show up.
 * The rebuild uses a connection of its own, as `npm run gateway -- projections rebuild` run next to
 * the server does.
 */
import { expect } from 'chai';
import { createReadModelDb } from '../../projections/database';
import { rebuildProjections, verifyProjections } from '../../projections/rebuild';
import { readModelTarget } from '../../src/storage-targets';
import { forEachStore, type TestMerchant } from '../support/gateway-harness';

forEachStore('status lookups while the read models are rebuilt', (h) => {
  it('keep answering with the right status while a rebuild replays and swaps, and the projector carries on after it', async function () {
    this.timeout(60_000);
    const t = h();
    const merchant: TestMerchant = await t.createMerchant();
    const expected = new Map<string, string>();
    const sale = async (fields: Record<string, string>, status: string) => {
      const res = await t.sale(merchant, fields);
      expect(res.body.status).to.equal(status);
      expected.set(res.body.trans_id, status);
      return res.body.trans_id as string;
    };
    for (let i = 0; i < 4; i++) await sale({}, 'SETTLED');
    await sale({ card_exp_month: '02' }, 'DECLINED');
    await sale({ auth: 'Y' }, 'PENDING');
    const refunded = await sale({ order_amount: '10.00' }, 'SETTLED');
    expect((await t.creditVoid(merchant, refunded, '10.00')).body).to.include({ result: 'ACCEPTED' });
    expected.set(refunded, 'REFUND');

    const lookUpAll = async (): Promise<number> => {
      for (const [transId, status] of expected) {
        const res = await t.status(merchant, transId);
        expect(res.body, transId).to.include({ result: 'SUCCESS', status, trans_id: transId });
      }
      return expected.size;
    };
    const rebuildDb = createReadModelDb(readModelTarget(t.gateway.config));
    let rebuilding = true;
    let lookups = 0;
    let insideSwap = 0;
    let madeDuringRebuild: string | null = null;
    try {
      const watcher = (async () => {
        while (rebuilding) lookups += await lookUpAll();
      })();

      await rebuildProjections({
        store: t.gateway.store,
        db: rebuildDb,
        // Small pages, so lookups run between them.
        pageSize: 4,
        onProgress: async () => {
          if (madeDuringRebuild) return;
          madeDuringRebuild = 'pending';
          madeDuringRebuild = await sale({}, 'SETTLED');
        },
        hooks: {
          // The live rows are replaced but not committed: lookups must still see the old ones, all of them.
          beforeCommit: async () => {
            insideSwap += await lookUpAll();
          },
        },
      });
      rebuilding = false;
      await watcher;

      expect(lookups).to.be.greaterThan(0);
      expect(insideSwap).to.equal(expected.size);
      const afterSwap = await sale({}, 'SETTLED');
      await lookUpAll();
      expect(madeDuringRebuild).to.be.a('string').and.not.equal('pending');
      expect(expected.has(afterSwap)).to.equal(true);
      expect(await verifyProjections({ store: t.gateway.store, db: rebuildDb })).to.deep.equal([]);
    } finally {
      rebuilding = false;
      await rebuildDb.destroy();
    }
  });
});
