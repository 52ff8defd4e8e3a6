import sinon from 'sinon';
import type { EventStore } from '../../src/application/ports/event-store';

/** What `work` answered, and how many events it read from `store` (from the stream `only`, when given). */
export async function eventsRead<T>(store: EventStore, work: () => Promise<T>, only?: string): Promise<{ result: T; read: number }> {
  const spy = sinon.spy(store, 'readStream');
  try {
    const result = await work();
    let read = 0;
    for (const call of spy.getCalls()) if (only === undefined || call.args[0] === only) read += (await call.returnValue).length;
    return { result, read };
  } finally {
    spy.restore();
  }
}
