// The fake the projection tests run on must honour the same port semantics as the real adapters.
import { eventStoreContract } from '../event-store/contract';
import { MemoryEventStore } from '../support/memory-event-store';

eventStoreContract('in-memory test double', async () => {
  const store = new MemoryEventStore();
  return { store, cleanup: () => store.close() };
});
