import type { EventStore, ReadAllOptions } from './event-store';

/** What the audit's Merkle tree needs of an event: where it is in the log and its chain hash. */
export interface ChainHashEntry {
  position: bigint;
  /** As in StoredEvent: empty for an event stored before the store kept chains. */
  chainHash: string;
}

/**
 * An optional read path a store may offer next to the port: `readAll`'s pages cut down to each
 * event's position and chain hash, for the checkpoint recorder, which folds chain hashes and
 * nothing else: the store then never reads or parses an event's data and metadata for it.
 */
export interface ChainHashReader {
  readChainHashes(options?: ReadAllOptions): Promise<ChainHashEntry[]>;
}

/** The store's chain-hash read path when it has one, else its `readAll`, cut down. */
export function chainHashReaderOf(store: EventStore): ChainHashReader {
  const candidate = store as EventStore & Partial<ChainHashReader>;
  if (typeof candidate.readChainHashes === 'function') return { readChainHashes: (options) => candidate.readChainHashes!(options) };
  return {
    readChainHashes: async (options) => (await store.readAll(options)).map(({ position, chainHash }) => ({ position, chainHash })),
  };
}
