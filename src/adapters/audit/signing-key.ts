/**
 * The Ed25519 key that signs audit checkpoints. In order:
 *
 * 1. AUDIT_SIGNING_KEY, for a deployment whose processes share one key: a PKCS#8 private key as PEM,
 *    or that PEM or its DER in base64 (one line, for an environment variable).
 * 2. DATA_DIR/audit-signing.key, made on the first start: the PKCS#8 DER sealed with the vault key
 *    (AES-256-GCM, `v1:<iv>:<tag>:<ciphertext>` as every other secret the gateway seals), mode 0600,
 *    refused when group or others may read it, like vault.key.
 *
 * Sealed rather than kept in clear beside vault.key: where the vault key comes from VAULT_KEY (a
 * deployment's secret store), a copy of the data directory (a backup, a volume snapshot) does not
 * let its holder sign checkpoints; where vault.key sits in the same directory it costs nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { type CheckpointSigner, ed25519Signer } from '../../domain/audit/signed-checkpoint';
import { decryptSecret, encryptSecret } from '../vault/secret-box';

export const SIGNING_KEY_FILE = 'audit-signing.key';
const CONTEXT = 'audit-signing-key';

export class SigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

/** The key configured as AUDIT_SIGNING_KEY. */
export function parseConfiguredSigningKey(text: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    if (trimmed.startsWith('-----BEGIN')) {
      key = createPrivateKey({ key: trimmed, format: 'pem' });
    } else {
      const bytes = Buffer.from(trimmed, 'base64');
      const asText = bytes.toString('utf8');
      key = asText.startsWith('-----BEGIN')
        ? createPrivateKey({ key: asText, format: 'pem' })
        : createPrivateKey({ key: bytes, format: 'der', type: 'pkcs8' });
    }
  } catch {
    throw new SigningKeyError('AUDIT_SIGNING_KEY must be an Ed25519 private key: PKCS#8 PEM, or the PEM or DER in base64');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`AUDIT_SIGNING_KEY must be an Ed25519 key (got ${key.asymmetricKeyType})`);
  return key;
}

/** The key configured or kept in the data directory; null when there is none yet (nothing is created). */
export function loadSigningKey(options: { configured?: string | null; dataDir: string; vaultKey: Buffer }): KeyObject | null {
  if (options.configured) return parseConfiguredSigningKey(options.configured);
  return readKeyFile(path.join(options.dataDir, SIGNING_KEY_FILE), options.vaultKey);
}

export function loadOrCreateSigningKey(options: { configured?: string | null; dataDir: string; vaultKey: Buffer }): KeyObject {
  const existing = loadSigningKey(options);
  if (existing) return existing;
  const file = path.join(options.dataDir, SIGNING_KEY_FILE);

  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const der = privateKey.export({ type: 'pkcs8', format: 'der' });
  // As vault.key: a complete temporary file linked into place, so two processes starting at once end up with one key.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${encryptSecret(options.vaultKey, der.toString('base64'), CONTEXT)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = readKeyFile(file, options.vaultKey);
    if (!theirs) throw new SigningKeyError(`Audit signing key file ${file} vanished while being created`);
    return theirs;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return privateKey;
}

function readKeyFile(file: string, vaultKey: Buffer): KeyObject | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!stat.isFile()) throw new SigningKeyError(`Audit signing key file ${file} is not a regular file`);
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new SigningKeyError(
      `Audit signing key file ${file} has permissions ${(stat.mode & 0o777).toString(8)}; it must be readable by its owner only (chmod 600)`,
    );
  }
  try {
    const der = Buffer.from(decryptSecret(vaultKey, fs.readFileSync(file, 'utf8').trim(), CONTEXT), 'base64');
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    throw new SigningKeyError(`Audit signing key file ${file} cannot be opened with this vault key (another deployment's file, or a changed VAULT_KEY)`);
  }
}

/** The signer of a gateway's checkpoints: the configured key, or the one kept in its data directory. */
export function checkpointSignerFor(options: { configured?: string | null; dataDir: string; vaultKey: Buffer }): CheckpointSigner {
  return ed25519Signer(loadOrCreateSigningKey(options));
}
