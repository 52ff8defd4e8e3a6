/**
 * `audit verify` as the dashboard runs it: in the background, one run at a time, its progress
 * readable while it runs (giving the event loop back after every page), its report kept after.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { VerifyJob } from '../../src/application/audit/verify-job';
import { ANY, type NewEvent } from '../../src/application/ports/event-store';
import { MemoryEventStore } from '../support/memory-event-store';

const event = (n: number): NewEvent => ({ id: randomUUID(), type: 'ThingHappened', schemaVersion: 1, data: { n } });

describe('audit verify as a background job', function () {
  it('Given a log of 25 events read 10 at a time, then the job reports progress page by page, yields after each, and ends OK with all 25', async () => {
    const store = new MemoryEventStore();
    for (let i = 0; i < 25; i++) await store.append(`thing-${i % 3}`, [event(i)], ANY);
    const seen: Array<{ state: string; events: number }> = [];
    let job: VerifyJob;
    job = new VerifyJob({
      store,
      allowUnchainedHistory: false,
      pageSize: 10,
      yieldToEventLoop: async () => {
        const p = job.status();
        seen.push({ state: p.state, events: p.events });
      },
    });
    expect(job.status().state).to.equal('idle');
    expect(job.start()).to.equal(true);
    expect(job.start(), 'a second run while one runs').to.equal(false);
    await job.settled();

    expect(seen).to.deep.equal([
      { state: 'running', events: 10 },
      { state: 'running', events: 20 },
      { state: 'running', events: 25 },
    ]);
    const done = job.status();
    expect(done).to.include({ state: 'done', events: 25, etaSeconds: 0 });
    expect(done.position).to.equal(done.head);
    expect(done.report).to.include({ ok: true, events: 25, streams: 3 });
    expect(done.finishedAt).to.be.a('string');
  });

  it('Given a store that fails, then the job ends failed with the error, and may be started again', async () => {
    const store = new MemoryEventStore();
    await store.append('thing', [event(1)], ANY);
    const failing = Object.assign(Object.create(store) as MemoryEventStore, { readAll: async () => Promise.reject(new Error('database went away')) });
    const job = new VerifyJob({ store: failing, allowUnchainedHistory: false });
    job.start();
    await job.settled();
    expect(job.status()).to.include({ state: 'failed', error: 'database went away' });
    expect(job.start()).to.equal(true);
    await job.settled();
  });
});
