/**
 * The SQLite event store's writer thread. better-sqlite3 is synchronous, so a COMMIT's fsync would
 * stop the HTTP event loop; here it stops only this thread. The main thread keeps sending the
 * appends that arrive while a batch commits, so batches grow with load (group commit).
 */
import Database from 'better-sqlite3';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type BatchItem, type BatchResult, createBatchWriter, prepareEventsDatabase } from './sqlite-batch-writer';

export type WriterMessage = { type: 'batch'; id: number; batch: BatchItem[] } | { type: 'close' };
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
  parentPort!.on('message', (message: WriterMessage) => {
    if (message.type === 'close') {
      db.close();
      parentPort!.postMessage({ type: 'closed' } satisfies WriterReply);
      return;
    }
    parentPort!.postMessage({ type: 'result', id: message.id, result: write(message.batch) } satisfies WriterReply);
  });
}

const file = !isMainThread ? (workerData as { sqliteWriterFile?: string } | null)?.sqliteWriterFile : undefined;
if (file) runInThread(file);
