/**
 * Signed checkpoints: each commits to the Merkle root over every event's chain hash up to it and
 * is signed with the gateway's Ed25519 key, which is kept sealed with the vault key in the data
 * directory or given as AUDIT_SIGNING_KEY.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadOrCreateSigningKey, SIGNING_KEY_FILE } from '../../src/adapters/audit/signing-key';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { checkSignedCheckpoint } from '../../src/application/audit/proofs';
import { describeBroken, verifyEventLog } from '../../src/application/audit/verifier';
import type { Clock } from '../../src/application/ports/clock';
import { ANY, type EventStore, type NewEvent, type StoredEvent } from '../../src/application/ports/event-store';
import { AUDIT_CHECKPOINT_STREAM } from '../../src/domain/audit/checkpoint';
import { eventChainHash } from '../../src/domain/audit/chain-hash';
import { leafHash, rootOf } from '../../src/domain/audit/merkle';
import { ed25519Signer, keyIdOf, parseCheckpointText, verifyCheckpointSignature } from '../../src/domain/audit/signed-checkpoint';
import { startAuditCheckpointer } from '../../src/workers/audit-checkpointer';
import { MemoryEventStore } from '../support/memory-event-store';

const event = (): NewEvent => ({ id: randomUUID(), type: 'ThingHappened', schemaVersion: 1, data: { n: randomUUID() } });
const clock: Clock = { now: () => new Date('2024-05-01T10:00:00.000Z') };

async function rootOfLog(store: EventStore, size: number): Promise<string> {
  const events = (await store.readAll()).slice(0, size);
  return rootOf(events.map((e) => leafHash(e.chainHash))).toString('hex');
}

describe('signed audit checkpoints', function () {
  let store: MemoryEventStore;
  const signer = ed25519Signer(generateKeyPairSync('ed25519').privateKey);

  beforeEach(function () {
    store = new MemoryEventStore();
  });

  it('sign the Merkle root over every event up to their position, continuing the tree from one to the next', async function () {
    const recorder = new CheckpointRecorder({ store, clock, signer, pageSize: 2 });
    await store.append('payment-a', [event(), event(), event()], ANY);
    const first = (await recorder.recordIfMoved())!;
    expect(first.checkpointText).to.equal(
      `ledger-gateway audit checkpoint v1\nkey ${signer.keyId}\nsize 3\nroot ${await rootOfLog(store, 3)}\nposition 2\ntime 2024-05-01T10:00:00.000Z\n`,
    );
    expect(verifyCheckpointSignature(first.checkpointText!, first.signature!, signer.publicKey)).to.equal(true);

    await store.append('payment-b', [event(), event()], ANY);
    // A new recorder: it continues from the stored right edge of the tree, not from its memory.
    const second = (await new CheckpointRecorder({ store, clock, signer }).recordIfMoved())!;
    const statement = parseCheckpointText(second.checkpointText!);
    // 3 events, the first checkpoint, 2 events.
    expect(statement).to.include({ treeSize: 6, rootHash: await rootOfLog(store, 6), upToPosition: '5', keyId: keyIdOf(signer.publicKey) });
    expect(verifyCheckpointSignature(second.checkpointText!, second.signature!, signer.publicKey)).to.equal(true);
    expect((await verifyEventLog(store, { publicKey: signer.publicKey })).ok).to.equal(true);
  });

  it('after a checkpoint recorded without a key, the first signed one builds the tree from the start of the log', async function () {
    await store.append('payment-a', [event(), event()], ANY);
    await new CheckpointRecorder({ store, clock }).recordIfMoved();
    await store.append('payment-b', [event()], ANY);
    // Recorded at once, however few events arrived: the whole log was read for it.
    const signed = (await new CheckpointRecorder({ store, clock, signer }).recordIfMoved({ minEvents: 1000 }))!;
    expect(signed).to.include({ eventCount: 2, treeSize: 4, rootHash: await rootOfLog(store, 4) });
  });

  it('wait for a number of new events when asked to', async function () {
    const recorder = new CheckpointRecorder({ store, clock, signer });
    await store.append('payment-a', [event(), event()], ANY);
    expect(await recorder.recordIfMoved({ minEvents: 3 })).to.equal(null);
    await store.append('payment-a', [event()], ANY);
    expect(await recorder.recordIfMoved({ minEvents: 3 })).to.include({ treeSize: 3 });
  });

  describe('audit verify', function () {
    /** The log with its one checkpoint edited and rechained, as someone with the database would. */
    function withCheckpointEdited(edit: (data: Record<string, unknown>) => void): EventStore {
      const rewrite = (e: StoredEvent): StoredEvent => {
        const data = { ...e.data };
        edit(data);
        return { ...e, data, chainHash: eventChainHash({ ...e, data, prevHash: null }) };
      };
      const view = async (): Promise<StoredEvent[]> => (await store.readAll()).map((e) => (e.streamId === AUDIT_CHECKPOINT_STREAM ? rewrite(e) : e));
      return {
        ...store,
        append: store.append.bind(store),
        appendMultiple: store.appendMultiple.bind(store),
        streamVersion: store.streamVersion.bind(store),
        subscribeToAll: store.subscribeToAll.bind(store),
        close: store.close.bind(store),
        headPosition: store.headPosition.bind(store),
        readStream: async (streamId) => (await view()).filter((e) => e.streamId === streamId),
        readAll: async (options = {}) => {
          const rest = (await view()).filter((e) => options.after == null || e.position > options.after);
          return options.maxCount === undefined ? rest : rest.slice(0, options.maxCount);
        },
      };
    }

    beforeEach(async function () {
      await store.append('payment-a', [event(), event()], ANY);
      await new CheckpointRecorder({ store, clock, signer }).recordIfMoved();
    });

    it('names a checkpoint whose root is not the log\'s', async function () {
      const other = '0'.repeat(64);
      const report = await verifyEventLog(withCheckpointEdited((d) => void (d.rootHash = other)), { publicKey: signer.publicKey });
      expect(report.broken).to.include({ kind: 'checkpoint', problem: 'root_mismatch' });
      expect(describeBroken(report.broken!)).to.match(/its Merkle root is not the root of the log's events up to it/);
    });

    it('names a checkpoint signed by another key than the gateway\'s', async function () {
      const other = ed25519Signer(generateKeyPairSync('ed25519').privateKey);
      const report = await verifyEventLog(store, { publicKey: other.publicKey });
      expect(report.broken).to.include({ kind: 'checkpoint', problem: 'bad_signature' });
    });
  });

  it('are appended to the checkpoint file by the worker, and recorded after 1,000 events before the interval is up', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'checkpoint-file-'));
    const file = join(dir, 'checkpoints.jsonl');
    const worker = startAuditCheckpointer({ store, clock, signer, checkpointFile: file, logger: createJsonLogger('silent'), intervalMs: 3_600_000, maxUncheckedEvents: 5 });
    try {
      await store.append('payment-a', [event(), event(), event(), event()], ANY);
      await worker.runOnce();
      await store.append('payment-b', [event(), event(), event(), event()], ANY);
      // The interval is an hour; the worker's own ticks look at the count every second.
      for (let i = 0; i < 30 && (await store.readStream(AUDIT_CHECKPOINT_STREAM)).length < 2; i += 1) await new Promise((r) => setTimeout(r, 100));
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
      expect(lines).to.have.length(2);
      for (const line of lines) expect(checkSignedCheckpoint(line, signer.publicKey)).to.not.be.a('string');
      expect(parseCheckpointText((lines[1] as { checkpoint_text: string }).checkpoint_text)).to.include({ treeSize: 9 });
    } finally {
      await worker.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the audit signing key', function () {
  let dir: string;
  const vaultKey = randomBytes(32);

  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'signing-key-'));
  });
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is made on first use, sealed with the vault key, owner-only, and the same key after', function () {
    const key = loadOrCreateSigningKey({ dataDir: dir, vaultKey });
    const file = join(dir, SIGNING_KEY_FILE);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).to.match(/^v1:/);
    expect(text).to.not.include(key.export({ type: 'pkcs8', format: 'der' }).toString('base64').slice(-40));
    expect(keyIdOf(ed25519Signer(loadOrCreateSigningKey({ dataDir: dir, vaultKey })).publicKey)).to.equal(keyIdOf(ed25519Signer(key).publicKey));
    expect(() => loadOrCreateSigningKey({ dataDir: dir, vaultKey: randomBytes(32) })).to.throw(/cannot be opened with this vault key/);
    chmodSync(file, 0o644);
    expect(() => loadOrCreateSigningKey({ dataDir: dir, vaultKey })).to.throw(/chmod 600/);
  });

  it('is the one configured, as PEM or base64, when AUDIT_SIGNING_KEY is set', function () {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const id = keyIdOf(ed25519Signer(privateKey).publicKey);
    for (const configured of [pem, Buffer.from(pem).toString('base64'), privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64')]) {
      expect(keyIdOf(ed25519Signer(loadOrCreateSigningKey({ configured, dataDir: dir, vaultKey })).publicKey)).to.equal(id);
    }
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadOrCreateSigningKey({ configured: rsa, dataDir: dir, vaultKey })).to.throw(/Ed25519/);
  });
});
