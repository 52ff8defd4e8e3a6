/**
 * A polling subscription told of new events reads them at once, or, with `gatherMs`, waits that
 * long so the appends of the period are read by one query: what the notifier uses on the HTTP
 * thread. Either way every event arrives, once, in order.
 */
import { expect } from 'chai';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { PollingSubscription } from '../../src/adapters/event-store/shared';

/** An in-memory log that counts the subscription's reads and wakes it on every append. */
function memoryLog() {
  const events: StoredEvent[] = [];
  const listeners = new Set<() => void>();
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    append(n: number) {
      const position = BigInt(events.length + 1);
      events.push({
        position,
        streamId: `s-${n}`,
        version: 0n,
        id: `e-${n}`,
        type: 'Happened',
        schemaVersion: 1,
        data: { n },
        metadata: {},
        recordedAt: '2026-01-01T00:00:00.000Z',
        chainHash: '',
      } as StoredEvent);
      for (const listener of listeners) listener();
    },
    source: {
      readAfter: async (after: bigint | null, maxCount: number) => {
        reads += 1;
        return events.filter((e) => after === null || e.position > after).slice(0, maxCount);
      },
      onWake: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      // Long: only the wake-ups may cause reads during the test.
      pollIntervalMs: 60_000,
    },
  };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function appendTenQuickly(gatherMs: number | undefined) {
  const log = memoryLog();
  const seen: number[] = [];
  const subscription = new PollingSubscription(
    log.source,
    { after: null, onEvent: (event) => void seen.push((event.data as { n: number }).n), gatherMs },
    () => undefined,
  );
  await settle(5);
  const readsBefore = log.reads;
  for (let n = 1; n <= 10; n++) {
    log.append(n);
    await settle(1);
  }
  await settle(80);
  await subscription.stop();
  return { seen, reads: log.reads - readsBefore };
}

describe('polling subscription: gathering wake-ups', () => {
  it('without gatherMs, reads as soon as it is woken: about one read per append', async () => {
    const { seen, reads } = await appendTenQuickly(undefined);
    expect(seen).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(reads).to.be.at.least(8);
  });

  it('with gatherMs, the appends of the wait are read by one query, and every event still arrives in order', async () => {
    const { seen, reads } = await appendTenQuickly(50);
    expect(seen).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(reads).to.be.at.most(3);
  });

  it('stop() does not wait for a gathering period to end', async () => {
    const log = memoryLog();
    const subscription = new PollingSubscription(log.source, { after: null, onEvent: () => undefined, gatherMs: 60_000 }, () => undefined);
    await settle(5);
    log.append(1);
    const started = Date.now();
    await subscription.stop();
    expect(Date.now() - started).to.be.below(1_000);
  });
});
