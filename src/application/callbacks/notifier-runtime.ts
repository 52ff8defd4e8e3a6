/**
 * What the notifier's parts share while it runs: whether it runs, the work it has started (so that
 * stopping can wait for it), and the retrying with backoff of work the database failed.
 */
import type { Logger } from '../ports/logger';
import type { RetryBackoff } from './notifier-deps';

export type Retried<T> = { ok: true; value: T } | { ok: false };

export class NotifierRuntime {
  running = false;
  /** Backoff pauses in progress; stopping ends them at once. */
  private readonly sleepers = new Set<() => void>();
  private readonly work = new Set<Promise<unknown>>();

  constructor(
    private readonly logger: Logger,
    readonly backoff: RetryBackoff,
  ) {}

  track<T>(promise: Promise<T>): Promise<T> {
    this.work.add(promise);
    void promise.finally(() => this.work.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** Whether work started here is not finished yet. */
  get busy(): boolean {
    return this.work.size > 0;
  }

  /** Resolves when the work started so far has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.work]);
  }

  reportError(what: string, error: unknown): void {
    this.logger.error(`notifier ${what} failed`, { error: error instanceof Error ? error.message : String(error) });
  }

  /** Ends the backoff pauses in progress: the work waiting in them gives up. */
  wakeSleepers(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  /** Sleeps for `ms`, or less if the notifier stops meanwhile. */
  private pause(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /**
   * Runs `work` until it succeeds, pausing with backoff after each failure, for as long as the
   * notifier runs (and, with `untilMs`, until that time). `ok: false` means it gave up.
   */
  async retrying<T>(what: string, work: () => Promise<T>, untilMs = Infinity): Promise<Retried<T>> {
    let delay = this.backoff.initialMs;
    for (;;) {
      try {
        return { ok: true, value: await work() };
      } catch (error) {
        if (!this.running || Date.now() + delay > untilMs) {
          this.reportError(what, error);
          return { ok: false };
        }
        this.logger.warn(`notifier ${what} failed, retrying in ${delay} ms`, {
          error: error instanceof Error ? error.message : String(error),
        });
        await this.pause(delay);
        if (!this.running) return { ok: false };
        delay = Math.min(delay * 2, this.backoff.maxMs);
      }
    }
  }
}
