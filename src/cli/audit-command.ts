/**
 * `audit verify [--json]`: walks the whole event log of the configured store (EVENT_STORE,
 * DATABASE_URL, ESDB_URL, DATA_DIR as everywhere else) and reports the first broken link; exits 1
 * when there is one.
 * `audit checkpoint [--json]`: records a signed checkpoint now if the log moved since the last one
 * (the server does this every AUDIT_CHECKPOINT_INTERVAL_SECONDS, or after 1,000 events).
 * `audit key`: prints the checkpoints' public key (PEM, SPKI).
 * `audit proof <trans_id> [--out FILE]`: a payment's proof (docs/audit.md#payment-proofs).
 * `audit verify-proof FILE [--key PEM]`: checks a proof with nothing but the file: no store, no data directory.
 * `audit consistency OLD.json NEW.json [--key PEM]`: whether a newer signed checkpoint extends one kept.
 *
 * They open the store as written, without a gateway: no read models. The signing key needs the
 * vault key (it is sealed with it) unless AUDIT_SIGNING_KEY is set.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { buildPaymentProof, checkConsistency, latestSignedCheckpoint, ProofError, signedCheckpointOf } from '../application/audit/proofs';
import { verifyPaymentProof } from '../domain/audit/payment-proof';
import { type CheckpointSigner, ed25519Signer, parsePublicKey, publicKeyPem } from '../domain/audit/signed-checkpoint';
import { paymentStreamId } from '../domain/payment/events';
import { CheckpointRecorder } from '../application/audit/checkpoint-recorder';
import { type AuditReport, describeBroken, verifyEventLog } from '../application/audit/verifier';
import { systemClock } from '../application/ports/clock';
import type { EventStore } from '../application/ports/event-store';
import { loadConfig, type GatewayConfig } from '../config';
import { flag, print, requireGatewayData, UsageError, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';
import { startProgress } from './progress';

export const auditHelp: CommandHelp = {
  name: 'audit',
  summary: "check the event log's hash chains and signed checkpoints; prove a payment's events to an auditor",
  usage: [
    'usage: npm run gateway -- audit verify [--json]',
    '       npm run gateway -- audit checkpoint [--json]',
    '       npm run gateway -- audit key [--json]',
    '       npm run gateway -- audit proof <trans_id> [--out FILE]',
    '       npm run gateway -- audit verify-proof FILE [--key PEM] [--json]',
    '       npm run gateway -- audit consistency OLD.json NEW.json [--key PEM] [--json]',
    '',
    '  verify        walk the whole event log; print the first broken link and exit 1, or OK and the',
    '                newest checkpoint (keep it where the database\'s writers cannot reach)',
    '  checkpoint    record a signed audit checkpoint now if the log moved since the last one',
    '  key           print the public key that signs checkpoints (PEM, SPKI; also GET /audit/key)',
    '  proof         write a payment\'s events with their Merkle inclusion paths to a signed checkpoint',
    '                (records a checkpoint first when none covers the payment\'s newest event)',
    '  verify-proof  check a proof with nothing but the file: exit 0 and print the payment\'s state,',
    '                or exit 1 naming the first thing wrong; needs no database and no data directory',
    '  consistency   check that the signed checkpoint NEW extends OLD (one an auditor kept), from the',
    '                log as it is now; exit 1 when history behind OLD was rewritten',
    '  --out FILE    write the proof there instead of printing it',
    '  --key PEM     the gateway\'s public key (a PEM file, or the PEM itself) the signature must be made with',
    '  --json        print the report as JSON',
    '',
    'Format of proofs and checkpoints: docs/audit.md',
  ].join('\n'),
};

export async function auditCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  switch (p.positional[1]) {
    case 'verify':
      return verifyLog(p, json);
    case 'checkpoint':
      return recordCheckpoint(p, json);
    case 'key':
      return printKey(p, json);
    case 'proof':
      return writeProof(p, json);
    case 'verify-proof':
      return verifyProof(p, json);
    case 'consistency':
      return checkConsistencyOf(p, json);
    default:
      throw usageError(auditHelp);
  }
}

/** `audit verify`: the whole log walked, exit 1 at its first broken link. */
async function verifyLog(_p: Parsed, json: boolean): Promise<number> {
  const config = loadConfig();
  const publicKey = await existingPublicKey(config);
  const progress = startProgress({ label: 'Verifying', unit: 'events', json });
  const report = await withRawStore(config, (store) =>
    verifyEventLog(store, {
      // Only EventStoreDB keeps events from before chains existed: it never rewrites history.
      allowUnchainedHistory: config.eventStore === 'eventstoredb',
      // Signatures are checked when this gateway's key is at hand; the Merkle roots always.
      publicKey,
      // The share of the log read (positions are byte offsets on EventStoreDB: a share all the same).
      onPage: ({ events, position, head }) => progress.update(events, Number(position) / Number(head)),
    }),
  ).finally(() => progress.finish());
  print(toJson(report), json, () => describe(report));
  return report.ok ? 0 : 1;
}

/** `audit checkpoint`: a signed checkpoint now, if the log moved since the last one. */
async function recordCheckpoint(_p: Parsed, json: boolean): Promise<number> {
  const config = loadConfig();
  const signer = await signerOf(config);
  const recorded = await withRawStore(config, (store) => new CheckpointRecorder({ store, clock: systemClock, signer }).recordIfMoved());
  print(recorded ? signedCheckpointOf(recorded, signer.publicKey) : { recorded: false }, json, () =>
    recorded
      ? `Checkpoint recorded: ${recorded.treeSize} events up to position ${recorded.upToPosition}, root ${recorded.rootHash}`
      : 'Nothing to record: no event since the last checkpoint.',
  );
  return 0;
}

/** `audit key`: the public key that signs checkpoints. */
async function printKey(_p: Parsed, json: boolean): Promise<number> {
  const signer = await signerOf(loadConfig());
  print({ public_key: publicKeyPem(signer.publicKey), key_id: signer.keyId }, json, () => publicKeyPem(signer.publicKey).trimEnd());
  return 0;
}

/** `audit proof <trans_id>`: a payment's events with their inclusion paths to a signed checkpoint. */
async function writeProof(p: Parsed, _json: boolean): Promise<number> {
  const transId = p.positional[2];
  if (!transId) throw usageError(auditHelp, 'audit proof needs a trans_id');
  const out = flag(p, 'out');
  const config = loadConfig();
  const signer = await signerOf(config);
  const proof = await withRawStore(config, async (store) => {
    const stored = await store.readStream(paymentStreamId(transId));
    if (stored.length === 0) throw new UsageError(`No payment ${transId}`);
    const latest = await latestSignedCheckpoint(store);
    // The payment's newest event is not under a signed checkpoint yet: this command records one.
    if (!latest || BigInt(latest.upToPosition) < stored[stored.length - 1]!.position) {
      await new CheckpointRecorder({ store, clock: systemClock, signer }).recordIfMoved();
    }
    return buildPaymentProof(store, transId, signer.publicKey);
  }).catch((error: unknown) => {
    if (error instanceof ProofError) throw new UsageError(error.message);
    throw error;
  });
  const text = `${JSON.stringify(proof, null, 2)}\n`;
  if (out) {
    writeFileSync(out, text);
    process.stderr.write(`Proof of ${transId}: ${proof!.events.length} events, written to ${path.resolve(out)}\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

/** `audit verify-proof FILE`: a proof checked with nothing but the file. */
async function verifyProof(p: Parsed, json: boolean): Promise<number> {
  const file = p.positional[2];
  if (!file) throw usageError(auditHelp, 'audit verify-proof needs a proof file');
  const key = expectedKey(p);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    print({ ok: false, problem: `cannot read ${file} as JSON: ${(error as Error).message}` }, json, () => `INVALID: cannot read ${file} as JSON`);
    return 1;
  }
  const verdict = verifyPaymentProof(doc, key);
  if (!verdict.ok) {
    print(verdict, json, () => `INVALID: ${verdict.problem}`);
    return 1;
  }
  const c = verdict.checkpoint;
  print({ ok: true, events: verdict.events, checkpoint: c, state: verdict.state }, json, () =>
    [
      `OK: ${verdict.events} events proven in the log of key ${c.keyId.slice(0, 16)}…, checkpoint of ${c.treeSize} events at ${c.recordedAt}${key ? ' (signed by the key given)' : ' (give --key to pin the signer)'}`,
      ...describeState(verdict.state as unknown as Record<string, unknown>),
    ].join('\n'),
  );
  return 0;
}

/** `audit consistency OLD.json NEW.json`: whether NEW extends OLD, by the log as it is now. */
async function checkConsistencyOf(p: Parsed, json: boolean): Promise<number> {
  const [older, newer] = [p.positional[2], p.positional[3]];
  if (!older || !newer) throw usageError(auditHelp, 'audit consistency needs the older and the newer checkpoint files');
  const key = expectedKey(p);
  const read = (file: string): unknown => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read ${file} as JSON: ${(error as Error).message}`);
    }
  };
  const verdict = await withRawStore(loadConfig(), (store) => checkConsistency(store, read(older), read(newer), key));
  print(verdict, json, () =>
    verdict.ok
      ? `OK: the checkpoint of ${verdict.newSize} events extends the one of ${verdict.oldSize} (consistency path of ${verdict.path.length} hashes)`
      : `INCONSISTENT: ${verdict.problem}`,
  );
  return verdict.ok ? 0 : 1;
}

/** The gateway's checkpoint signer: AUDIT_SIGNING_KEY, or the key sealed in the data directory (made on first use). */
async function signerOf(config: GatewayConfig): Promise<CheckpointSigner> {
  requireGatewayData(config);
  const [{ loadOrCreateSigningKey }, { loadOrCreateVaultKey }] = await Promise.all([
    import('../adapters/audit/signing-key'),
    import('../adapters/vault/card-vault'),
  ]);
  const vaultKey = config.auditSigningKey
    ? Buffer.alloc(32)
    : loadOrCreateVaultKey({ keyHex: config.vaultKeyHex ?? undefined, keyFile: path.join(config.dataDir, 'vault.key') });
  return ed25519Signer(loadOrCreateSigningKey({ configured: config.auditSigningKey, dataDir: config.dataDir, vaultKey }));
}

/** The gateway's public key when its signing key exists (nothing is created); undefined otherwise. */
async function existingPublicKey(config: GatewayConfig): Promise<KeyObject | undefined> {
  const { loadSigningKey } = await import('../adapters/audit/signing-key');
  const hasVaultKey = config.vaultKeyHex || existsSync(path.join(config.dataDir, 'vault.key'));
  if (!config.auditSigningKey && !hasVaultKey) return undefined;
  const { loadOrCreateVaultKey } = await import('../adapters/vault/card-vault');
  const vaultKey = config.auditSigningKey
    ? Buffer.alloc(32)
    : loadOrCreateVaultKey({ keyHex: config.vaultKeyHex ?? undefined, keyFile: path.join(config.dataDir, 'vault.key') });
  const key = loadSigningKey({ configured: config.auditSigningKey, dataDir: config.dataDir, vaultKey });
  return key ? ed25519Signer(key).publicKey : undefined;
}

/** The key that `--key` names: a PEM file, or the PEM itself. */
function expectedKey(p: Parsed): KeyObject | undefined {
  const value = flag(p, 'key');
  if (value === undefined) return undefined;
  let pem = value;
  if (!value.includes('-----BEGIN')) {
    try {
      pem = readFileSync(value, 'utf8');
    } catch {
      throw new UsageError(`--key ${value}: neither a PEM nor a readable file`);
    }
  }
  const key = parsePublicKey(pem);
  if (!key) throw new UsageError(`--key ${value}: not an Ed25519 public key in PEM (SPKI)`);
  return key;
}

/** The payment's state as a few lines: its status and amounts, as folded from the proven events. */
function describeState(state: Record<string, unknown>): string[] {
  if (state.exists !== true) return ['The proven events do not start a payment.'];
  const picks = ['paymentId', 'merchantId', 'orderId', 'status', 'phase', 'currency', 'amountText', 'settledAmount', 'refundedAmount', 'reversedAmount', 'card'];
  return picks
    .filter((k) => state[k] !== undefined)
    .map((k) => `  ${k.padEnd(15)} ${typeof state[k] === 'object' ? JSON.stringify(state[k]) : String(state[k])}`);
}

async function withRawStore<T>(config: GatewayConfig, fn: (store: EventStore) => Promise<T>): Promise<T> {
  requireGatewayData(config);
  // Loaded here, not with the CLI: every other command starts without the event-store drivers.
  const [{ createEventStore }, { eventStoreTarget }] = await Promise.all([
    import('../adapters/event-store/create-event-store'),
    import('../storage-targets'),
  ]);
  const store = await createEventStore(eventStoreTarget(config));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function describe(report: AuditReport): string {
  if (report.broken) return `${describeBroken(report.broken)}\n(${report.events} events verified before it)`;
  const lines = [`OK: ${report.events} events in ${report.streams} streams, ${report.checkpoints} checkpoints verified`];
  if (report.unchainedEvents > 0) {
    lines.push(`${report.unchainedEvents} of them were written before the store kept chains and carry no hash`);
  }
  if (report.latestCheckpoint) {
    const c = report.latestCheckpoint;
    lines.push(`Latest checkpoint: up to position ${c.upToPosition}, digest ${c.digest}`);
  }
  const latest = report.latestCheckpoint;
  if (report.headPosition !== null && (!latest || report.headPosition > latest.position)) {
    const from = latest ? `after position ${latest.upToPosition}` : 'in the log';
    lines.push(`Events ${from} are protected by their stream chains only, until a checkpoint covers them`);
  }
  return lines.join('\n');
}

/** Bigints as decimal strings: JSON has no bigint. */
function toJson(report: AuditReport): unknown {
  return JSON.parse(JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
}
