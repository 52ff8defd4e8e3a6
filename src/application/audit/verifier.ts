/**
 * `audit verify`: walks the whole event log in global order and reports the first broken link.
 *
 * For every stream: versions run from 0 without gaps and in the order of the global log, and each
 * event's chain hash recomputes from its content and its predecessor's hash. For every checkpoint:
 * it links to the previous checkpoint, and the count and digest of the events it covers match what
 * the log holds now. Memory stays at one (version, hash) per stream plus the checkpoint list; the
 * log itself is read in pages.
 *
 * It must be given the store as written (not the upcasting one): hashes cover the stored shape.
 */
import { eventChainHash } from '../../domain/audit/chain-hash';
import {
  AUDIT_CHECKPOINT_RECORDED,
  AUDIT_CHECKPOINT_STREAM,
  type CheckpointData,
  checkpointDigest,
  CoveredEvents,
  parseCheckpoint,
} from '../../domain/audit/checkpoint';
import { MerkleFrontier } from '../../domain/audit/merkle';
import { checkpointText, keyIdOf, verifyCheckpointSignature } from '../../domain/audit/signed-checkpoint';
import type { KeyObject } from 'node:crypto';
import type { EventStore, StoredEvent } from '../ports/event-store';

export type EventProblem = 'missing' | 'out_of_order' | 'hash_mismatch' | 'no_hash';
export type CheckpointProblem = 'malformed' | 'previous_mismatch' | 'count_mismatch' | 'digest_mismatch' | 'root_mismatch' | 'bad_signature';

export type BrokenLink =
  | {
      kind: 'event';
      problem: EventProblem;
      streamId: string;
      /** The version that is broken; for `missing`, the version that is not there. */
      version: bigint;
      /** Position of the event read where the problem showed. */
      position: bigint;
      /** For `missing`: the version read in its place. For `out_of_order`: the version read before it. */
      foundVersion?: bigint;
    }
  | {
      kind: 'checkpoint';
      problem: CheckpointProblem;
      streamId: string;
      version: bigint;
      /** Position of the checkpoint event. */
      position: bigint;
      /** For `count_mismatch`: what the checkpoint records and what the log holds. */
      recordedCount?: number;
      countedCount?: number;
    };

export interface AuditReport {
  ok: boolean;
  /** Events checked (all of them when ok; up to the broken link otherwise). */
  events: number;
  streams: number;
  checkpoints: number;
  /** Events stored before the store kept chains, accepted only when allowed (see options). */
  unchainedEvents: number;
  /** The head the walk stopped at; events appended meanwhile are left for the next run. */
  headPosition: bigint | null;
  /** The newest verified checkpoint: its digest can be written down elsewhere to anchor the log. */
  latestCheckpoint: { position: bigint; upToPosition: string; digest: string } | null;
  broken: BrokenLink | null;
}

export interface VerifyOptions {
  /** Events per read. Default 1000. */
  pageSize?: number;
  /**
   * Accept events without a chain hash at the start of a stream: on EventStoreDB, events written
   * before chains existed cannot be backfilled (it never rewrites). Off for SQLite and PostgreSQL,
   * where every row was chained by the migration and a missing hash means a row was tampered with.
   */
  allowUnchainedHistory?: boolean;
  /**
   * Verify only the newest checkpoint's range and everything after it (what a gateway checks when it
   * starts): the range's count and digest, the checkpoint's link to its predecessor, and every
   * event's chain link from there to the head, each stream's first event in the walk linked to its
   * predecessor as stored. Earlier history is what `audit verify` walks in full.
   */
  fromLatestCheckpoint?: boolean;
  /**
   * Told after every page, and awaited: progress for whoever waits (a terminal, the dashboard),
   * and a point where a long walk may give the event loop back.
   */
  onPage?(progress: { events: number; position: bigint; head: bigint }): void | Promise<void>;
  /**
   * The gateway's checkpoint key: a signed checkpoint must be signed by it. Whatever the key, a
   * signed checkpoint's Merkle root must be the root of the log's first `treeSize` events, which
   * also proves each signed checkpoint an append-only extension of the one before.
   */
  publicKey?: KeyObject;
}

interface PlannedCheckpoint {
  version: bigint;
  data: CheckpointData | null;
  /** What the log holds in the checkpoint's range, once the walk has passed its end. */
  covered?: { count: number; eventsDigest: string };
  /** The Merkle tree over the log up to the checkpoint's range end, when the walk knows it. */
  tree?: { size: number; root: string };
}

export async function verifyEventLog(store: EventStore, options: VerifyOptions = {}): Promise<AuditReport> {
  const pageSize = options.pageSize ?? 1000;
  const head = await store.headPosition();
  const report = emptyReport(head);
  if (head === null) return report;

  // A checkpoint's range ends before the checkpoint itself, so the walk must know where each range
  // ends before it gets there: the checkpoints are read first. Their own stream is checked like any
  // other as the walk passes it.
  const plan = await checkpointPlan(store, head, options.fromLatestCheckpoint ?? false);
  const planByVersion = new Map(plan.map((checkpoint, index) => [checkpoint.version, index]));
  const start = walkStart(plan, options.fromLatestCheckpoint ?? false);
  let { segment, after } = start;
  const { tree } = start;
  const firstChecked = segment;
  const startsMidLog = after !== null;
  let covered = new CoveredEvents();
  /** Closes every checkpoint range that ends before `position`. */
  const closeSegmentsBefore = (position: bigint): void => {
    while (segment < plan.length) {
      const checkpoint = plan[segment]!;
      const end = checkpoint.data ? BigInt(checkpoint.data.upToPosition) : null;
      // An unreadable checkpoint ends no range; it is reported when the walk reaches it.
      if (end !== null && position <= end) return;
      if (end !== null) {
        checkpoint.covered = { count: covered.count, eventsDigest: covered.digest() };
        if (tree) checkpoint.tree = { size: tree.size, root: tree.root().toString('hex') };
        covered = new CoveredEvents();
      }
      segment += 1;
    }
  };

  const streams = new Map<string, { version: bigint; hash: string }>();
  const fail = (broken: BrokenLink): AuditReport => ({ ...report, ok: false, streams: streams.size, broken });
  /** Where the walk starts mid-log, a stream's first event links to its predecessor as stored. */
  const predecessorOf = async (event: StoredEvent) => {
    const known = streams.get(event.streamId);
    if (known || !startsMidLog || event.version === 0n) return known;
    return storedPredecessor(store, event);
  };

  for (;;) {
    const page = await store.readAll({ after, maxCount: pageSize });
    for (const event of page) {
      if (event.position > head) break;
      closeSegmentsBefore(event.position);

      const problem = checkLink(event, await predecessorOf(event), options.allowUnchainedHistory ?? false);
      if (problem) return fail(problem);
      if (!event.chainHash) report.unchainedEvents += 1;
      streams.set(event.streamId, { version: event.version, hash: event.chainHash });
      covered.add(event.chainHash);
      tree?.addChainHash(event.chainHash);
      report.events += 1;

      if (event.streamId === AUDIT_CHECKPOINT_STREAM && event.type === AUDIT_CHECKPOINT_RECORDED) {
        const index = planByVersion.get(event.version);
        // Appended after the checkpoint list was read: the next run checks it. One whose range
        // lies before the walk's start was checked by the run that walked it.
        if (index === undefined || index < firstChecked) continue;
        const checked = checkCheckpointEvent(event, plan, index, options.publicKey);
        if ('broken' in checked) return fail(checked.broken);
        report.checkpoints += 1;
        report.latestCheckpoint = checked.latest;
      }
    }
    if (page.length > 0) await options.onPage?.({ events: report.events, position: page[page.length - 1]!.position, head });
    if (page.length < pageSize || page[page.length - 1]!.position >= head) break;
    after = page[page.length - 1]!.position;
  }
  report.streams = streams.size;
  return report;
}

function emptyReport(head: bigint | null): AuditReport {
  return {
    ok: true,
    events: 0,
    streams: 0,
    checkpoints: 0,
    unchainedEvents: 0,
    headPosition: head,
    latestCheckpoint: null,
    broken: null,
  };
}

/**
 * Where the walk starts: at the start of the log, or from the newest checkpoint's range. `tree` is
 * the tree over the whole log up to there, or null when the previous checkpoint keeps no edge to
 * restore it from.
 */
function walkStart(plan: PlannedCheckpoint[], fromLatestCheckpoint: boolean): { segment: number; after: bigint | null; tree: MerkleFrontier | null } {
  if (!fromLatestCheckpoint || plan.length === 0) return { segment: 0, after: null, tree: MerkleFrontier.empty() };
  const segment = plan.length - 1;
  // An unreadable newest checkpoint gives no range to start from: the walk reports it when it gets there.
  const start = plan[segment]!.data?.previousPosition;
  if (!start) return { segment, after: null, tree: MerkleFrontier.empty() };
  // Mid-log, the tree restarts from the previous checkpoint's stored edge.
  const previous = segment > 0 ? plan[segment - 1]!.data : null;
  const restored = previous?.frontier ? MerkleFrontier.restore(previous.treeSize!, previous.frontier) : null;
  return { segment, after: BigInt(start), tree: restored && restored.root().toString('hex') === previous!.rootHash ? restored : null };
}

/** The event before `event` in its stream, as stored. */
async function storedPredecessor(store: EventStore, event: StoredEvent): Promise<{ version: bigint; hash: string } | undefined> {
  // Only the predecessor is read: the stream may be long (a payout balance gains events a second).
  const previous = (await store.readStream(event.streamId, { after: event.version === 1n ? null : event.version - 2n })).find(
    (e) => e.version === event.version - 1n,
  );
  return previous && { version: previous.version, hash: previous.chainHash };
}

/** A checkpoint event the walk reached: what breaks it, or what the report keeps of it. */
function checkCheckpointEvent(
  event: StoredEvent,
  plan: PlannedCheckpoint[],
  index: number,
  publicKey: KeyObject | undefined,
): { broken: BrokenLink } | { latest: NonNullable<AuditReport['latestCheckpoint']> } {
  const problem = checkCheckpoint(plan, index) ?? checkSignedCheckpoint(plan[index]!, publicKey);
  if (problem) return { broken: { kind: 'checkpoint', streamId: event.streamId, version: event.version, position: event.position, ...problem } };
  const data = plan[index]!.data!;
  return { latest: { position: event.position, upToPosition: data.upToPosition, digest: data.digest } };
}

function checkLink(
  event: StoredEvent,
  previous: { version: bigint; hash: string } | undefined,
  allowUnchainedHistory: boolean,
): BrokenLink | null {
  const expected = previous ? previous.version + 1n : 0n;
  const at = { kind: 'event' as const, streamId: event.streamId, position: event.position };
  if (event.version > expected) return { ...at, problem: 'missing', version: expected, foundVersion: event.version };
  if (event.version < expected) return { ...at, problem: 'out_of_order', version: event.version, foundVersion: previous!.version };
  if (!event.chainHash) {
    const unchainedSoFar = !previous || previous.hash === '';
    return allowUnchainedHistory && unchainedSoFar ? null : { ...at, problem: 'no_hash', version: event.version };
  }
  const recomputed = eventChainHash({
    prevHash: previous?.hash || null,
    streamId: event.streamId,
    version: event.version,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
  });
  return recomputed === event.chainHash ? null : { ...at, problem: 'hash_mismatch', version: event.version };
}

/**
 * The checkpoints recorded up to `head`, in order. From the latest checkpoint on, a walk checks only
 * the newest one and its link to the one before: then only the stream's tail is read (it gains a
 * checkpoint a minute for as long as the gateway runs), unless the tail holds fewer than those two.
 */
async function checkpointPlan(store: EventStore, head: bigint, latestOnly: boolean): Promise<PlannedCheckpoint[]> {
  const planOf = (events: StoredEvent[]): PlannedCheckpoint[] =>
    events
      .filter((event) => event.position <= head && event.type === AUDIT_CHECKPOINT_RECORDED)
      .map((event) => ({ version: event.version, data: parseCheckpoint(event.data) }));
  if (latestOnly) {
    const version = await store.streamVersion(AUDIT_CHECKPOINT_STREAM);
    if (version === null) return [];
    const after = version >= 2n ? version - 2n : null;
    // A suffix of the whole plan: with two entries it ends as the whole plan does.
    const tail = planOf(await store.readStream(AUDIT_CHECKPOINT_STREAM, { after }));
    if (after === null || tail.length >= 2) return tail;
  }
  return planOf(await store.readStream(AUDIT_CHECKPOINT_STREAM));
}

function checkCheckpoint(
  plan: PlannedCheckpoint[],
  index: number,
): { problem: CheckpointProblem; recordedCount?: number; countedCount?: number } | null {
  const checkpoint = plan[index]!;
  const data = checkpoint.data;
  // A range that has not ended yet would end after the checkpoint that claims to cover it.
  if (!data || !checkpoint.covered) return { problem: 'malformed' };
  const previous = index > 0 ? plan[index - 1]!.data : null;
  if (
    data.previousPosition !== (previous?.upToPosition ?? null) ||
    data.previousDigest !== (previous?.digest ?? null) ||
    (index > 0 && plan[index - 1]!.version !== checkpoint.version - 1n)
  ) {
    return { problem: 'previous_mismatch' };
  }
  if (data.eventCount !== checkpoint.covered.count) {
    return { problem: 'count_mismatch', recordedCount: data.eventCount, countedCount: checkpoint.covered.count };
  }
  const digest = checkpointDigest({
    previousDigest: data.previousDigest,
    previousPosition: data.previousPosition,
    upToPosition: data.upToPosition,
    eventCount: checkpoint.covered.count,
    eventsDigest: checkpoint.covered.eventsDigest,
  });
  return digest === data.digest ? null : { problem: 'digest_mismatch' };
}

/** A signed checkpoint: its text states its own fields, its root is the log's, its signature is the gateway key's. */
function checkSignedCheckpoint(checkpoint: PlannedCheckpoint, publicKey: KeyObject | undefined): { problem: CheckpointProblem } | null {
  const data = checkpoint.data!;
  if (data.signature === undefined) return null;
  const tree = checkpoint.tree;
  if (tree && (tree.size !== data.treeSize || tree.root !== data.rootHash)) return { problem: 'root_mismatch' };
  const keyId = data.checkpointText!.split('\n')[1]?.slice('key '.length) ?? '';
  const text = checkpointText({ keyId, treeSize: data.treeSize!, rootHash: data.rootHash!, upToPosition: data.upToPosition, recordedAt: data.recordedAt });
  if (text !== data.checkpointText) return { problem: 'malformed' };
  if (publicKey && (keyId !== keyIdOf(publicKey) || !verifyCheckpointSignature(text, data.signature, publicKey))) return { problem: 'bad_signature' };
  return null;
}

/** One line for a person: `BROKEN payment-… version 3: hash does not match its content`. */
export function describeBroken(broken: BrokenLink): string {
  if (broken.kind === 'checkpoint') {
    const where = `BROKEN checkpoint at position ${broken.position} (${broken.streamId} version ${broken.version})`;
    switch (broken.problem) {
      case 'malformed':
        return `${where}: not a readable checkpoint, or it covers events recorded after itself`;
      case 'previous_mismatch':
        return `${where}: links to a different previous checkpoint`;
      case 'count_mismatch':
        return `${where}: records ${broken.recordedCount} events, the log holds ${broken.countedCount} in its range`;
      case 'digest_mismatch':
        return `${where}: digest mismatch`;
      case 'root_mismatch':
        return `${where}: its Merkle root is not the root of the log's events up to it (history behind it was rewritten)`;
      case 'bad_signature':
        return `${where}: its signature is not this gateway's key's signature of its checkpoint text`;
    }
  }
  const where = `BROKEN ${broken.streamId} version ${broken.version}`;
  switch (broken.problem) {
    case 'missing':
      return `${where}: is missing (the stream continues with version ${broken.foundVersion})`;
    case 'out_of_order':
      return `${where}: out of order (it comes after version ${broken.foundVersion} in the global log)`;
    case 'hash_mismatch':
      return `${where}: hash does not match its content`;
    case 'no_hash':
      return `${where}: has no chain hash`;
  }
}
