/**
 * Feeds events from the store into the read-model projections, in batches.
 *
 * Each projection owns a checkpoint row, and its rows and checkpoint are written in one transaction,
 * so a crash or a failing batch can never leave rows that the checkpoint does not account for, and a
 * restart resumes exactly where the last commit left off. One subscription, started at the lowest
 * checkpoint, serves all projections; each one skips the positions it has already seen.
 *
 * The projector shares its process with the HTTP API, so it never applies events one by one (a batch
 * costs a handful of statements whatever its size) and it yields to the event loop between batches.
 */
import type { Kysely } from 'kysely';
import type { EventStore, StoredEvent, Subscription } from '../src/application/ports/event-store';
import type { ReadModelDatabase } from './database-schema';
import type { Projection } from './projection-module';
import { advanceCheckpoint } from './checkpoint-advance';

export type { Projection };

export interface ProjectorOptions {
  store: EventStore;
  db: Kysely<ReadModelDatabase>;
  projections: Projection[];
  /** Most events applied per transaction. Default 500. */
  batchSize?: number;
  /** Pause before resubscribing after a failed batch or a dropped subscription. Default 1000 ms. */
  retryDelayMs?: number;
  /** Told about every failure the live projector recovers from by retrying. */
  onError?(error: unknown): void;
  /**
   * Under a steady stream of appends, gather live events this long before writing them, so each
   * transaction carries many events instead of a handful. 0 (default) writes as soon as deliveries
   * pause. A `waitFor` caller is never kept waiting by it.
   */
  gatherMs?: number;
  /**
   * Told after each batch's transactions, committed or not: a reader on another thread that waits
   * for the checkpoints looks again then instead of at its next poll. With `readersWaitFor`, told
   * as well once those projections' transactions are done.
   */
  onApplied?(): void;
  /**
   * The projections a reader of its own write waits for (ReadModels' READ_YOUR_WRITES). Each batch
   * goes to them first, and readers waiting for them only (`waitFor` with their names, `onApplied`)
   * hear of it before the other projections have their turn.
   */
  readersWaitFor?: readonly string[];
}

/** Another writer advanced a checkpoint under us: its rows are in the database, ours must not be. */
export class CheckpointConflictError extends Error {
  constructor(
    readonly projection: string,
    readonly expected: bigint | null,
  ) {
    super(`Checkpoint of projection ${projection} is no longer ${expected === null ? 'empty' : expected.toString()}`);
    this.name = 'CheckpointConflictError';
  }
}

interface Batch {
  /** Position right before the first event: the batch covers everything in (after, last]. */
  after: bigint | null;
  events: StoredEvent[];
}

interface Waiter {
  position: bigint;
  /** The projections it waits for; null: all of them. */
  names: readonly string[] | null;
  settle(reached: boolean): void;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Projector {
  private readonly store: EventStore;
  private readonly db: Kysely<ReadModelDatabase>;
  private readonly projections: Projection[];
  private readonly batchSize: number;
  private readonly retryDelayMs: number;
  private readonly reportError: (error: unknown) => void;
  private readonly gatherMs: number;
  private readonly onApplied: (() => void) | undefined;
  /** Every projection's name, in the given order: what a waiter without names waits for. */
  private readonly names: readonly string[];
  /** The order a batch goes to the projections in: those readers wait for first. */
  private readonly applyOrder: Projection[];
  /** How many of `applyOrder`'s first projections readers wait for; 0 when they wait for none or all. */
  private readonly readersFirst: number;

  private readonly checkpointByName = new Map<string, bigint | null>();
  private loading: Promise<void> | null = null;
  /** Serialises every batch, live or catch-up: checkpoints must move one batch at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  private running = false;
  private subscription: Subscription | null = null;
  /** Bumped whenever the live subscription is replaced, so stale deliveries are dropped. */
  private generation = 0;
  private buffer: StoredEvent[] = [];
  private bufferAfter: bigint | null = null;
  private flushScheduled = false;
  /** The pending gathering's timer, while one runs. */
  private gatherTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly waiters = new Set<Waiter>();

  constructor(options: ProjectorOptions) {
    this.store = options.store;
    this.db = options.db;
    this.projections = [...options.projections];
    this.batchSize = Math.max(1, options.batchSize ?? 500);
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.gatherMs = Math.max(0, options.gatherMs ?? 0);
    this.onApplied = options.onApplied;
    this.reportError =
      options.onError ?? ((error) => console.error('read-model projector failed, will resubscribe:', error));
    this.names = this.projections.map((p) => p.name);
    if (new Set(this.names).size !== this.names.length) throw new Error('Projection names must be unique');
    const readers = new Set(options.readersWaitFor ?? []);
    const first = this.projections.filter((p) => readers.has(p.name));
    this.applyOrder = [...first, ...this.projections.filter((p) => !readers.has(p.name))];
    this.readersFirst = first.length < this.projections.length ? first.length : 0;
  }

  /** Subscribes from the lowest checkpoint and keeps the read models following the store. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.load();
    } catch (error) {
      this.running = false;
      throw error;
    }
    if (this.running) this.subscribe();
  }

  /** Stops following the store; events already delivered are applied before this resolves. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const subscription = this.subscription;
    this.subscription = null;
    if (subscription) await subscription.stop();
    // What was gathered is written just below; a pending gathering must not keep the process alive.
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    this.gatherTimer = null;
    this.flushScheduled = false;
    await this.flush();
    this.generation++;
    this.buffer = [];
    await this.exclusive(async () => undefined);
  }

  /** Lowest checkpoint over all projections; null until every projection has applied something. */
  position(): bigint | null {
    let lowest: bigint | null = null;
    for (const projection of this.projections) {
      const checkpoint = this.checkpointByName.get(projection.name) ?? null;
      if (checkpoint === null) return null;
      if (lowest === null || checkpoint < lowest) lowest = checkpoint;
    }
    return lowest;
  }

  /** In-memory checkpoint of each projection, as last committed by this projector. */
  checkpoints(): Record<string, bigint | null> {
    const result: Record<string, bigint | null> = {};
    for (const projection of this.projections) result[projection.name] = this.checkpointByName.get(projection.name) ?? null;
    return result;
  }

  /**
   * True as soon as every projection (or each one `names` lists, of those this projector runs) has
   * applied `position`; false when `timeoutMs` passes first.
   */
  waitFor(position: bigint, timeoutMs: number, only?: readonly string[]): Promise<boolean> {
    const names = only ? only.filter((name) => this.names.includes(name)) : null;
    if (this.reached(position, names)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => waiter.settle(false), timeoutMs);
      const waiter: Waiter = {
        position,
        names,
        settle: (reached) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      this.waiters.add(waiter);
      // Someone is reading their own write: do not let it wait out a gathering pause, nor the
      // subscription's settling time or poll when what it waits for is not even read yet.
      const buffered = this.buffer.length > 0 ? this.buffer[this.buffer.length - 1].position : this.bufferAfter;
      if (buffered === null || buffered < position) this.subscription?.hurry?.();
      if (this.buffer.length > 0) void this.flush();
    });
  }

  /**
   * Applies everything up to the store's current head, then resolves. Rejects with the error of a
   * failing batch, whose transaction left rows and checkpoint untouched. Safe alongside `start()`.
   */
  async catchUp(): Promise<void> {
    await this.load();
    const head = await this.store.headPosition();
    if (head === null || this.projections.length === 0) return;
    let conflicts = 0;
    for (;;) {
      const done = await this.exclusive(async () => {
        const from = this.position();
        if (from !== null && from >= head) return true;
        const events = await this.store.readAll({ after: from, maxCount: this.batchSize });
        if (events.length === 0) return true;
        try {
          await this.applyBatch({ after: from, events });
        } catch (error) {
          // Another projector (a running server next to a CLI) wrote this batch first: its
          // checkpoint has been taken over, so carry on after it.
          if (!(error instanceof CheckpointConflictError) || ++conflicts > 100) throw error;
        }
        return false;
      });
      if (done) return;
    }
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      if (this.projections.length === 0) return;
      const names = this.projections.map((p) => p.name);
      // Rows exist from the start so every later checkpoint write is a compare-and-set update.
      await this.db
        .insertInto('projection_checkpoints')
        .values(names.map((name) => ({ name, position: null, updated_at: new Date().toISOString() })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const rows = await this.db
        .selectFrom('projection_checkpoints')
        .select(['name', 'position'])
        .where('name', 'in', names)
        .execute();
      for (const row of rows) this.checkpointByName.set(row.name, row.position === null ? null : BigInt(row.position));
    })().catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  private subscribe(): void {
    if (this.projections.length === 0) return;
    const generation = ++this.generation;
    const after = this.position();
    this.buffer = [];
    this.bufferAfter = after;
    this.subscription = this.store.subscribeToAll({
      after,
      onEvent: (event) => {
        if (generation !== this.generation) return;
        this.buffer.push(event);
        // Waiting here holds the subscription back until the batch is written: bounded memory.
        if (this.buffer.length >= this.batchSize) return this.flush();
        this.scheduleFlush();
      },
      onError: (error) => this.fail(generation, error),
    });
  }

  /** Flushes once deliveries pause, so a trickle of live events is not held back for a full batch. */
  private scheduleFlush(): void {
    const waited = this.waiters.size > 0;
    // A gathering that began before a reader came must not hold back what the reader waits for.
    if (this.flushScheduled && (!waited || this.gatherTimer === null)) return;
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    this.gatherTimer = null;
    this.flushScheduled = true;
    const run = () => {
      this.flushScheduled = false;
      this.gatherTimer = null;
      void this.flush();
    };
    if (this.gatherMs > 0 && !waited) this.gatherTimer = setTimeout(run, this.gatherMs);
    else setImmediate(run);
  }

  /** Never rejects: a failure is handed to `fail`, which resubscribes from the checkpoints. */
  private flush(): Promise<void> {
    const generation = this.generation;
    return this.exclusive(async () => {
      // Taken when the turn comes, not when asked, so events arriving meanwhile join the batch.
      while (generation === this.generation && this.buffer.length > 0) {
        const events = this.buffer.splice(0, this.batchSize);
        const after = this.bufferAfter;
        this.bufferAfter = events[events.length - 1].position;
        await this.applyBatch({ after, events });
      }
    }).catch((error: unknown) => this.fail(generation, error));
  }

  private fail(generation: number, error: unknown): void {
    if (generation !== this.generation) return; // this subscription was already given up
    this.generation++;
    this.buffer = [];
    const subscription = this.subscription;
    this.subscription = null;
    // Not awaited: this may run inside the subscription's own handler, which stop() waits for.
    void subscription?.stop().catch(() => undefined);
    this.reportError(error);
    if (!this.running) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.running && this.subscription === null) this.subscribe();
    }, this.retryDelayMs);
  }

  private async applyBatch(batch: Batch): Promise<void> {
    if (batch.events.length === 0) return;
    // Projections touch disjoint rows, so on PostgreSQL their transactions run side by side on
    // separate connections; SQLite's single connection simply takes them in turn, in this order.
    let readersLeft = this.readersFirst;
    const outcomes = await Promise.allSettled(
      this.applyOrder.map(async (projection, index) => {
        try {
          await this.applyTo(projection, batch);
        } finally {
          // A reader of its own write need not wait for the ledger or the callback deliveries.
          if (index < this.readersFirst && --readersLeft === 0) {
            this.notifyWaiters();
            this.onApplied?.();
          }
        }
      }),
    );
    this.notifyWaiters();
    this.onApplied?.();
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    // The HTTP API runs on this event loop too: let it in between batches.
    await yieldToEventLoop();
  }

  private async applyTo(projection: Projection, batch: Batch): Promise<void> {
    const last = batch.events[batch.events.length - 1].position;
    for (let conflicts = 0; ; conflicts++) {
      const checkpoint = this.checkpointByName.get(projection.name) ?? null;
      if (checkpoint !== null && checkpoint >= last) return;
      if (batch.after !== null && (checkpoint === null || checkpoint < batch.after)) {
        // Applying would skip the events between the checkpoint and this batch.
        throw new Error(
          `Projection ${projection.name} is at ${checkpoint ?? 'the start'} but the batch starts after ${batch.after}`,
        );
      }
      const pending = checkpoint === null ? batch.events : batch.events.filter((e) => e.position > checkpoint);
      try {
        await this.write(projection, checkpoint, last, pending);
        this.checkpointByName.set(projection.name, last);
        return;
      } catch (error) {
        if (!(error instanceof CheckpointConflictError)) throw error;
        // Someone else's rows are in (another projector, or a rebuild that swapped fresh tables in):
        // take their checkpoint. When this batch covers what follows it, carry on at once.
        await this.reloadCheckpoint(projection.name);
        const taken = this.checkpointByName.get(projection.name) ?? null;
        if (taken !== null && taken >= last) return;
        const resumable = batch.after === null || (taken !== null && taken >= batch.after);
        if (!resumable || conflicts >= 3) throw error;
      }
    }
  }

  private async write(projection: Projection, checkpoint: bigint | null, last: bigint, pending: StoredEvent[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The checkpoint is written first: on SQLite that takes the write lock before any read, so
      // the transaction cannot fail to upgrade later; everywhere it detects a concurrent writer.
      if (!(await advanceCheckpoint(trx, projection.name, checkpoint, last, new Date().toISOString()))) {
        throw new CheckpointConflictError(projection.name, checkpoint);
      }
      await projection.apply(trx, pending);
    });
  }

  private async reloadCheckpoint(name: string): Promise<void> {
    const row = await this.db.selectFrom('projection_checkpoints').select('position').where('name', '=', name).executeTakeFirst();
    this.checkpointByName.set(name, row?.position == null ? null : BigInt(row.position));
  }

  private reached(position: bigint, names: readonly string[] | null = null): boolean {
    for (const name of names ?? this.names) {
      const checkpoint = this.checkpointByName.get(name) ?? null;
      if (checkpoint === null || checkpoint < position) return false;
    }
    return true;
  }

  private notifyWaiters(): void {
    for (const waiter of [...this.waiters]) if (this.reached(waiter.position, waiter.names)) waiter.settle(true);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
