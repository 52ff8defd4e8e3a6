import type { EventStore, ReadAllOptions, StoredEvent } from './event-store';

/**
 * An optional read path a store may offer next to the port: `readAll`'s events, in large pages,
 * for replays that read the whole store (rebuilding read models).
 */
export interface BulkReader {
  readAllPage(options?: ReadAllOptions): Promise<StoredEvent[]>;
}

/** The store's bulk read path when it has one, else its `readAll`. */
export function bulkReaderOf(store: EventStore): BulkReader {
  const candidate = store as EventStore & Partial<BulkReader>;
  if (typeof candidate.readAllPage === 'function') return { readAllPage: (options) => candidate.readAllPage!(options) };
  return { readAllPage: (options) => store.readAll(options) };
}
