/**
 * Projection catch-up: how long after the load stops the read models include every event that was
 * appended by then. Reads the gateway's SQLite files directly, read-only, from outside its process.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { sleep } from './children';

export interface CatchUpWatch {
  /** Event head right now (null when the store is empty). */
  head(): bigint | null;
  /** Call the moment the load stops: reads the head and polls the checkpoints every `pollMs`. */
  measure(options?: { pollMs?: number; timeoutMs?: number }): Promise<CatchUpResult>;
  close(): void;
}

export interface CatchUpResult {
  head: string | null;
  /** Milliseconds from the load stopping until every projection's checkpoint reached `head`; null on timeout. */
  delayMs: number | null;
  timedOut: boolean;
  /** Events between the slowest checkpoint and the head at the moment the load stopped. */
  backlogAtStop: string | null;
  polls: number;
  checkpoints: Record<string, string | null>;
}

export function watchCatchUp(dataDir: string): CatchUpWatch {
  const events = new Database(path.join(dataDir, 'events.db'), { readonly: true, fileMustExist: true });
  const readModels = new Database(path.join(dataDir, 'read-models.db'), { readonly: true, fileMustExist: true });
  const headStmt = events.prepare('select max(position) as head from events').safeIntegers(true);
  const checkpointStmt = readModels.prepare('select name, position from projection_checkpoints order by name');

  const head = (): bigint | null => {
    const row = headStmt.get() as { head: bigint | null } | undefined;
    return row?.head ?? null;
  };
  const checkpoints = (): Array<{ name: string; position: bigint | null }> =>
    (checkpointStmt.all() as Array<{ name: string; position: string | null }>).map((row) => ({
      name: row.name,
      position: row.position === null ? null : BigInt(row.position),
    }));

  return {
    head,
    async measure({ pollMs = 10, timeoutMs = 30_000 } = {}) {
      const stoppedAt = performance.now();
      const target = head();
      let rows = checkpoints();
      const lowest = (list: typeof rows) =>
        list.reduce<bigint | null>((low, r) => (r.position === null ? low : low === null || r.position < low ? r.position : low), null);
      const low = lowest(rows);
      const backlogAtStop = target === null ? null : (target - (low ?? 0n)).toString();
      const reached = (list: typeof rows) =>
        target === null || (list.length > 0 && list.every((r) => r.position !== null && r.position >= target));
      let polls = 1;
      while (!reached(rows)) {
        if (performance.now() - stoppedAt > timeoutMs) {
          return { head: target?.toString() ?? null, delayMs: null, timedOut: true, backlogAtStop, polls, checkpoints: asText(rows) };
        }
        await sleep(pollMs);
        rows = checkpoints();
        polls++;
      }
      const delayMs = performance.now() - stoppedAt;
      return { head: target?.toString() ?? null, delayMs, timedOut: false, backlogAtStop, polls, checkpoints: asText(rows) };
    },
    close() {
      events.close();
      readModels.close();
    },
  };
}

function asText(rows: Array<{ name: string; position: bigint | null }>): Record<string, string | null> {
  return Object.fromEntries(rows.map((r) => [r.name, r.position === null ? null : r.position.toString()]));
}
