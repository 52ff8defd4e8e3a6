/**
 * The projector's and the notifier's threads sleep on the event store writer's commit signal; it
 * reaches them through the worker-thread start-up, shared, not copied.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { CommitSignal } from '../../src/adapters/event-store/commit-signal';
import { loadConfig } from '../../src/config';
import { startWorkerThread } from '../../src/workers/worker-thread';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';

describe('a worker thread handed the writer\'s commit signal', function () {
  it('shares it with the starting thread: what the thread signals, the starter sees', async () => {
    const signal = CommitSignal.create();
    const seen = signal.count();
    const thread = await startWorkerThread('commit-signal-probe', join(__dirname, 'fixtures', 'commit-signal-probe-thread.ts'), loadConfig({ GATEWAY_LOG_LEVEL: 'silent' }), createJsonLogger('silent'), {
      commitSignal: signal.buffer,
    });
    try {
      // The probe signals before it reports ready.
      expect(signal.count()).to.not.equal(seen);
    } finally {
      await thread.stop();
    }
  });
});
