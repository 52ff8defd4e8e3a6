/**
 * The periodic sweep of expired hosted-fields card data: it runs on its own, survives a database
 * that fails for a while, and stops before the database it sweeps is closed.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { sweepPendingCardsPeriodically } from '../../src/application/checkout/pending-card-data';
import type { PendingCardData } from '../../src/application/ports/pending-card-data';

function cardsSweeping(sweep: () => Promise<number>): PendingCardData {
  return { hold: async () => undefined, take: async () => null, sweep };
}

describe('Periodic sweep of pending card data', () => {
  let timers: sinon.SinonFakeTimers;
  beforeEach(() => {
    timers = sinon.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => timers.restore());

  it('Given no request ever comes, when a minute passes, then the expired card data is swept', async () => {
    let sweeps = 0;
    const sweeper = sweepPendingCardsPeriodically(cardsSweeping(async () => ++sweeps), { onError: () => undefined });
    expect(sweeps).to.equal(0);
    await timers.tickAsync(60_000);
    expect(sweeps).to.equal(1);
    await timers.tickAsync(120_000);
    expect(sweeps).to.equal(3);
    await sweeper.stop();
    await timers.tickAsync(600_000);
    expect(sweeps).to.equal(3);
  });

  it('reports a failed sweep and sweeps again at the next tick', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const sweeper = sweepPendingCardsPeriodically(
      cardsSweeping(async () => {
        calls += 1;
        if (calls === 1) throw new Error('connection terminated');
        return 0;
      }),
      { intervalMs: 1000, onError: (error) => errors.push(error) },
    );
    await timers.tickAsync(2000);
    expect(calls).to.equal(2);
    expect(errors.map(String)).to.deep.equal(['Error: connection terminated']);
    await sweeper.stop();
  });

  it('waits for a sweep under way when stopped, so the database is not closed beneath it', async () => {
    let finish!: () => void;
    let finished = false;
    const sweeper = sweepPendingCardsPeriodically(
      cardsSweeping(
        () =>
          new Promise<number>((resolve) => {
            finish = () => {
              finished = true;
              resolve(0);
            };
          }),
      ),
      { intervalMs: 1000, onError: () => undefined },
    );
    await timers.tickAsync(1000);
    let stopped = false;
    const stopping = sweeper.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped, 'stopped while the sweep was under way').to.equal(false);
    finish();
    await stopping;
    expect(finished).to.equal(true);
  });
});
