/**
 * The SQLite event store's writer thread. better-sqlite3 is synchronous, so a COMMIT's fsync would
 * stop the HTTP event loop; here it stops only this thread. Stores send their appends as soon as
 * they are made; whatever arrives while a transaction commits, from any thread, commits together in
 * the next one, so transactions grow with load (group commit) and no append waits for a reply to
 * cross back and forth before it is even sent.
 *
 * It is the process's only writer: other threads of the process (the notifier's) send their
 * appends here through ports of their own (`port` messages), instead of opening a second writing
 * connection whose lock waits would stall both.
 */
import Database from 'better-sqlite3';
import { isMainThread, type MessagePort, parentPort, Worker, workerData } from 'node:worker_threads';
import { nameThisThread } from '../os/linux-threads';
import { startModuleThread } from '../os/module-thread';
import { CommitSignal } from './commit-signal';
import { createBatchWriter, prepareEventsDatabase } from './sqlite-batch-writer';
import { answerSenders, WriterPortHost, type WriterMessage, type WriterReply } from './writer-ports';

export type { WriterMessage, WriterReply } from './writer-ports';

interface WriterData {
  sqliteWriterFile?: string;
  /** CommitSignal.buffer: told after every commit that stored events. */
  commitSignal?: SharedArrayBuffer;
}

export function startWriterThread(filename: string, commits: CommitSignal): Worker {
  return startModuleThread(__filename, { workerData: { sqliteWriterFile: filename, commitSignal: commits.buffer } satisfies WriterData });
}

/** Most appends committed in one transaction; the rest wait for the next one. */
const MAX_ITEMS_PER_COMMIT = 2000;

function runInThread(filename: string, commits: CommitSignal): void {
  nameThisThread('writer');
  const db = new Database(filename);
  prepareEventsDatabase(db);
  const write = createBatchWriter(db);
  const parent = parentPort!;
  let commitScheduled = false;

  // Every batch that queued up while the last transaction committed, from this thread's parent and
  // from every other thread's port, is delivered before the check phase: they commit together.
  const commit = () => {
    commitScheduled = false;
    while (senders.pending() > 0 && db.open) {
      const group = senders.take(MAX_ITEMS_PER_COMMIT);
      const result = write(group.length === 1 ? group[0]!.batch : group.flatMap((r) => r.batch));
      answerSenders(group, result);
      // Subscriptions on every thread of the process read these events now, not at their next poll.
      // After the answers: waking the waiting threads costs tens of microseconds, which the
      // appenders (a SALE waiting to answer its merchant) should not wait for, and those threads
      // read a settling time later anyway.
      if (result.ok && result.outcomes.some((outcome) => outcome.ok)) commits.committed();
    }
  };
  const senders = new WriterPortHost(() => {
    if (!commitScheduled) {
      commitScheduled = true;
      setImmediate(commit);
    }
  });

  parent.on('message', (message: WriterMessage) => {
    if (message.type === 'close') {
      // What was sent before the close is written, not dropped.
      commit();
      senders.close();
      db.close();
      parent.postMessage({ type: 'closed' } satisfies WriterReply);
      return;
    }
    if (message.type === 'port') senders.serve(message.port, true);
    else senders.receive(parent as unknown as MessagePort, message);
  });
}

const data = !isMainThread ? (workerData as WriterData | null) : null;
if (data?.sqliteWriterFile && data.commitSignal) runInThread(data.sqliteWriterFile, CommitSignal.of(data.commitSignal));
