/**
 * The hash that chains each event to the previous event of its stream. Editing an event's content,
 * removing an event from the middle of a stream or changing the order of a stream's events changes
 * a hash that a later link (or a checkpoint) still commits to.
 *
 * Input, as one canonical JSON array (JSON is self-delimiting, so no two inputs share an encoding):
 *
 *   ["event-chain/1", prevHash, streamId, version, type, schemaVersion, data, metadata]
 *
 * `prevHash` is the chain hash of the stream's previous event ("" for its first event), `version`
 * a decimal string (versions are bigints), `data` and `metadata` the event's JSON values in
 * canonical form. The result is the lowercase hex SHA-256 of that text in UTF-8. The time the store
 * recorded and the global position are left out: not every store reads them back byte for byte.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

export const CHAIN_HASH_FORMAT = 'event-chain/1';

/** Where an event sits in its stream's chain. */
export interface ChainPosition {
  /** Chain hash of the previous event of the stream; null for the stream's first event. */
  prevHash: string | null;
  streamId: string;
  version: bigint;
  type: string;
  schemaVersion: number;
}

/** The event as the store keeps it, data and metadata as JSON values. */
export interface ChainedContent extends ChainPosition {
  data: unknown;
  metadata: unknown;
}

/** Chain hash of an event whose data and metadata are JSON values. */
export function eventChainHash(event: ChainedContent): string {
  return eventChainHashOfText(event, canonicalJson(event.data), canonicalJson(event.metadata ?? {}));
}

/**
 * Chain hash of an event whose data and metadata are already canonical JSON text (as the SQLite
 * adapter stores them): the same result as `eventChainHash`, without serialising twice.
 */
export function eventChainHashOfText(position: ChainPosition, dataJson: string, metadataJson: string): string {
  if (!Number.isSafeInteger(position.schemaVersion)) {
    throw new TypeError(`schema version must be an integer (got ${String(position.schemaVersion)})`);
  }
  const text =
    `[${JSON.stringify(CHAIN_HASH_FORMAT)},${JSON.stringify(position.prevHash ?? '')},` +
    `${JSON.stringify(position.streamId)},${JSON.stringify(position.version.toString())},` +
    `${JSON.stringify(position.type)},${position.schemaVersion},${dataJson},${metadataJson}]`;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const HASH = /^[0-9a-f]{64}$/;

export const isChainHash = (value: unknown): value is string => typeof value === 'string' && HASH.test(value);
