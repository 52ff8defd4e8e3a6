/**
 * The replay floor: the least a full rebuild of a store must cost, in the simplest design that
 * does it. It reads every event of the store's SQLite file in pages, parses its data and metadata,
 * and writes one row per event into a fresh table of a fresh file (WAL, synchronous=NORMAL like the
 * read models), one transaction per page.
 *
 * It folds nothing, keeps no state between events and builds no index but the row's key: no
 * rebuild that writes read models from every event can go faster on the same store and machine.
 *
 * Alone: `tsx test/bench/replay-floor.ts <events.db> <fresh.db>` prints `{ events, ms }` as JSON.
 */
import Database from 'better-sqlite3';

const PAGE_SIZE = 50_000;

export interface ReplayFloorResult {
  events: number;
  ms: number;
}

type Row = [position: number | bigint, stream: string, type: string, data: string, metadata: string, recordedAt: string];

export function replayFloor(storeFile: string, freshFile: string): ReplayFloorResult {
  const store = new Database(storeFile, { readonly: true });
  const target = new Database(freshFile);
  try {
    target.pragma('journal_mode = WAL');
    target.pragma('synchronous = NORMAL');
    target.exec(`CREATE TABLE event_rows (
      position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, type TEXT NOT NULL,
      amount INTEGER, currency TEXT, status TEXT, actor TEXT, recorded_at TEXT NOT NULL)`);
    const page = store.prepare('SELECT position, stream_id, type, data, metadata, recorded_at FROM events WHERE position > ? ORDER BY position LIMIT ?').raw(true).safeIntegers(true);
    const insert = target.prepare('INSERT INTO event_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const writePage = target.transaction((rows: Row[]) => {
      for (const [position, stream, type, data, metadata, recordedAt] of rows) {
        const fields = JSON.parse(data) as { amount?: unknown; currency?: unknown; status?: unknown };
        const meta = JSON.parse(metadata) as { actor?: unknown };
        insert.run(position, stream, type, scalar(fields.amount), scalar(fields.currency), scalar(fields.status), scalar(meta.actor), recordedAt);
      }
    });
    const started = performance.now();
    let after: number | bigint = -1n;
    let events = 0;
    for (;;) {
      const rows = page.all(after, PAGE_SIZE) as Row[];
      if (rows.length === 0) break;
      writePage(rows);
      events += rows.length;
      after = rows[rows.length - 1]![0];
    }
    return { events, ms: performance.now() - started };
  } finally {
    store.close();
    target.close();
  }
}

/** A JSON value as a column: numbers and strings as they are, anything else as its JSON text. */
function scalar(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

if (require.main === module) {
  const [storeFile, freshFile] = process.argv.slice(2);
  if (!storeFile || !freshFile) throw new Error('usage: replay-floor.ts <events.db> <fresh.db>');
  process.stdout.write(`${JSON.stringify(replayFloor(storeFile, freshFile))}\n`);
}
