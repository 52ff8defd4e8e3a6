import type { MessagePort } from 'node:worker_threads';
import type { EventStore } from '../../application/ports/event-store';
import { PostgresEventStore } from './postgres-event-store';
import { SqliteEventStore } from './sqlite-event-store';

export interface EventStoreConfig {
  kind: 'sqlite' | 'postgres' | 'eventstoredb';
  /** For `sqlite`: path of the database file (or ':memory:'). */
  sqliteFile?: string;
  /** For `postgres`: connection string. */
  databaseUrl?: string;
  /** For `eventstoredb`: connection string, e.g. `esdb://localhost:2113?tls=false`. */
  esdbUrl?: string;
  /** How often subscriptions poll; each adapter has its own default. */
  pollIntervalMs?: number;
  /** For `sqlite`: commit on a writer thread, off the caller's event loop. */
  writerThread?: boolean;
  /** For `sqlite`: be the process's one writer, committing on the calling thread (SqliteEventStoreOptions.processWriter). */
  processWriter?: boolean;
  /** For `sqlite`: commit through another store's writer thread (SqliteEventStore.openWriterPort). */
  writerPort?: MessagePort;
  /** For `sqlite`: a writer thread's commit signal (SqliteEventStore.commitSignal), so subscriptions read its commits at once. */
  commitSignal?: SharedArrayBuffer;
  /** For `sqlite` with a commit signal: how long after a commit subscriptions read it. */
  commitSettleMs?: number;
}

/**
 * Opens the configured event store, ready to use (the table is created, or given chain hashes, if
 * needed). It hands out events as stored; the application reads through `withUpcasting`.
 */
export async function createEventStore(config: EventStoreConfig): Promise<EventStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteEventStore({
        filename: required(config.sqliteFile, 'sqliteFile', config.kind),
        pollIntervalMs: config.pollIntervalMs,
        writerThread: config.writerThread,
        processWriter: config.processWriter,
        writerPort: config.writerPort,
        commitSignal: config.commitSignal,
        commitSettleMs: config.commitSettleMs,
      });
    case 'postgres':
      return PostgresEventStore.create({
        connectionString: required(config.databaseUrl, 'databaseUrl', config.kind),
        pollIntervalMs: config.pollIntervalMs,
      });
    case 'eventstoredb': {
      // Loaded only here: its client and gRPC stack cost every thread of every other deployment a
      // fifth of a second at start.
      const { EventStoreDbEventStore } = await import('./eventstoredb-event-store');
      return new EventStoreDbEventStore({
        connectionString: required(config.esdbUrl, 'esdbUrl', config.kind),
      });
    }
    default:
      throw new Error(`unknown event store kind: ${String((config as { kind: unknown }).kind)}`);
  }
}

function required(value: string | undefined, name: string, kind: string): string {
  if (!value) throw new Error(`event store kind "${kind}" needs ${name}`);
  return value;
}
