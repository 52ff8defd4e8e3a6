import type { EventStore, StoredEvent } from './ports/event-store';

/**
 * The newest event of a stream, or null when there is none: a version lookup and a read of what
 * follows the version before it, however long the stream has grown (streams that gain an event a
 * minute, or several a second, for as long as the gateway runs). `knownVersion`: the stream's
 * version as the caller just read it, which saves the lookup.
 */
export async function lastEventOf(store: EventStore, streamId: string, knownVersion?: bigint | null): Promise<StoredEvent | null> {
  const version = knownVersion === undefined ? await store.streamVersion(streamId) : knownVersion;
  if (version === null) return null;
  // Anything appended after the version lookup comes back too: the last of it is the newest.
  const tail = await store.readStream(streamId, { after: version === 0n ? null : version - 1n });
  // A last record a store does not hand out (an EventStoreDB system event) leaves the tail empty.
  const events = tail.length > 0 ? tail : await store.readStream(streamId);
  return events[events.length - 1] ?? null;
}
