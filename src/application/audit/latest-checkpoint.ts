/**
 * The newest audit checkpoint, for the dashboard's health page. The checkpoint stream is read
 * again only when its version has moved (one new event a minute at most), so looking often costs a
 * version lookup.
 */
import { AUDIT_CHECKPOINT_RECORDED, AUDIT_CHECKPOINT_STREAM, parseCheckpoint } from '../../domain/audit/checkpoint';
import type { EventStore } from '../ports/event-store';
import { lastEventOf } from '../last-event';

export interface LatestCheckpointView {
  /** Position of the checkpoint event itself. */
  position: string;
  upToPosition: string;
  eventCount: number;
  digest: string;
  recordedAt: string;
}

export class LatestCheckpoint {
  private cached: { version: bigint; view: LatestCheckpointView | null } | null = null;

  constructor(private readonly store: EventStore) {}

  async read(): Promise<LatestCheckpointView | null> {
    const version = await this.store.streamVersion(AUDIT_CHECKPOINT_STREAM);
    if (version === null) return null;
    if (this.cached?.version === version) return this.cached.view;
    // The stream gains a checkpoint a minute; only its newest event is read, and the whole stream
    // only when that event is not a checkpoint.
    const last = await lastEventOf(this.store, AUDIT_CHECKPOINT_STREAM, version);
    const events = last?.type === AUDIT_CHECKPOINT_RECORDED ? [last] : await this.store.readStream(AUDIT_CHECKPOINT_STREAM);
    const newest = [...events].reverse().find((e) => e.type === AUDIT_CHECKPOINT_RECORDED);
    const data = newest ? parseCheckpoint(newest.data) : null;
    const view =
      newest && data
        ? { position: newest.position.toString(), upToPosition: data.upToPosition, eventCount: data.eventCount, digest: data.digest, recordedAt: data.recordedAt }
        : null;
    this.cached = { version, view };
    return view;
  }
}
