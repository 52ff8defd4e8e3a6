/**
 * Given/Then for one projection module, on an in-memory SQLite read-model database of its own:
 *
 *   await projectionSpec(paymentsProjection())
 *     .given([initiated, settled])                 // one batch; call again for another batch
 *     .then(rowsOf('payments', ['payment_id', 'status']), [{ payment_id: id, status: 'SETTLED' }]);
 *
 * `given` takes domain events (`{ type, data }`, as the fixtures build them) and stores them as the
 * store would hand them to the projector: positions 1, 2, ... in the order given, and versions
 * counted per stream. The stream is `stream` when an event names one, else the first id its data
 * holds of deliveryId, chainId, scheduleId, paymentId, merchantId (what the projections key on).
 * Each `given` is applied as one batch, in one transaction, through the module's own `apply`.
 *
 * `then` compares the table's rows, ordered by its primary key, with the expected ones (deep
 * equality; only the listed columns when `rowsOf` names some). It returns a promise: await it, and
 * never await or return the specification itself (its `then` would be taken for a promise's).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type Kysely, sql } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { createReadModelDb, migrateReadModels } from '../../projections/database';
import type { ReadModelDatabase } from '../../projections/database-schema';
import type { ProjectionModule } from '../../projections/projection-module';

export interface GivenEvent {
  type: string;
  data: object;
  /** The stream the event belongs to, when the default (by its ids) does not fit. */
  stream?: string;
}

export interface RowsQuery<Table extends string = string> {
  table: Table;
  /** Only these columns, in this order; absent: every column. */
  columns?: readonly string[];
}

/** The rows of `table`, ordered by its primary key; only `columns` when given. */
export function rowsOf<Table extends string>(table: Table, columns?: readonly string[]): RowsQuery<Table> {
  return { table, columns };
}

type Row = Record<string, unknown>;

const STREAM_KEYS = ['deliveryId', 'chainId', 'scheduleId', 'paymentId', 'merchantId'] as const;
const RECORDED_AT = '2026-01-01T00:00:00.000Z';

function streamOf(event: GivenEvent): string {
  if (event.stream) return event.stream;
  const data = event.data as Record<string, unknown>;
  const key = STREAM_KEYS.find((k) => typeof data[k] === 'string');
  if (!key) throw new Error(`Event ${event.type} names no stream and holds none of ${STREAM_KEYS.join(', ')}: give it a stream`);
  return `${key.replace(/Id$/, '')}-${String(data[key])}`;
}

/** The events as the store would hand them over: positions in order, versions per stream. */
function stored(batches: readonly (readonly GivenEvent[])[]): StoredEvent[][] {
  const versions = new Map<string, bigint>();
  let position = 0n;
  return batches.map((batch) =>
    batch.map((event) => {
      const streamId = streamOf(event);
      const version = versions.has(streamId) ? versions.get(streamId)! + 1n : 0n;
      versions.set(streamId, version);
      position += 1n;
      return {
        id: randomUUID(),
        type: event.type,
        schemaVersion: 1,
        data: event.data as Record<string, unknown>,
        streamId,
        version,
        position,
        recordedAt: RECORDED_AT,
        metadata: {},
        chainHash: '',
      };
    }),
  );
}

export class ProjectionSpecification<Tables> {
  constructor(
    private readonly projection: ProjectionModule<Tables>,
    private readonly batches: readonly (readonly GivenEvent[])[] = [],
  ) {}

  /** One more batch of events, applied after those given before. */
  given(events: readonly GivenEvent[]): ProjectionSpecification<Tables> {
    return new ProjectionSpecification(this.projection, [...this.batches, events]);
  }

  /** Projects the given batches into a fresh database and reads the rows `query` asks for. */
  async rows(query: RowsQuery<keyof Tables & string>): Promise<Row[]> {
    const db = createReadModelDb({ kind: 'sqlite', file: ':memory:' });
    try {
      await migrateReadModels(db, [this.projection]);
      for (const batch of stored(this.batches)) {
        // The module sees its own tables only; the full database holds them.
        await db.transaction().execute((trx) => this.projection.apply(trx as never, batch));
      }
      return await readRows(db, query);
    } finally {
      await db.destroy();
    }
  }

  /** Fails the test unless the rows `query` asks for are exactly `expected`. */
  async then(query: RowsQuery<keyof Tables & string>, expected: readonly Row[]): Promise<void> {
    if (typeof query === 'function') {
      throw new TypeError('A projection specification is not a promise: await the promise its then(rowsOf(...), rows) returns');
    }
    const rows = await this.rows(query);
    const what = query.columns ? `${query.table} (${query.columns.join(', ')})` : query.table;
    expect(rows, `rows of ${what}`).to.deep.equal(expected);
  }
}

export function projectionSpec<Tables>(projection: ProjectionModule<Tables>): ProjectionSpecification<Tables> {
  return new ProjectionSpecification(projection);
}

async function readRows(db: Kysely<ReadModelDatabase>, query: RowsQuery): Promise<Row[]> {
  const info = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${query.table})`.execute(db);
  if (info.rows.length === 0) throw new Error(`The projection has no table ${query.table}`);
  const key = info.rows.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((c) => c.name);
  const order = (key.length > 0 ? key : info.rows.map((c) => c.name)).map((c) => sql.ref(c));
  const columns = query.columns ? sql.join(query.columns.map((c) => sql.ref(c))) : sql`*`;
  const { rows } = await sql<Row>`select ${columns} from ${sql.table(query.table)} order by ${sql.join(order)}`.execute(db);
  return rows;
}
