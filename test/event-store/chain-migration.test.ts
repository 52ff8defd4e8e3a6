/**
 * Stores created before events carried chain hashes: opening one with this release adds the
 * column and chains the events already there, once; appends go on chaining from there.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { Client } from 'pg';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { verifyEventLog } from '../../src/application/audit/verifier';
import { exactly, type EventStore, type StoredEvent } from '../../src/application/ports/event-store';
import { eventChainHash } from '../../src/domain/audit/chain-hash';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';
import { PREVIOUS_RELEASE_POSTGRES_EVENTS, PREVIOUS_RELEASE_SQLITE_EVENTS } from '../support/previous-release-schema';

const OLD_SQLITE_SCHEMA = PREVIOUS_RELEASE_SQLITE_EVENTS;
const OLD_POSTGRES_SCHEMA = PREVIOUS_RELEASE_POSTGRES_EVENTS;

interface OldRow {
  streamId: string;
  version: number;
  type: string;
  data: string;
}

/** Two streams written interleaved, data with keys in no particular order, as the old release wrote them. */
function oldHistory(): OldRow[] {
  const a = `payment-${randomUUID()}`;
  const b = `payment-${randomUUID()}`;
  return [
    { streamId: b, version: 0, type: 'PaymentInitiated', data: '{"paymentId":"b","amount":1000,"currency":"USD"}' },
    { streamId: a, version: 0, type: 'PaymentInitiated', data: '{"paymentId":"a","currency":"EUR","amount":250}' },
    { streamId: a, version: 1, type: 'PaymentSettled', data: '{"settledAt":"2024-05-01T10:00:00.000Z","amount":250}' },
    { streamId: b, version: 1, type: 'PaymentDeclined', data: '{"reason":"Declined by issuer","stage":"authorization"}' },
    { streamId: a, version: 2, type: 'RefundSucceeded', data: '{"amount":100,"operationId":"op-1"}' },
  ];
}

function expectChained(events: StoredEvent[]): void {
  let prevHash: string | null = null;
  for (const event of events) {
    expect(event.chainHash, `${event.streamId} version ${event.version}`).to.equal(eventChainHash({ ...event, prevHash }));
    prevHash = event.chainHash;
  }
}

async function expectMigrated(store: EventStore, rows: OldRow[]): Promise<void> {
  for (const streamId of new Set(rows.map((row) => row.streamId))) {
    const events = await store.readStream(streamId);
    expect(events.map((event) => Number(event.version))).to.deep.equal(
      rows.filter((row) => row.streamId === streamId).map((row) => row.version),
    );
    expectChained(events);
  }
  const report = await verifyEventLog(store);
  expect(report.broken).to.equal(null);
  expect(report.events).to.equal(rows.length);
}

describe('chain hashes for a store written before them', function () {
  describe('SQLite', function () {
    let dir: string;
    let file: string;
    let rows: OldRow[];

    beforeEach(function () {
      dir = mkdtempSync(join(tmpdir(), 'chain-migration-'));
      file = join(dir, 'events.db');
      rows = oldHistory();
      const db = new Database(file);
      db.exec(OLD_SQLITE_SCHEMA);
      const insert = db.prepare(
        'INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata, recorded_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
      );
      for (const row of rows) {
        insert.run(row.streamId, row.version, randomUUID(), row.type, row.data, '{"correlationId":"req-1"}', '2024-05-01T10:00:00.000Z');
      }
      db.close();
    });

    afterEach(function () {
      rmSync(dir, { recursive: true, force: true });
    });

    it('chains the existing events on first open, and later appends chain on from them', async function () {
      const store = new SqliteEventStore({ filename: file });
      try {
        await expectMigrated(store, rows);
        const stream = rows[1]!.streamId;
        await store.append(stream, [{ id: randomUUID(), type: 'RefundSucceeded', schemaVersion: 1, data: { amount: 50 } }], exactly(2n));
        expectChained(await store.readStream(stream));
      } finally {
        await store.close();
      }
    });

    it('backfills only once: a row edited after the upgrade stays caught when the store is opened again', async function () {
      await new SqliteEventStore({ filename: file }).close();
      const db = new Database(file);
      db.prepare("UPDATE events SET data = json_set(data, '$.amount', 99999) WHERE stream_id = ? AND version = 1").run(rows[1]!.streamId);
      db.close();

      const store = new SqliteEventStore({ filename: file, writerThread: true });
      try {
        const report = await verifyEventLog(store);
        expect(report.broken).to.include({ kind: 'event', problem: 'hash_mismatch', streamId: rows[1]!.streamId, version: 1n });
      } finally {
        await store.close();
      }
    });
  });

  describe('PostgreSQL', function () {
    requirePostgres(this);
    let url: string;
    let schema: string;
    let rows: OldRow[];

    beforeEach(async function () {
      ({ url, schema } = await createTestSchema('chain'));
      rows = oldHistory();
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(OLD_POSTGRES_SCHEMA);
        for (const row of rows) {
          await client.query(
            `insert into events (stream_id, version, event_id, type, schema_version, data, metadata)
             values ($1, $2, $3, $4, 1, $5::jsonb, '{"correlationId":"req-1"}'::jsonb)`,
            [row.streamId, row.version, randomUUID(), row.type, row.data],
          );
        }
      } finally {
        await client.end();
      }
    });

    afterEach(async function () {
      await dropSchema(schema);
    });

    it('chains the existing events on first open, makes the hash mandatory, and appends chain on', async function () {
      const stores = await Promise.all([1, 2, 3].map(() => PostgresEventStore.create({ connectionString: url })));
      try {
        await expectMigrated(stores[0]!, rows);
        const stream = rows[0]!.streamId;
        await stores[1]!.append(stream, [{ id: randomUUID(), type: 'CaptureRequested', schemaVersion: 1, data: { amount: 5 } }], exactly(1n));
        expectChained(await stores[2]!.readStream(stream));

        // A process of the older release, inserting without a hash, is refused.
        const client = new Client({ connectionString: url });
        await client.connect();
        try {
          const error = await client
            .query(`insert into events (stream_id, version, event_id, type, schema_version, data, metadata)
                    values ('old-writer', 0, 'e-old', 'Thing', 1, '{}', '{}')`)
            .then(() => null, (caught: unknown) => caught);
          expect((error as { code?: string } | null)?.code).to.equal('23502'); // not_null_violation
        } finally {
          await client.end();
        }
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });
  });
});
