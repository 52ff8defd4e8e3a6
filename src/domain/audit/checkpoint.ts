/**
 * Global checkpoints over the event log. A stream's chain cannot notice that its newest event was
 * removed, nor that a whole stream was, nor that events of different streams swapped places; a
 * checkpoint can, for everything it covers: it commits to how many events lie in (previous, upTo]
 * in global order and to a digest over their chain hashes in that order, and it is chained to the
 * previous checkpoint's digest.
 *
 * digest = SHA-256 of the canonical JSON array
 *
 *   ["audit-checkpoint/1", previousDigest, previousPosition, upToPosition, eventCount, eventsDigest]
 *
 * where `eventsDigest` is the hex SHA-256 over the covered events' chain hashes, each followed by a
 * newline, in global order; `previousDigest` and `previousPosition` are "" for the first checkpoint.
 * Positions are decimal strings, because positions are bigints.
 */
import { createHash, type Hash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { isChainHash } from './chain-hash';

export const AUDIT_CHECKPOINT_STREAM = 'audit-checkpoints';
export const AUDIT_CHECKPOINT_RECORDED = 'AuditCheckpointRecorded';
export const AUDIT_CHECKPOINT_SCHEMA_VERSION = 1;
export const CHECKPOINT_DIGEST_FORMAT = 'audit-checkpoint/1';

export interface AuditCheckpointRecorded {
  type: typeof AUDIT_CHECKPOINT_RECORDED;
  data: {
    /** upToPosition of the previous checkpoint; null for the first. */
    previousPosition: string | null;
    previousDigest: string | null;
    /** Global position of the last event covered. */
    upToPosition: string;
    /** Events in (previousPosition, upToPosition]. */
    eventCount: number;
    digest: string;
    recordedAt: string;
    /**
     * The signed statement (signed-checkpoint.ts), on checkpoints recorded with a signing key:
     * the Merkle tree over the log's first `treeSize` events (all of (0, upToPosition]), its root,
     * its right edge (so the next checkpoint continues without reading the log again), the exact
     * text signed and the Ed25519 signature in base64. Not part of `digest`.
     */
    treeSize?: number;
    rootHash?: string;
    frontier?: string[];
    checkpointText?: string;
    signature?: string;
  };
}

export type CheckpointData = AuditCheckpointRecorded['data'];

/** Folds the chain hashes of the events a checkpoint covers, in global order. */
export class CoveredEvents {
  private readonly hash: Hash = createHash('sha256');
  private counted = 0;

  add(chainHash: string): void {
    this.hash.update(`${chainHash}\n`, 'utf8');
    this.counted += 1;
  }

  get count(): number {
    return this.counted;
  }

  /** The `eventsDigest` of everything added; the fold cannot be added to afterwards. */
  digest(): string {
    return this.hash.digest('hex');
  }
}

export function checkpointDigest(input: {
  previousDigest: string | null;
  previousPosition: string | null;
  upToPosition: string;
  eventCount: number;
  eventsDigest: string;
}): string {
  const text = canonicalJson([
    CHECKPOINT_DIGEST_FORMAT,
    input.previousDigest ?? '',
    input.previousPosition ?? '',
    input.upToPosition,
    input.eventCount,
    input.eventsDigest,
  ]);
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const POSITION = /^(0|[1-9][0-9]*)$/;

/** The data of a stored checkpoint event, or null when it is not one this release can read. */
export function parseCheckpoint(data: Record<string, unknown>): CheckpointData | null {
  const { previousPosition, previousDigest, upToPosition, eventCount, digest, recordedAt } = data;
  const optionalPosition = previousPosition === null || (typeof previousPosition === 'string' && POSITION.test(previousPosition));
  const optionalDigest = previousDigest === null || isChainHash(previousDigest);
  if (
    !optionalPosition ||
    !optionalDigest ||
    (previousPosition === null) !== (previousDigest === null) ||
    typeof upToPosition !== 'string' ||
    !POSITION.test(upToPosition) ||
    typeof eventCount !== 'number' ||
    !Number.isSafeInteger(eventCount) ||
    eventCount < 0 ||
    !isChainHash(digest) ||
    typeof recordedAt !== 'string'
  ) {
    return null;
  }
  const parsed: CheckpointData = {
    previousPosition: previousPosition as string | null,
    previousDigest: previousDigest as string | null,
    upToPosition,
    eventCount,
    digest,
    recordedAt,
  };
  const { treeSize, rootHash, frontier, checkpointText, signature } = data;
  if (treeSize === undefined && rootHash === undefined && signature === undefined) return parsed;
  if (
    typeof treeSize !== 'number' ||
    !Number.isSafeInteger(treeSize) ||
    treeSize < 0 ||
    !isChainHash(rootHash) ||
    !Array.isArray(frontier) ||
    !frontier.every(isChainHash) ||
    typeof checkpointText !== 'string' ||
    typeof signature !== 'string'
  ) {
    return null;
  }
  return { ...parsed, treeSize, rootHash, frontier: frontier as string[], checkpointText, signature };
}
