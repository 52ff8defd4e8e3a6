import type { EventStore, ReadAllOptions, StoredEvent } from './event-store';

/** One page of the log scanned for some event types. */
export interface TypeFilteredPage {
  /** The scanned events of the types asked for, in global order. */
  events: StoredEvent[];
  /** Events of the log scanned, of any type: at most `maxCount`; fewer when the scan reached the head. */
  scanned: number;
  /**
   * Position of the last event scanned, or `after` when none was. Every event up to it was either
   * handed out or is of another type: a follower's checkpoint may move here.
   */
  scannedUpTo: bigint | null;
}

/**
 * An optional read path a store may offer next to the port: `readAll`'s page (the next `maxCount`
 * events after `after`, with the same guarantee that no event before one read is still to come),
 * handing out only the events of the types asked for, so that a follower interested in a few types
 * (the payout balance feeder) does not have every other event read and parsed for it.
 */
export interface TypeFilteredReader {
  readAllOfTypes(types: readonly string[], options?: ReadAllOptions): Promise<TypeFilteredPage>;
}

/** The store's type-filtered read path when it has one, else its `readAll`, filtered here. */
export function typeFilteredReaderOf(store: EventStore): TypeFilteredReader {
  const candidate = store as EventStore & Partial<TypeFilteredReader>;
  if (typeof candidate.readAllOfTypes === 'function') return { readAllOfTypes: (types, options) => candidate.readAllOfTypes!(types, options) };
  return { readAllOfTypes: (types, options) => readAllFiltered(store, types, options) };
}

async function readAllFiltered(store: EventStore, types: readonly string[], options: ReadAllOptions = {}): Promise<TypeFilteredPage> {
  const page = await store.readAll(options);
  const wanted = new Set(types);
  return {
    events: page.filter((event) => wanted.has(event.type)),
    scanned: page.length,
    scannedUpTo: page.length > 0 ? page[page.length - 1]!.position : (options.after ?? null),
  };
}
