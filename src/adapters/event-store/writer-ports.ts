/**
 * The receiving end of other threads' writer ports: the process's one SQLite writer (a writer
 * thread, or the serving thread when it commits itself) takes their batches here, commits them
 * with its own, and hands each sender the outcomes of its own items.
 */
import type { MessagePort } from 'node:worker_threads';
import type { BatchItem, BatchResult } from './sqlite-batch-writer';

export type WriterMessage =
  | { type: 'batch'; id: number; batch: BatchItem[] }
  | { type: 'close' }
  /** Another thread's channel: its batches arrive and are answered on `port`. */
  | { type: 'port'; port: MessagePort };
export type WriterReply = { type: 'result'; id: number; result: BatchResult } | { type: 'closed' };

/** A batch another thread sent, with where its answer goes. */
export interface ReceivedBatch {
  from: MessagePort;
  id: number;
  batch: BatchItem[];
}

/** Hands each sender the outcomes of its own items, in order, or the failure of the whole commit. */
export function answerSenders(group: ReceivedBatch[], result: BatchResult, offset = 0): void {
  for (const { from, id, batch } of group) {
    const mine: BatchResult = result.ok ? { ok: true, outcomes: result.outcomes.slice(offset, offset + batch.length) } : result;
    offset += batch.length;
    from.postMessage({ type: 'result', id, result: mine } satisfies WriterReply);
  }
}

/** Ports this thread serves, and the batches they sent that have not been committed yet. */
export class WriterPortHost {
  private readonly ports = new Set<MessagePort>();
  private received: ReceivedBatch[] = [];

  /** `arrived` is called for every batch: the owner schedules a commit. */
  constructor(private readonly arrived: () => void) {}

  /** Serves `port` (the near end of a channel whose far end another thread appends through). */
  serve(port: MessagePort, keepsThreadAlive: boolean): void {
    this.ports.add(port);
    port.on('message', (message: WriterMessage) => this.receive(port, message));
    port.on('close', () => this.ports.delete(port));
    // The serving thread's own work keeps it alive; an idle port of a background thread must not.
    if (!keepsThreadAlive) port.unref();
  }

  /** A message on a port this host does not own (a writer thread's parent). */
  receive(from: MessagePort, message: WriterMessage): void {
    if (message.type !== 'batch') return;
    this.received.push({ from, id: message.id, batch: message.batch });
    this.arrived();
  }

  pending(): number {
    return this.received.length;
  }

  /** The batches received so far, oldest first, up to `maxItems` items (at least one batch). */
  take(maxItems = Infinity): ReceivedBatch[] {
    let items = 0;
    let count = 0;
    while (count < this.received.length && (count === 0 || items + this.received[count]!.batch.length <= maxItems)) {
      items += this.received[count]!.batch.length;
      count += 1;
    }
    return this.received.splice(0, count);
  }

  close(): void {
    for (const port of this.ports) port.close();
    this.ports.clear();
  }
}
