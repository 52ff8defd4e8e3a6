/**
 * How far the notifier has followed the log, and the checkpoint it may save: right before the
 * lowest payment event whose delivery is not recorded yet, so a restart picks the unfinished up again.
 */
import { CheckpointSaves } from '../checkpoint-saves';
import type { NotifierCheckpoint } from './notifier-deps';

/** A payment event whose scheduling is in progress. */
export interface Pending {
  position: bigint;
  done: boolean;
}

export class LogProgress {
  lastSeen: bigint | null = null;
  private savedCheckpoint: bigint | null = null;
  /** Scheduling appends in progress, in log order; the checkpoint advances over finished ones only. */
  private readonly pending: Pending[] = [];
  private readonly saves: CheckpointSaves;

  constructor(checkpoint: NotifierCheckpoint) {
    this.saves = new CheckpointSaves(checkpoint);
  }

  /** Starts over from the checkpoint loaded. */
  resumeAfter(position: bigint | null): void {
    this.pending.length = 0;
    this.lastSeen = position;
    this.savedCheckpoint = position;
  }

  /** An event with nothing to schedule. */
  passed(position: bigint): void {
    this.lastSeen = position;
  }

  /** An event whose scheduling starts: the checkpoint cannot pass it until it is marked done. */
  open(position: bigint): Pending {
    const entry: Pending = { position, done: false };
    this.pending.push(entry);
    this.lastSeen = position;
    return entry;
  }

  /**
   * Saves the position right before the lowest event whose delivery is not recorded yet. The
   * periodic saves (`mayWait` false) do not wait for a busy database: callbacks are sent from this
   * thread, and a checkpoint saved a moment later only means replaying a moment more after a crash.
   */
  async save(mayWait = true): Promise<void> {
    while (this.pending.length > 0 && this.pending[0].done) this.pending.shift();
    // With nothing in progress, everything seen so far is accounted for.
    const upTo = this.pending.length > 0 ? this.pending[0].position - 1n : this.lastSeen;
    if (upTo === null || (this.savedCheckpoint !== null && upTo <= this.savedCheckpoint)) return;
    if (mayWait) await this.saves.save(upTo);
    else if (!(await this.saves.saveUnlessBusy(upTo))) return;
    this.savedCheckpoint = upTo;
  }
}
