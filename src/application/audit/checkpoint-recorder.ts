/**
 * Records global checkpoints (src/domain/audit/checkpoint.ts): each one covers the events appended
 * since the previous one, up to the head as it was when the recorder looked. It reads only what is
 * new since the last checkpoint, and records nothing while the log has not moved, so an idle
 * gateway does not fill its log with checkpoints of checkpoints.
 *
 * Given a signer, each checkpoint is also a signed statement (src/domain/audit/signed-checkpoint.ts):
 * the Merkle root over the chain hashes of every event up to its position. The tree's right edge
 * is kept in the checkpoint, so the next one adds only the new events; after an unsigned checkpoint
 * (recorded before the gateway had a key) the tree is built once from the start of the log.
 *
 * It must be given the store as written (not the upcasting one): it folds stored chain hashes. Of
 * the events it reads only positions and chain hashes, through the store's chain-hash read when it
 * has one (src/application/ports/chain-hash-reader.ts), so the log's data is not parsed for it.
 */
import { newId } from '../new-id';
import {
  AUDIT_CHECKPOINT_RECORDED,
  AUDIT_CHECKPOINT_SCHEMA_VERSION,
  AUDIT_CHECKPOINT_STREAM,
  type CheckpointData,
  checkpointDigest,
  CoveredEvents,
  parseCheckpoint,
} from '../../domain/audit/checkpoint';
import { MerkleFrontier } from '../../domain/audit/merkle';
import { type CheckpointSigner, checkpointText } from '../../domain/audit/signed-checkpoint';
import { chainHashReaderOf } from '../ports/chain-hash-reader';
import type { Clock } from '../ports/clock';
import { type EventStore, exactly, NO_STREAM, WrongExpectedVersionError } from '../ports/event-store';
import { nextTurn } from '../next-turn';
import { lastEventOf } from '../last-event';

export interface CheckpointRecorderOptions {
  store: EventStore;
  clock: Clock;
  /** Events read per page. Default 1000. */
  pageSize?: number;
  /** Signs each checkpoint; without it checkpoints carry no tree and no signature. */
  signer?: CheckpointSigner;
}

interface LastCheckpoint {
  version: bigint;
  /** Position of the checkpoint event itself. */
  position: bigint;
  data: CheckpointData;
}

/** Small enough that a page read holds the thread for a few milliseconds. */
const DEFAULT_PAGE_SIZE = 250;

export class CheckpointRecorder {
  /** undefined: not read yet (or another writer moved the stream); null: there is none. */
  private last: LastCheckpoint | null | undefined;
  private readonly pageSize: number;

  constructor(private readonly options: CheckpointRecorderOptions) {
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  }

  /**
   * Records a checkpoint up to the current head, unless nothing but the previous checkpoint was
   * appended since it. Returns what was recorded, or null. Loses quietly (null) to another
   * recorder that appended a checkpoint first; the next call starts from that one. With
   * `minEvents`, records only when at least that many events arrived since the last checkpoint.
   */
  async recordIfMoved(options: { minEvents?: number } = {}): Promise<CheckpointData | null> {
    const { store } = this.options;
    const streamVersion = await store.streamVersion(AUDIT_CHECKPOINT_STREAM);
    if (this.last === undefined || (this.last?.version ?? null) !== streamVersion) this.last = await this.loadLast(streamVersion);
    const last = this.last;
    const head = await store.headPosition();
    if (head === null || (last !== null && head <= last.position)) return null;

    const lastUpTo = last === null ? null : BigInt(last.data.upToPosition);
    const signer = this.options.signer;
    const resumed = signer && last?.data.frontier !== undefined ? MerkleFrontier.restore(last.data.treeSize!, last.data.frontier) : null;
    const tree = signer ? (resumed ?? MerkleFrontier.empty()) : null;
    // The tree starts where the last signed checkpoint ended, else at the start of the log.
    const covered = await this.readUpTo(head, tree && !resumed ? null : lastUpTo, lastUpTo, tree);
    // The first signed checkpoint after unsigned ones read the whole log: it is recorded at once, not read again next time.
    const firstSigned = tree !== null && !resumed && last !== null;
    if (options.minEvents !== undefined && covered.count < options.minEvents && !firstSigned) return null;
    const previousPosition = last?.data.upToPosition ?? null;
    const previousDigest = last?.data.digest ?? null;
    const upToPosition = head.toString();
    const data: CheckpointData = {
      previousPosition,
      previousDigest,
      upToPosition,
      eventCount: covered.count,
      digest: checkpointDigest({
        previousDigest,
        previousPosition,
        upToPosition,
        eventCount: covered.count,
        eventsDigest: covered.digest(),
      }),
      recordedAt: this.options.clock.now().toISOString(),
    };
    if (signer && tree) sign(data, tree, signer);
    try {
      const result = await store.append(
        AUDIT_CHECKPOINT_STREAM,
        [
          {
            id: newId(),
            type: AUDIT_CHECKPOINT_RECORDED,
            schemaVersion: AUDIT_CHECKPOINT_SCHEMA_VERSION,
            data: { ...data },
          },
        ],
        last === null ? NO_STREAM : exactly(last.version),
      );
      this.last = { version: result.nextExpectedVersion, position: result.position, data };
      return data;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      this.last = undefined;
      return null;
    }
  }

  /**
   * Reads the log from `after` up to `head`, adding every event read to the tree and those after
   * `lastUpTo` (the last checkpoint's range end) to what the new checkpoint covers.
   */
  private async readUpTo(head: bigint, from: bigint | null, lastUpTo: bigint | null, tree: MerkleFrontier | null): Promise<CoveredEvents> {
    const covered = new CoveredEvents();
    const reader = chainHashReaderOf(this.options.store);
    let after = from;
    for (;;) {
      const page = await reader.readChainHashes({ after, maxCount: this.pageSize });
      for (const event of page) {
        if (event.position > head) break;
        tree?.addChainHash(event.chainHash);
        if (lastUpTo === null || event.position > lastUpTo) covered.add(event.chainHash);
      }
      if (page.length < this.pageSize || page[page.length - 1]!.position >= head) break;
      after = page[page.length - 1]!.position;
      // A minute of a busy log is hundreds of pages; in `npm start` the scheduler and the other workers share this thread.
      await nextTurn();
    }
    return covered;
  }

  private async loadLast(streamVersion: bigint | null): Promise<LastCheckpoint | null> {
    const newest = await lastEventOf(this.options.store, AUDIT_CHECKPOINT_STREAM, streamVersion);
    if (!newest) return null;
    const data = newest.type === AUDIT_CHECKPOINT_RECORDED ? parseCheckpoint(newest.data) : null;
    // Chaining onto something unreadable would vouch for it; the operator has to look first.
    if (!data) {
      throw new Error(
        `the newest event of ${AUDIT_CHECKPOINT_STREAM} (version ${newest.version}) is not a checkpoint this release can read; run "audit verify"`,
      );
    }
    return { version: newest.version, position: newest.position, data };
  }
}

/** Makes the checkpoint a signed statement of the tree's root over the log up to it. */
function sign(data: CheckpointData, tree: MerkleFrontier, signer: CheckpointSigner): void {
  const text = checkpointText({
    keyId: signer.keyId,
    treeSize: tree.size,
    rootHash: tree.root().toString('hex'),
    upToPosition: data.upToPosition,
    recordedAt: data.recordedAt,
  });
  Object.assign(data, {
    treeSize: tree.size,
    rootHash: tree.root().toString('hex'),
    frontier: tree.hashes(),
    checkpointText: text,
    signature: signer.sign(text),
  });
}
