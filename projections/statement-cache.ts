import type Database from 'better-sqlite3';
import { type RowBatchStatement, rowBatchStatement } from './row-batches';

/**
 * The query builder prepares every statement it runs; the projector runs the same few statements
 * thousands of times. Keeping prepared statements (one connection, used by one query at a time)
 * saves SQLite from parsing and planning them again. A row batch (row-batches.ts) is kept the same way.
 */
export function withStatementCache(database: Database.Database): Database.Database {
  const cache = new Map<string, Database.Statement | RowBatchStatement>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver);
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          statement = rowBatchStatement(source, prepare) ?? prepare(source);
          // Statements whose text varies (IN lists of every length) must not grow the cache forever.
          if (cache.size >= 256) cache.delete(cache.keys().next().value!);
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}
