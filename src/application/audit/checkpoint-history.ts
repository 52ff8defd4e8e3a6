/**
 * Every signed checkpoint, a page at a time, for auditors who keep them all rather than only the
 * newest: those whose signed `position` is after the one given, oldest first. The checkpoint stream
 * grows by one event every few seconds for as long as the gateway runs, so a page reads only its own
 * events: the first of them is found by halving the stream's versions, since both a checkpoint's
 * event and the position it covers grow with its version.
 */
import type { KeyObject } from 'node:crypto';
import { AUDIT_CHECKPOINT_RECORDED, AUDIT_CHECKPOINT_STREAM, parseCheckpoint } from '../../domain/audit/checkpoint';
import type { SignedCheckpoint } from '../../domain/audit/signed-checkpoint';
import type { EventStore } from '../ports/event-store';
import { signedCheckpointOf } from './proofs';

export interface CheckpointPage {
  /** Oldest first, each as GET /audit/checkpoints/latest serves one. */
  checkpoints: SignedCheckpoint[];
  /** More signed checkpoints follow the last of this page. */
  hasMore: boolean;
  /** Where the next page starts: the position the last checkpoint of this one covers, else the one asked after. */
  nextAfter: string | null;
}

/**
 * The lowest version whose event (or the first one handed out after it) lies after global position
 * `after`: no checkpoint of a lower version can cover anything after it, because a checkpoint's
 * event comes after every event it covers.
 */
async function firstVersionAfter(store: EventStore, after: bigint, newest: bigint): Promise<bigint> {
  let low = 0n;
  let high = newest + 1n;
  while (low < high) {
    const middle = (low + high) / 2n;
    const [event] = await store.readStream(AUDIT_CHECKPOINT_STREAM, { after: middle - 1n, maxCount: 1 });
    if (event === undefined || event.position > after) high = middle;
    else low = middle + 1n;
  }
  return low;
}

/** Up to `limit` signed checkpoints whose position is after `after` (all of them from the first when null). */
export async function signedCheckpointsAfter(store: EventStore, publicKey: KeyObject, after: bigint | null, limit: number): Promise<CheckpointPage> {
  const newest = await store.streamVersion(AUDIT_CHECKPOINT_STREAM);
  if (newest === null) return { checkpoints: [], hasMore: false, nextAfter: after?.toString() ?? null };
  let version = after === null ? -1n : (await firstVersionAfter(store, after, newest)) - 1n;
  const checkpoints: Array<{ signed: SignedCheckpoint; position: string }> = [];
  // One more than asked for tells whether more follow. A page can come back short of maxCount
  // before the stream's end (a store that hides its own records), so only an empty one ends it.
  while (checkpoints.length <= limit) {
    const events = await store.readStream(AUDIT_CHECKPOINT_STREAM, { after: version, maxCount: limit + 1 - checkpoints.length });
    if (events.length === 0) break;
    for (const event of events) {
      const data = event.type === AUDIT_CHECKPOINT_RECORDED ? parseCheckpoint(event.data) : null;
      const signed = data ? signedCheckpointOf(data, publicKey) : null;
      if (data && signed && (after === null || BigInt(data.upToPosition) > after)) checkpoints.push({ signed, position: data.upToPosition });
    }
    version = events[events.length - 1]!.version;
  }
  const page = checkpoints.slice(0, limit);
  return {
    checkpoints: page.map((c) => c.signed),
    hasMore: checkpoints.length > limit,
    nextAfter: page.length > 0 ? page[page.length - 1]!.position : (after?.toString() ?? null),
  };
}
