/** The vault key, and the secrets and signing key derived from it. */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { checkpointSignerFor } from '../adapters/audit/signing-key';
import { loadOrCreateVaultKey } from '../adapters/vault/card-vault';
import type { GatewayConfig } from '../config';
import type { CheckpointSigner } from '../domain/audit/signed-checkpoint';

export function loadVaultKey(config: GatewayConfig): Buffer {
  return loadOrCreateVaultKey({ keyHex: config.vaultKeyHex ?? undefined, keyFile: path.join(config.dataDir, 'vault.key') });
}

/** A secret for one purpose, derived so every process sharing the vault key has the same one. */
export function derivedSecret(key: Buffer, purpose: string): Buffer {
  return createHmac('sha256', key).update(purpose).digest();
}

/** Signs audit checkpoints: AUDIT_SIGNING_KEY, else the key kept sealed in the data directory. */
export function auditSignerFor(config: GatewayConfig, key: Buffer): CheckpointSigner {
  return checkpointSignerFor({ configured: config.auditSigningKey, dataDir: config.dataDir, vaultKey: key });
}
