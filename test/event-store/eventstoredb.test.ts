import { EventStoreDbEventStore } from '../../src/adapters/event-store/eventstoredb-event-store';
import { eventStoreContract } from './contract';

const ESDB_URL = process.env.ESDB_URL;

if (ESDB_URL) {
  eventStoreContract(
    'EventStoreDB',
    async () => {
      const store = new EventStoreDbEventStore({ connectionString: ESDB_URL });
      return { store, cleanup: () => store.close() };
    },
    // A server is shared by every run, cannot look event ids up across streams, and has no
    // multi-stream transactions.
    { startsEmpty: false, eventIdsUniqueAcrossStreams: false, atomicMultiStream: false },
  );
} else {
  describe('EventStoreDB: event store contract', function () {
    before(function () {
      console.warn('\n  skipped: set ESDB_URL (e.g. esdb://localhost:2113?tls=false) to run the EventStoreDB contract\n');
      this.skip();
    });
    it('runs the event store contract against a server');
  });
}
