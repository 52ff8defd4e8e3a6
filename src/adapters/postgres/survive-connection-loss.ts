/**
 * A pg connection that dies (the server restarts or fails over, an operator runs
 * pg_terminate_backend, a network blip) emits 'error'. An idle pooled connection emits it on its
 * pool, one checked out between two queries emits it on the client itself; either, unhandled, ends
 * the whole process. Handled, the dead connection is simply dropped: the pool opens a fresh one for
 * the next query, and the query that was running on it fails like any other database error.
 */
import type { Pool } from 'pg';

export function surviveConnectionLoss(pool: Pool, onError: (error: Error) => void = () => undefined): Pool {
  pool.on('error', (error) => onError(error));
  // The failure reaches whoever runs the next query on it; release then removes it from the pool.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
