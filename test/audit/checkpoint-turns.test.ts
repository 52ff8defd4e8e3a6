/**
 * A checkpoint pass over a long stretch of the log lets other work on its thread run between its
 * pages: in `npm start` the scheduler and the other workers share that thread, and a minute of a busy
 * log is hundreds of pages.
 * So does the payout balance feeder's pass.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { ANY } from '../../src/application/ports/event-store';
import { systemClock } from '../../src/application/ports/clock';

/** Counts the event loop's turns while `work` runs: none when it never lets go of the thread. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  done = true;
  return turns;
}

describe('a checkpoint pass over a long log', () => {
  it('Given 3,000 events since the last checkpoint, when a checkpoint is recorded, then the thread runs other work between its pages', async () => {
    // In memory and on the calling thread: every read and append completes without a turn of its own.
    const store = new SqliteEventStore({ filename: ':memory:' });
    try {
      for (let batch = 0; batch < 30; batch++) {
        await store.append(
          `stream-${batch}`,
          Array.from({ length: 100 }, (_, i) => ({ id: randomUUID(), type: 'Happened', schemaVersion: 1, data: { i } })),
          ANY,
        );
      }
      const recorder = new CheckpointRecorder({ store, clock: systemClock, pageSize: 250 });
      let recorded: Awaited<ReturnType<CheckpointRecorder['recordIfMoved']>> = null;
      const turns = await turnsDuring(async () => (recorded = await recorder.recordIfMoved()));
      expect(recorded, 'a checkpoint was recorded').to.not.equal(null);
      expect(recorded!.eventCount).to.equal(3000);
      expect(turns, 'turns of the event loop during the pass').to.be.at.least(10);
    } finally {
      await store.close();
    }
  });
});
