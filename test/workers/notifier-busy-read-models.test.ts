/**
 * Callbacks are not held back by whoever writes the read models. In `npm start` the notifier saves
 * its checkpoint in the SQLite read models, whose write lock the projector holds for each batch
 * (for as long as a busy machine leaves it waiting at its lower priority). A save that waited for
 * the lock stopped the notifier's thread, and every callback with it.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { runningGatewayWithCallbacks } from '../support/running-gateway-sale';

describe('callbacks while another writer holds the read models', function () {
  this.timeout(60_000);
  const { receiver, dataDir, sale } = runningGatewayWithCallbacks('notifier-busy-');

  const arrived = async (orderId: string, withinMs: number): Promise<boolean> => {
    const deadline = Date.now() + withinMs;
    const has = () => receiver.received.some((r) => r.fields.get('order_id') === orderId);
    while (!has() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return has();
  };

  it('Given the read models\' write lock held for six seconds, when SALEs call back meanwhile, then each callback arrives within two seconds', async () => {
    await sale('busy-warm-up');
    expect(await arrived('busy-warm-up', 10_000)).to.equal(true);

    const holder = new Database(join(dataDir(), 'read-models.db'));
    holder.exec('BEGIN IMMEDIATE');
    holder.prepare("UPDATE projection_checkpoints SET updated_at = updated_at WHERE name = 'nobody'").run();
    const release = setTimeout(() => {
      holder.exec('COMMIT');
      holder.close();
    }, 6_000);
    try {
      // The first SALE moves the notifier past its last saved checkpoint, so its next periodic save
      // (every 250 ms) meets the lock; the second calls back after that. A save that waited would
      // hold the notifier's thread until the lock is released or its 5 s busy timeout runs out.
      await sale('busy-1');
      expect(await arrived('busy-1', 2_000), 'first callback').to.equal(true);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await sale('busy-2');
      expect(await arrived('busy-2', 2_000), 'second callback').to.equal(true);
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (holder.open) {
        clearTimeout(release);
        holder.exec('COMMIT');
        holder.close();
      }
    }
  });
});
