/**
 * Every signed checkpoint a page at a time (GET /audit/checkpoints): for any position an auditor
 * asks after, the page is exactly the signed checkpoints whose signed position is above it, oldest
 * first, however the store's versions and positions fall.
 */
import { expect } from 'chai';
import { signedCheckpointsAfter } from '../../src/application/audit/checkpoint-history';
import { logWithCheckpoints, pageThrough, positionOf, signer } from '../support/checkpoint-log';
import { MemoryEventStore } from '../support/memory-event-store';

describe('checkpoint history', function () {
  let store: MemoryEventStore;
  let texts: string[];

  before(async function () {
    store = new MemoryEventStore();
    texts = await logWithCheckpoints(store, 23);
  });

  it('Given no checkpoint at all, then the page is empty and starts where it was asked to', async function () {
    expect(await signedCheckpointsAfter(new MemoryEventStore(), signer.publicKey, null, 10)).to.deep.equal({ checkpoints: [], hasMore: false, nextAfter: null });
    expect(await signedCheckpointsAfter(new MemoryEventStore(), signer.publicKey, 7n, 10)).to.deep.equal({ checkpoints: [], hasMore: false, nextAfter: '7' });
  });

  it('Given no position, when paged through 4 at a time, then every signed checkpoint comes once, oldest first, as it is served', async function () {
    const all = await pageThrough(store, null, 4);
    expect(all).to.deep.equal({ texts, pages: 6 });
    const [first] = (await signedCheckpointsAfter(store, signer.publicKey, null, 1)).checkpoints;
    expect(first).to.have.keys(['format', 'checkpoint_text', 'signature', 'public_key']);
  });

  it('Given any position of the log, then the page starts at the first checkpoint signed over a later position', async function () {
    const head = (await store.headPosition())!;
    for (let after = 0n; after <= head + 1n; after += 1n) {
      const expected = texts.filter((text) => BigInt(positionOf(text)) > after);
      const page = await signedCheckpointsAfter(store, signer.publicKey, after, 3);
      expect(page.checkpoints.map((c) => c.checkpoint_text), `after ${after}`).to.deep.equal(expected.slice(0, 3));
      expect(page.hasMore, `after ${after}`).to.equal(expected.length > 3);
      expect(page.nextAfter).to.equal(expected.length > 0 ? positionOf(expected[Math.min(3, expected.length) - 1]!) : after.toString());
    }
  });
});
