/**
 * What an auditor takes away from the gateway: signed checkpoints, a payment's proof (its events
 * with their inclusion paths to a signed checkpoint), and the consistency of a checkpoint the
 * auditor kept with a newer one, recomputed from the log as it is now.
 *
 * Give it the store as written (not the upcasting one): the tree's leaves are stored chain hashes.
 */
import type { KeyObject } from 'node:crypto';
import { AUDIT_CHECKPOINT_RECORDED, AUDIT_CHECKPOINT_STREAM, type CheckpointData, parseCheckpoint } from '../../domain/audit/checkpoint';
import { consistencyPath, inclusionPath, leafHash, rootOf, verifyConsistency } from '../../domain/audit/merkle';
import { PAYMENT_PROOF_FORMAT, type PaymentProof } from '../../domain/audit/payment-proof';
import {
  type CheckpointStatement,
  keyIdOf,
  parseCheckpointText,
  parsePublicKey,
  publicKeyPem,
  type SignedCheckpoint,
  verifyCheckpointSignature,
} from '../../domain/audit/signed-checkpoint';
import { paymentStreamId } from '../../domain/payment/events';
import type { EventStore, StoredEvent } from '../ports/event-store';
import { lastEventOf } from '../last-event';
import { nextTurn } from '../next-turn';

export function signedCheckpointOf(data: CheckpointData, publicKey: KeyObject): SignedCheckpoint | null {
  if (data.checkpointText === undefined || data.signature === undefined) return null;
  return { format: 'signed-checkpoint/1', checkpoint_text: data.checkpointText, signature: data.signature, public_key: publicKeyPem(publicKey) };
}

/** The newest signed checkpoint in the store, or null. Only the stream's newest event is read, unless it is not a signed checkpoint. */
export async function latestSignedCheckpoint(store: EventStore): Promise<CheckpointData | null> {
  const newest = await lastEventOf(store, AUDIT_CHECKPOINT_STREAM);
  if (!newest) return null;
  const data = newest.type === AUDIT_CHECKPOINT_RECORDED ? parseCheckpoint(newest.data) : null;
  if (data?.signature !== undefined) return data;
  const events = await store.readStream(AUDIT_CHECKPOINT_STREAM);
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const data = events[i]!.type === AUDIT_CHECKPOINT_RECORDED ? parseCheckpoint(events[i]!.data) : null;
    if (data?.signature !== undefined) return data;
  }
  return null;
}

/** The leaves of the tree over the log's first `size` events, in global order; `seen` is told of each event with its index. */
async function leavesOfLog(store: EventStore, size: number, seen?: (event: StoredEvent, index: number) => void): Promise<Buffer[]> {
  const leaves: Buffer[] = [];
  let after: bigint | null = null;
  const pageSize = 1000;
  while (leaves.length < size) {
    const page = await store.readAll({ after, maxCount: pageSize });
    for (const event of page) {
      if (leaves.length >= size) break;
      seen?.(event, leaves.length);
      leaves.push(leafHash(event.chainHash));
    }
    if (page.length < pageSize) break;
    after = page[page.length - 1]!.position;
    await nextTurn();
  }
  return leaves;
}

export class ProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProofError';
  }
}

/**
 * The proof of payment `transId` against the newest signed checkpoint; null when the store holds
 * no such payment. Throws ProofError when no signed checkpoint covers its newest event (record one
 * and ask again) or when the log no longer reproduces the checkpoint's root.
 */
export async function buildPaymentProof(store: EventStore, transId: string, publicKey: KeyObject): Promise<PaymentProof | null> {
  const streamId = paymentStreamId(transId);
  const stored = await store.readStream(streamId);
  if (stored.length === 0) return null;
  const checkpoint = await latestSignedCheckpoint(store);
  const newest = stored[stored.length - 1]!;
  if (!checkpoint || BigInt(checkpoint.upToPosition) < newest.position) {
    throw new ProofError(`no signed checkpoint covers ${streamId} version ${newest.version} (position ${newest.position}) yet`);
  }
  const statement = parseCheckpointText(checkpoint.checkpointText!);
  if (typeof statement === 'string') throw new ProofError(`the newest checkpoint's text is unreadable: ${statement}`);
  if (statement.keyId !== keyIdOf(publicKey)) throw new ProofError('the newest checkpoint was signed by another key than this gateway\'s');
  const indexOf = new Map<string, number>();
  const leaves = await leavesOfLog(store, statement.treeSize, (event, index) => {
    if (event.streamId === streamId) indexOf.set(event.version.toString(), index);
  });
  if (leaves.length !== statement.treeSize || !rootOf(leaves).equals(Buffer.from(statement.rootHash, 'hex'))) {
    throw new ProofError(`the log no longer reproduces the checkpoint's root at size ${statement.treeSize}: run "audit verify"`);
  }
  return {
    format: PAYMENT_PROOF_FORMAT,
    trans_id: transId,
    stream_id: streamId,
    events: stored.map((event) => {
      const index = indexOf.get(event.version.toString());
      if (index === undefined) throw new ProofError(`${streamId} version ${event.version} is not in the checkpoint's tree`);
      return {
        version: event.version.toString(),
        type: event.type,
        schema_version: event.schemaVersion,
        data: event.data,
        metadata: (event.metadata ?? {}) as Record<string, unknown>,
        chain_hash: event.chainHash,
        leaf_index: index,
        inclusion_path: inclusionPath(leaves, index, statement.treeSize).map((h) => h.toString('hex')),
      };
    }),
    checkpoint_text: checkpoint.checkpointText!,
    signature: checkpoint.signature!,
    public_key: publicKeyPem(publicKey),
  };
}

/** A signed checkpoint checked on its own: shape, key (the one given, if any) and signature. */
export function checkSignedCheckpoint(doc: unknown, expectedKey?: KeyObject): { statement: CheckpointStatement; publicKey: KeyObject } | string {
  const d = doc as Partial<SignedCheckpoint> | null;
  if (!d || typeof d !== 'object' || typeof d.checkpoint_text !== 'string' || typeof d.signature !== 'string' || typeof d.public_key !== 'string') {
    return 'not a signed checkpoint: it needs checkpoint_text, signature and public_key';
  }
  const publicKey = parsePublicKey(d.public_key);
  if (!publicKey) return 'public_key is not an Ed25519 public key in PEM (SPKI)';
  if (expectedKey && keyIdOf(expectedKey) !== keyIdOf(publicKey)) return 'signed by another key than the one given';
  const statement = parseCheckpointText(d.checkpoint_text);
  if (typeof statement === 'string') return statement;
  if (statement.keyId !== keyIdOf(publicKey)) return 'checkpoint_text names another key than public_key';
  if (!verifyCheckpointSignature(d.checkpoint_text, d.signature, publicKey)) return 'bad signature';
  return { statement, publicKey };
}

export type ConsistencyVerdict =
  | { ok: true; oldSize: number; newSize: number; path: string[] }
  | { ok: false; problem: string };

/**
 * Whether the newer signed checkpoint extends the older one: both must be signed by the same key
 * (the one given, if any), and the consistency path, computed from the log's chain hashes as they
 * are now, must prove the old root a prefix of the new. A log rewritten behind the old checkpoint
 * cannot reproduce its root, however consistently it was rechained and re-checkpointed since.
 */
export async function checkConsistency(store: EventStore, older: unknown, newer: unknown, expectedKey?: KeyObject): Promise<ConsistencyVerdict> {
  const a = checkSignedCheckpoint(older, expectedKey);
  if (typeof a === 'string') return { ok: false, problem: `the older checkpoint: ${a}` };
  const b = checkSignedCheckpoint(newer, expectedKey ?? a.publicKey);
  if (typeof b === 'string') return { ok: false, problem: `the newer checkpoint: ${b}` };
  const m = a.statement.treeSize;
  const n = b.statement.treeSize;
  if (n < m) return { ok: false, problem: `the newer checkpoint covers ${n} events, fewer than the older one's ${m}: the log shrank` };
  const oldRoot = Buffer.from(a.statement.rootHash, 'hex');
  const newRoot = Buffer.from(b.statement.rootHash, 'hex');
  if (m === 0) return { ok: true, oldSize: m, newSize: n, path: [] };
  const leaves = await leavesOfLog(store, n);
  if (leaves.length < n) return { ok: false, problem: `the log holds ${leaves.length} events, the newer checkpoint covers ${n}` };
  if (!rootOf(leaves).equals(newRoot)) {
    return { ok: false, problem: `the log does not reproduce the newer checkpoint's root at size ${n}` };
  }
  const path = m === n ? [] : consistencyPath(leaves, m, n);
  if (!verifyConsistency(m, n, oldRoot, newRoot, path)) {
    return {
      ok: false,
      problem: `the newer checkpoint does not extend the older one: the log's first ${m} events no longer hash to the root the older checkpoint signed (history behind it was rewritten)`,
    };
  }
  return { ok: true, oldSize: m, newSize: n, path: path.map((h) => h.toString('hex')) };
}

/** The newest signed checkpoint as handed out, read again only when the checkpoint stream has moved. */
export class LatestSignedCheckpoint {
  private cached: { version: bigint; signed: SignedCheckpoint | null } | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly publicKey: KeyObject,
  ) {}

  async read(): Promise<SignedCheckpoint | null> {
    const version = await this.store.streamVersion(AUDIT_CHECKPOINT_STREAM);
    if (version === null) return null;
    if (this.cached?.version === version) return this.cached.signed;
    const data = await latestSignedCheckpoint(this.store);
    const signed = data ? signedCheckpointOf(data, this.publicKey) : null;
    this.cached = { version, signed };
    return signed;
  }
}
