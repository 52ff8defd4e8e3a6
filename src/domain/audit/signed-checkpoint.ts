/**
 * The text a checkpoint's signature covers (`checkpoint_text`): a few lines of ASCII, each a name,
 * one space and a value, every line ending in "\n", in this order and nothing else:
 *
 *   ledger-gateway audit checkpoint v1
 *   key <hex SHA-256 of the signing public key, SPKI DER>
 *   size <tree size: events of the log covered, decimal>
 *   root <hex Merkle root over their chain hashes in global order (merkle.ts)>
 *   position <global position of the last event covered, decimal>
 *   time <when it was recorded, ISO 8601 UTC>
 *
 * The key line names the log: one signing key, one log. The signature is Ed25519 over exactly these
 * bytes. A verifier parses the text it checked, never a copy of its fields kept beside it.
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const CHECKPOINT_TEXT_HEADER = 'ledger-gateway audit checkpoint v1';

export interface CheckpointStatement {
  keyId: string;
  treeSize: number;
  rootHash: string;
  upToPosition: string;
  recordedAt: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

export function checkpointText(s: CheckpointStatement): string {
  return [
    CHECKPOINT_TEXT_HEADER,
    `key ${s.keyId}`,
    `size ${s.treeSize}`,
    `root ${s.rootHash}`,
    `position ${s.upToPosition}`,
    `time ${s.recordedAt}`,
    '',
  ].join('\n');
}

/** The statement a checkpoint text makes, or a sentence saying why it is not one. */
export function parseCheckpointText(text: string): CheckpointStatement | string {
  const lines = text.split('\n');
  if (lines.length !== 7 || lines[6] !== '') return 'checkpoint_text must be exactly six lines, each ending in a newline';
  if (lines[0] !== CHECKPOINT_TEXT_HEADER) return `checkpoint_text must start with "${CHECKPOINT_TEXT_HEADER}"`;
  const field = (index: number, name: string, pattern: RegExp): string | null => {
    const line = lines[index]!;
    const value = line.startsWith(`${name} `) ? line.slice(name.length + 1) : null;
    return value !== null && pattern.test(value) ? value : null;
  };
  const keyId = field(1, 'key', HEX64);
  const size = field(2, 'size', DECIMAL);
  const rootHash = field(3, 'root', HEX64);
  const upToPosition = field(4, 'position', DECIMAL);
  const recordedAt = field(5, 'time', TIME);
  if (keyId === null) return 'checkpoint_text line 2 must be "key <64 hex digits>"';
  if (size === null || !Number.isSafeInteger(Number(size))) return 'checkpoint_text line 3 must be "size <decimal>"';
  if (rootHash === null) return 'checkpoint_text line 4 must be "root <64 hex digits>"';
  if (upToPosition === null) return 'checkpoint_text line 5 must be "position <decimal>"';
  if (recordedAt === null) return 'checkpoint_text line 6 must be "time <ISO 8601 UTC>"';
  return { keyId, treeSize: Number(size), rootHash, upToPosition, recordedAt };
}

/** The key id of a public key: hex SHA-256 of its SPKI DER encoding. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');
}

export function publicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

/** An Ed25519 public key from PEM (SPKI), or null when the text is not one. */
export function parsePublicKey(pem: string): KeyObject | null {
  try {
    const key = createPublicKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

/** Signs checkpoints: the private key never leaves it. */
export interface CheckpointSigner {
  readonly publicKey: KeyObject;
  readonly keyId: string;
  /** Ed25519 signature of the text's UTF-8 bytes, base64. */
  sign(text: string): string;
}

export function ed25519Signer(privateKey: KeyObject): CheckpointSigner {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the audit signing key must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  return {
    publicKey,
    keyId: keyIdOf(publicKey),
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64'),
  };
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function verifyCheckpointSignature(text: string, signatureBase64: string, publicKey: KeyObject): boolean {
  if (typeof signatureBase64 !== 'string' || !BASE64.test(signatureBase64)) return false;
  const signature = Buffer.from(signatureBase64, 'base64');
  // Base64 that does not round-trip (stray bits in the last character) is not the signature that was made.
  if (signature.length !== 64 || signature.toString('base64') !== signatureBase64) return false;
  return verify(null, Buffer.from(text, 'utf8'), publicKey, signature);
}

/**
 * A signed checkpoint as it is handed out: one JSON line of AUDIT_CHECKPOINT_FILE, the body of
 * GET /audit/checkpoints/latest, what an auditor keeps and gives `audit consistency`.
 */
export interface SignedCheckpoint {
  format: 'signed-checkpoint/1';
  checkpoint_text: string;
  signature: string;
  public_key: string;
}
