/**
 * The SQLite event store's writer thread. better-sqlite3 is synchronous, so a COMMIT's fsync would
 * stop the HTTP event loop; here it stops only this thread. The main thread keeps sending the
 * appends that arrive while a batch commits, so batches grow with load (group commit).
 *
 * It is the process's only writer: other threads of the process (the notifier's) send their
 * appends here through ports of their own (`port` messages), instead of opening a second writing
 * connection whose lock waits would stall both.
 */
import Database from 'better-sqlite3';
import { isMainThread, type MessagePort, parentPort, Worker, workerData } from 'node:worker_threads';
import { type BatchItem, type BatchResult, createBatchWriter, prepareEventsDatabase } from './sqlite-batch-writer';

export type WriterMessage =
  | { type: 'batch'; id: number; batch: BatchItem[] }
  | { type: 'close' }
  /** Another thread's channel: its batches arrive and are answered on `port`. */
  | { type: 'port'; port: MessagePort };
export type WriterReply = { type: 'result'; id: number; result: BatchResult } | { type: 'closed' };

export function startWriterThread(filename: string): Worker {
  // Run from the sources (tsx) the thread needs the TypeScript loader too; compiled JavaScript does not.
  const bootstrap = `${__filename.endsWith('.ts') ? "require('tsx/cjs'); " : ''}require(${JSON.stringify(__filename)});`;
  return new Worker(bootstrap, { eval: true, workerData: { sqliteWriterFile: filename } });
}

function runInThread(filename: string): void {
  const db = new Database(filename);
  prepareEventsDatabase(db);
  const write = createBatchWriter(db);
  const ports = new Set<MessagePort>();
  parentPort!.on('message', (message: WriterMessage) => {
    if (message.type === 'close') {
      for (const port of ports) port.close();
      db.close();
      parentPort!.postMessage({ type: 'closed' } satisfies WriterReply);
      return;
    }
    if (message.type === 'port') {
      const port = message.port;
      ports.add(port);
      port.on('message', (batch: WriterMessage) => {
        if (batch.type === 'batch' && db.open) port.postMessage({ type: 'result', id: batch.id, result: write(batch.batch) } satisfies WriterReply);
      });
      port.on('close', () => ports.delete(port));
      return;
    }
    parentPort!.postMessage({ type: 'result', id: message.id, result: write(message.batch) } satisfies WriterReply);
  });
}

const file = !isMainThread ? (workerData as { sqliteWriterFile?: string } | null)?.sqliteWriterFile : undefined;
if (file) runInThread(file);
