/**
 * A payment's proof: its events as stored, each with its chain hash and its Merkle inclusion path
 * to one signed checkpoint, the exact text signed, the signature and the public key. Checking it
 * needs nothing but the document (and, to trust it, the gateway's public key obtained elsewhere).
 * The format is docs/audit.md#payment-proofs.
 */
import { paymentStreamId, type PaymentEvent } from '../payment/events';
import { evolvePayment, initialPaymentState, type PaymentState } from '../payment/state';
import { eventUpcasters } from '../upcasting/event-upcasters';
import { eventChainHash, isChainHash } from './chain-hash';
import { leafHash, rootFromInclusion } from './merkle';
import { keyIdOf, parseCheckpointText, parsePublicKey, verifyCheckpointSignature, type CheckpointStatement } from './signed-checkpoint';
import type { KeyObject } from 'node:crypto';

export const PAYMENT_PROOF_FORMAT = 'payment-proof/1';

export interface ProvenEvent {
  version: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  chain_hash: string;
  leaf_index: number;
  inclusion_path: string[];
}

export interface PaymentProof {
  format: typeof PAYMENT_PROOF_FORMAT;
  trans_id: string;
  stream_id: string;
  events: ProvenEvent[];
  checkpoint_text: string;
  signature: string;
  public_key: string;
}

export type ProofVerdict =
  | { ok: true; checkpoint: CheckpointStatement; state: PaymentState; events: number }
  | { ok: false; problem: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a proof, in this order, and names the first thing wrong: its shape; the public key (and
 * that it is `expectedKey`, when given); the checkpoint text and its signature; then event by event
 * its place in the stream, its inclusion path to the signed root and its content against its chain
 * hash. When all hold, the payment's state folded from the proven events.
 */
export function verifyPaymentProof(doc: unknown, expectedKey?: KeyObject): ProofVerdict {
  const fail = (problem: string): ProofVerdict => ({ ok: false, problem });
  if (!isRecord(doc) || doc.format !== PAYMENT_PROOF_FORMAT) return fail(`not a payment proof: "format" must be "${PAYMENT_PROOF_FORMAT}"`);
  for (const field of ['trans_id', 'stream_id', 'checkpoint_text', 'signature', 'public_key'] as const) {
    if (typeof doc[field] !== 'string') return fail(`"${field}" is missing or not a string`);
  }
  const proof = doc as unknown as PaymentProof;
  if (!Array.isArray(proof.events) || proof.events.length === 0) return fail('"events" is missing or empty');

  const publicKey = parsePublicKey(proof.public_key);
  if (!publicKey) return fail('public_key is not an Ed25519 public key in PEM (SPKI)');
  if (expectedKey && keyIdOf(expectedKey) !== keyIdOf(publicKey)) {
    return fail('public_key is not the key given: the proof was signed by another key');
  }
  const statement = parseCheckpointText(proof.checkpoint_text);
  if (typeof statement === 'string') return fail(statement);
  if (statement.keyId !== keyIdOf(publicKey)) return fail('checkpoint_text names another key than public_key');
  if (!verifyCheckpointSignature(proof.checkpoint_text, proof.signature, publicKey)) {
    return fail('bad signature: signature is not public_key\'s signature of checkpoint_text');
  }
  const root = Buffer.from(statement.rootHash, 'hex');
  if (proof.stream_id !== paymentStreamId(proof.trans_id)) return fail(`stream_id must be ${paymentStreamId(proof.trans_id)}`);

  let state: PaymentState = initialPaymentState();
  let previousHash: string | null = null;
  let previousLeaf = -1;
  for (let i = 0; i < proof.events.length; i += 1) {
    const event = proof.events[i];
    if (!isRecord(event)) return fail(`events[${i}] is not an object`);
    const e = event as unknown as ProvenEvent;
    const name = `event ${i} (version ${String(e.version)}, ${String(e.type)})`;
    if (e.version !== String(i)) {
      const found = Number(e.version);
      if (Number.isInteger(found) && found > i) return fail(`event version ${i} is missing: events[${i}] is version ${e.version}`);
      return fail(`events out of order: events[${i}] is version ${String(e.version)}, expected ${i}`);
    }
    if (typeof e.type !== 'string' || !Number.isSafeInteger(e.schema_version) || !isRecord(e.data) || !isRecord(e.metadata)) {
      return fail(`${name}: type, schema_version, data or metadata is missing or malformed`);
    }
    if (!isChainHash(e.chain_hash)) return fail(`${name}: chain_hash is not 64 lowercase hex digits`);
    if (!Number.isSafeInteger(e.leaf_index) || e.leaf_index <= previousLeaf || e.leaf_index >= statement.treeSize) {
      return fail(`${name}: leaf_index ${String(e.leaf_index)} is not after the previous event's and inside the tree of ${statement.treeSize}`);
    }
    if (!Array.isArray(e.inclusion_path) || !e.inclusion_path.every(isChainHash)) {
      return fail(`${name}: inclusion_path must be a list of 64-hex-digit hashes`);
    }
    const path = e.inclusion_path.map((h) => Buffer.from(h, 'hex'));
    const recomputed = eventChainHash({
      prevHash: previousHash,
      streamId: proof.stream_id,
      version: BigInt(i),
      type: e.type,
      schemaVersion: e.schema_version,
      data: e.data,
      metadata: e.metadata,
    });
    const leadsToRoot = (hash: string) => rootFromInclusion(leafHash(hash), e.leaf_index, statement.treeSize, path)?.equals(root) === true;
    if (!leadsToRoot(e.chain_hash)) {
      if (recomputed !== e.chain_hash && leadsToRoot(recomputed)) return fail(`${name}: chain_hash was edited: the content proves another hash`);
      return fail(`${name}: inclusion_path does not lead from its chain_hash to the signed root (path, leaf_index or chain_hash edited)`);
    }
    if (recomputed !== e.chain_hash) {
      return fail(`${name}: content edited: its type, schema_version, data or metadata does not hash to its chain_hash`);
    }
    previousHash = e.chain_hash;
    previousLeaf = e.leaf_index;
    try {
      const current = eventUpcasters.upcast({ type: e.type, schemaVersion: e.schema_version, data: e.data });
      state = evolvePayment(state, { type: current.type, data: current.data } as unknown as PaymentEvent);
    } catch (error) {
      return fail(`${name}: proven, but the payment cannot fold it: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { ok: true, checkpoint: statement, state, events: proof.events.length };
}
