/**
 * A read-only connection to the SQLite read models on a thread of its own, for the operator's
 * reports: the dashboard's analytics and callback pages, the admin ledger and callback routes, the
 * metrics' callback backlog.
 *
 * better-sqlite3 is synchronous: a query on the HTTP thread stops every request until it returns.
 * The reports aggregate whole tables (balances over every posting, daily volume, refund rates, the
 * callback backlog), so they grow with the gateway's age: at 1,000,000 events the analytics page's
 * four queries took 2.8 s, during which no merchant's request was answered. Here they take a core
 * of their own, and WAL lets them read while the projector writes.
 *
 * The query builder needs a dialect to send queries anywhere; kysely's own SQLite dialect runs them
 * on the calling thread, so this one hands each compiled query to the thread and takes the rows
 * back. The thread starts with the first query, so a process that never reports never starts it.
 */
import Database from 'better-sqlite3';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Kysely,
} from 'kysely';
import { nameThisThread } from '../src/adapters/os/linux-threads';
import { startModuleThread } from '../src/adapters/os/module-thread';
import { withStatementCache } from './statement-cache';

type Request = { id: number; sql: string; parameters: readonly unknown[] } | { id: number; close: true };
type Reply = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } } | { id: number; closed: true };

interface ReportThreadData {
  readModelReportsFile?: string;
}

/** Dialect of the report connection: kysely's SQLite compiler and adapter, queries run on the thread. */
export class ReportThreadSqliteDialect implements Dialect {
  constructor(private readonly file: string) {}

  createAdapter() {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new ReportThreadDriver(this.file);
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

/** Raised by a query the thread could not run; `code` is SQLite's (SQLITE_READONLY for a write). */
export class ReportQueryError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ReportQueryError';
  }
}

class ReportThreadDriver implements Driver {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(reply: Reply): void; reject(error: Error): void }>();
  private readonly connection: DatabaseConnection;

  constructor(private readonly file: string) {
    this.connection = {
      executeQuery: <R>(query: CompiledQuery) => this.run<R>(query),
      streamQuery: () => {
        throw new Error('The report connection does not stream rows');
      },
    };
  }

  async init(): Promise<void> {
    const worker = startModuleThread(__filename, { workerData: { readModelReportsFile: this.file } satisfies ReportThreadData });
    // Waiting queries keep the process alive; an idle report thread does not.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      waiting.resolve(reply);
    });
    const fail = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      if (this.worker === worker) this.worker = null;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The report thread stopped (exit code ${code})`)));
    this.worker = worker;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error('The report connection reads; it has no transactions');
  }

  async commitTransaction(): Promise<void> {
    throw new Error('The report connection reads; it has no transactions');
  }

  async rollbackTransaction(): Promise<void> {
    throw new Error('The report connection reads; it has no transactions');
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await this.send({ id: this.nextId++, close: true }).catch(() => undefined);
    this.worker = null;
    await worker.terminate();
  }

  private async run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const reply = await this.send({ id: this.nextId++, sql: query.sql, parameters: query.parameters });
    if ('error' in reply) throw new ReportQueryError(reply.error.message, reply.error.code);
    if (!('rows' in reply)) throw new Error('The report thread closed');
    return { rows: reply.rows as R[] };
  }

  private send(request: Request): Promise<Reply> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('The report thread is not running'));
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      worker.ref();
      worker.postMessage(request);
    });
  }
}

function runInThread(file: string): void {
  nameThisThread('reports');
  const parent = parentPort!;
  let db: Database.Database | null = null;
  parent.on('message', (request: Request) => {
    if ('close' in request) {
      db?.close();
      db = null;
      parent.postMessage({ id: request.id, closed: true } satisfies Reply);
      return;
    }
    try {
      // Opened at the first query: by then the process has created and migrated the file.
      if (!db) {
        db = withStatementCache(new Database(file, { readonly: true, fileMustExist: true }));
        db.pragma('busy_timeout = 5000');
      }
      const statement = db.prepare(request.sql);
      if (!statement.reader) throw Object.assign(new Error('The report connection only reads'), { code: 'SQLITE_READONLY' });
      parent.postMessage({ id: request.id, rows: statement.all(...request.parameters) } satisfies Reply);
    } catch (error) {
      const { message, code } = error as Error & { code?: unknown };
      parent.postMessage({ id: request.id, error: { message: String(message), ...(typeof code === 'string' ? { code } : {}) } } satisfies Reply);
    }
  });
}

const data = !isMainThread ? (workerData as ReportThreadData | null) : null;
if (data?.readModelReportsFile) runInThread(data.readModelReportsFile);
