/**
 * A log with many signed checkpoints, and an auditor paging through them: for the tests of the
 * checkpoint history on each store.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { signedCheckpointsAfter } from '../../src/application/audit/checkpoint-history';
import type { Clock } from '../../src/application/ports/clock';
import { ANY, type EventStore, type NewEvent } from '../../src/application/ports/event-store';
import { ed25519Signer, parseCheckpointText, type CheckpointStatement } from '../../src/domain/audit/signed-checkpoint';

const clock: Clock = { now: () => new Date('2024-05-01T10:00:00.000Z') };
const event = (): NewEvent => ({ id: randomUUID(), type: 'ThingHappened', schemaVersion: 1, data: { n: randomUUID() } });
export const signer = ed25519Signer(generateKeyPairSync('ed25519').privateKey);
export const positionOf = (text: string) => (parseCheckpointText(text) as CheckpointStatement).upToPosition;

/**
 * A log of `count` signed checkpoints with 1 to 3 events between them, after one checkpoint recorded
 * without a key; returns the signed ones' texts, oldest first.
 */
export async function logWithCheckpoints(store: EventStore, count: number): Promise<string[]> {
  await store.append('payment-0', [event()], ANY);
  await new CheckpointRecorder({ store, clock }).recordIfMoved();
  const recorder = new CheckpointRecorder({ store, clock, signer });
  const texts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    await store.append(`payment-${i % 4}`, Array.from({ length: 1 + (i % 3) }, event), ANY);
    texts.push((await recorder.recordIfMoved())!.checkpointText!);
  }
  return texts;
}

/** Pages through every signed checkpoint after `after`, `limit` at a time; the texts, and how many pages it took. */
export async function pageThrough(store: EventStore, after: bigint | null, limit: number): Promise<{ texts: string[]; pages: number }> {
  const texts: string[] = [];
  let pages = 0;
  for (let next = after; ; ) {
    const page = await signedCheckpointsAfter(store, signer.publicKey, next, limit);
    pages += 1;
    expect(page.checkpoints.length).to.be.at.most(limit);
    texts.push(...page.checkpoints.map((c) => c.checkpoint_text));
    if (!page.hasMore) return { texts, pages };
    expect(page.checkpoints).to.have.length(limit);
    next = BigInt(page.nextAfter!);
  }
}
