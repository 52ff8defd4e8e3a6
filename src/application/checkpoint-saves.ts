/**
 * Checkpoint saves of a worker that follows the log (the notifier, the payout balance feeder) and
 * must not stop its thread for a busy database. Their work is idempotent, so a checkpoint saved a
 * moment later only means replaying a moment more after a crash.
 */

export interface WorkerCheckpoint {
  load(): Promise<bigint | null>;
  save(position: bigint): Promise<void>;
  /**
   * Saves unless that would mean waiting for another writer of the same database: false then, and
   * the worker tries again at its next save. Without it, every save may wait.
   */
  trySave?(position: bigint): Promise<boolean>;
}

/**
 * Saves in a row that may find the database busy and give up: the next one waits, so a database
 * that is always busy still gets the checkpoint, only later.
 */
export const BUSY_SAVES_BEFORE_WAITING = 8;

export class CheckpointSaves {
  private busySaves = 0;

  constructor(private readonly checkpoint: Pick<WorkerCheckpoint, 'save' | 'trySave'>) {}

  /** Saves without waiting for a busy database (false: not saved) unless too many gave up in a row. */
  async saveUnlessBusy(position: bigint): Promise<boolean> {
    if (this.checkpoint.trySave && this.busySaves < BUSY_SAVES_BEFORE_WAITING) {
      if (!(await this.checkpoint.trySave(position))) {
        this.busySaves++;
        return false;
      }
    } else await this.checkpoint.save(position);
    this.busySaves = 0;
    return true;
  }

  /** Saves, waiting for the database if it must. */
  async save(position: bigint): Promise<void> {
    await this.checkpoint.save(position);
    this.busySaves = 0;
  }
}
