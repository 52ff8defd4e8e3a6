import { expect } from 'chai';
import sinon from 'sinon';
import { lastEventOf } from '../../src/application/last-event';
import { ANY, type NewEvent } from '../../src/application/ports/event-store';
import { MemoryEventStore } from '../support/memory-event-store';

const event = (n: number): NewEvent => ({ id: `event-${n}`, type: 'ThingHappened', schemaVersion: 1, data: { n } });

describe('lastEventOf', function () {
  it('reads only the newest event of a long stream', async function () {
    const store = new MemoryEventStore();
    for (let n = 0; n < 100; n++) await store.append('long', [event(n)], ANY);
    const reads = sinon.spy(store, 'readStream');
    const last = await lastEventOf(store, 'long');
    expect(last).to.deep.include({ id: 'event-99', version: 99n });
    expect((await reads.firstCall.returnValue).length).to.equal(1);
    expect(reads.callCount).to.equal(1);
  });

  it('takes the version its caller just read instead of looking it up again', async function () {
    const store = new MemoryEventStore();
    for (let n = 0; n < 5; n++) await store.append('s', [event(n)], ANY);
    const lookups = sinon.spy(store, 'streamVersion');
    expect(await lastEventOf(store, 's', 4n)).to.deep.include({ id: 'event-4' });
    expect(await lastEventOf(store, 'missing', null)).to.equal(null);
    expect(lookups.callCount).to.equal(0);
  });

  it('finds the only event of a stream, and nothing for a stream that does not exist', async function () {
    const store = new MemoryEventStore();
    await store.append('short', [event(0)], ANY);
    expect(await lastEventOf(store, 'short')).to.deep.include({ id: 'event-0', version: 0n });
    expect(await lastEventOf(store, 'missing')).to.equal(null);
  });

  it('reads the whole stream when its last record is one the store does not hand out', async function () {
    const store = new MemoryEventStore();
    for (let n = 0; n < 3; n++) await store.append('s', [event(n)], ANY);
    // As an EventStoreDB stream ending in a system record: its version counts one more record.
    sinon.stub(store, 'streamVersion').resolves(3n);
    expect(await lastEventOf(store, 's')).to.deep.include({ id: 'event-2' });
  });
});
