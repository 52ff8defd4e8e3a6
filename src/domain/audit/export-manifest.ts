/**
 * Exports for auditors: CSV files with a manifest that names each file's rows and SHA-256, the
 * signed checkpoint the read model had projected up to, and an Ed25519 signature over the manifest
 * itself (docs/audit.md#exports). `export verify` checks a directory with nothing but its files.
 */
import { createHash, type KeyObject, verify } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import type { ExportedBalance } from './export-figures';
import { type CheckpointSigner, keyIdOf, parseCheckpointText, parsePublicKey, type SignedCheckpoint, verifyCheckpointSignature } from './signed-checkpoint';

export const EXPORT_MANIFEST_FORMAT = 'export-manifest/1';
export const MANIFEST_FILE = 'manifest.json';

export interface ExportedFile {
  name: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface ExportManifest {
  format: typeof EXPORT_MANIFEST_FORMAT;
  source: string;
  columns: string[];
  files: ExportedFile[];
  /** Global position of the last event the read model had projected when it was read. */
  projected_up_to: string;
  created_at: string;
  /** The newest signed checkpoint at export time: the read model had projected nothing after it but checkpoints. */
  checkpoint: SignedCheckpoint | null;
  /** Ledger exports: every account's balance over the rows exported, by merchant and currency (export-figures.ts). */
  balances?: ExportedBalance[];
  public_key: string;
  /** Ed25519 over the canonical JSON of every other field, base64. */
  signature: string;
}

/** One CSV field: quoted when it holds a comma, quote, CR or LF (quotes doubled); null is empty. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line and one line per row, CRLF-terminated; values exactly as read, never rewritten. */
export function toCsv(columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string {
  const line = (values: unknown[]) => `${values.map(csvField).join(',')}\r\n`;
  return line([...columns]) + rows.map((row) => line(columns.map((c) => row[c]))).join('');
}

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

const signedPart = (m: Omit<ExportManifest, 'signature'> | ExportManifest): string => {
  const { signature: _signature, ...rest } = m as ExportManifest;
  return canonicalJson(rest);
};

export function signManifest(unsigned: Omit<ExportManifest, 'signature'>, signer: CheckpointSigner): ExportManifest {
  return { ...unsigned, signature: signer.sign(signedPart(unsigned)) };
}

/**
 * Checks an export directory given as its file names and contents: the manifest's signature (by
 * `expectedKey`, when given), then every file listed (present, same size, rows and SHA-256), and no
 * file beside them. Returns null, or the first thing wrong.
 */
export function verifyExport(files: ReadonlyMap<string, Buffer>, expectedKey?: KeyObject): string | null {
  const raw = files.get(MANIFEST_FILE);
  if (!raw) return `${MANIFEST_FILE} is missing`;
  let manifest: ExportManifest;
  try {
    manifest = JSON.parse(raw.toString('utf8')) as ExportManifest;
  } catch {
    return `${MANIFEST_FILE} is not JSON`;
  }
  if (manifest.format !== EXPORT_MANIFEST_FORMAT || !Array.isArray(manifest.files) || typeof manifest.signature !== 'string') {
    return `${MANIFEST_FILE} is not an export manifest ("format" must be "${EXPORT_MANIFEST_FORMAT}")`;
  }
  const publicKey = typeof manifest.public_key === 'string' ? parsePublicKey(manifest.public_key) : null;
  if (!publicKey) return 'public_key is not an Ed25519 public key in PEM (SPKI)';
  if (expectedKey && keyIdOf(expectedKey) !== keyIdOf(publicKey)) return 'the manifest was signed by another key than the one given';
  const signature = Buffer.from(manifest.signature, 'base64');
  if (signature.length !== 64 || !verify(null, Buffer.from(signedPart(manifest), 'utf8'), publicKey, signature)) {
    return 'bad signature: the manifest was changed after it was signed';
  }
  if (manifest.checkpoint !== null) {
    const c = manifest.checkpoint;
    const statement = typeof c?.checkpoint_text === 'string' ? parseCheckpointText(c.checkpoint_text) : 'missing';
    if (typeof statement === 'string' || statement.keyId !== keyIdOf(publicKey) || !verifyCheckpointSignature(c.checkpoint_text, c.signature, publicKey)) {
      return 'checkpoint is not a checkpoint signed by the manifest\'s key';
    }
  }
  for (const entry of manifest.files) {
    const content = files.get(entry.name);
    if (!content) return `${entry.name} is missing`;
    if (content.length !== entry.bytes || sha256Hex(content) !== entry.sha256) return `${entry.name} was changed: its SHA-256 is not the manifest's`;
  }
  const listed = new Set([MANIFEST_FILE, ...manifest.files.map((f) => f.name)]);
  const extra = [...files.keys()].filter((name) => !listed.has(name));
  if (extra.length > 0) return `${extra[0]} is not in the manifest`;
  return null;
}
