/**
 * `audit verify` as a background job an operator starts from the dashboard: one run at a time per
 * process, its progress (events checked, rate, time left) readable while it runs, its report kept
 * after it ends. The walk reads the log page by page and gives the event loop back between pages,
 * so payments keep being served while a large log is checked.
 */
import { type AuditReport, verifyEventLog } from './verifier';
import type { EventStore } from '../ports/event-store';

export interface VerifyJobProgress {
  state: 'idle' | 'running' | 'done' | 'failed';
  startedAt: string | null;
  finishedAt: string | null;
  /** Events checked so far. */
  events: number;
  /** Global position reached, and the head the run stops at (text: positions may exceed a JSON number). */
  position: string | null;
  head: string | null;
  /** Events per second so far. */
  rate: number | null;
  /** Seconds left, estimated from positions (exact on SQLite and PostgreSQL, rough on EventStoreDB). */
  etaSeconds: number | null;
  report: AuditReport | null;
  error: string | null;
}

export interface VerifyJobOptions {
  /** The store as written: hashes cover the stored shape. */
  store: EventStore;
  allowUnchainedHistory: boolean;
  now?: () => number;
  /** Events per read. Default 1000. */
  pageSize?: number;
  /** Gives the event loop back between pages. Default: setImmediate. */
  yieldToEventLoop?: () => Promise<void>;
}

export class VerifyJob {
  private progress: VerifyJobProgress = {
    state: 'idle',
    startedAt: null,
    finishedAt: null,
    events: 0,
    position: null,
    head: null,
    rate: null,
    etaSeconds: null,
    report: null,
    error: null,
  };
  private running: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(private readonly options: VerifyJobOptions) {
    this.now = options.now ?? Date.now;
  }

  status(): VerifyJobProgress {
    return { ...this.progress };
  }

  /** Starts a run unless one is running; true when this call started it. */
  start(): boolean {
    if (this.running) return false;
    const started = this.now();
    this.progress = { ...this.status(), state: 'running', startedAt: new Date(started).toISOString(), finishedAt: null, events: 0, position: null, head: null, rate: null, etaSeconds: null, report: null, error: null };
    const yieldToEventLoop = this.options.yieldToEventLoop ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    let first: bigint | null = null;
    this.running = verifyEventLog(this.options.store, {
      allowUnchainedHistory: this.options.allowUnchainedHistory,
      pageSize: this.options.pageSize,
      onPage: async ({ events, position, head }) => {
        first ??= position;
        const seconds = Math.max((this.now() - started) / 1000, 0.001);
        const rate = events / seconds;
        const done = Number(position - first) || 1;
        const left = Number(head - position);
        this.progress = {
          ...this.progress,
          events,
          position: position.toString(),
          head: head.toString(),
          rate: Math.round(rate),
          etaSeconds: left <= 0 ? 0 : Math.ceil((left / done) * seconds),
        };
        await yieldToEventLoop();
      },
    })
      .then((report) => {
        this.progress = {
          ...this.progress,
          state: 'done',
          finishedAt: new Date(this.now()).toISOString(),
          events: report.events,
          position: report.headPosition?.toString() ?? null,
          head: report.headPosition?.toString() ?? null,
          etaSeconds: 0,
          report,
        };
      })
      .catch((error: unknown) => {
        this.progress = { ...this.progress, state: 'failed', finishedAt: new Date(this.now()).toISOString(), error: error instanceof Error ? error.message : String(error) };
      })
      .finally(() => {
        this.running = null;
      });
    return true;
  }

  /** Resolves when the run in progress (if any) has ended. */
  async settled(): Promise<void> {
    await this.running;
  }
}
