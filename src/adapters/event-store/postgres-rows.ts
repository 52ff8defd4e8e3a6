/**
 * PostgreSQL events as they come back from a query and go into one: the row shape, the stored
 * event it becomes, and an event prepared for the insert in the canonical text that is hashed.
 */
import type { NewEvent, StoredEvent } from '../../application/ports/event-store';
import type { TypeFilteredPage } from '../../application/ports/type-filtered-reader';
import { canonicalJson } from '../../domain/audit/canonical-json';
import type { ExistingEventRow } from './shared';

export const COLUMNS =
  'position::text, stream_id, version::text, event_id, type, schema_version, data, metadata, recorded_at, chain_hash';

export interface EventRow {
  position: string;
  stream_id: string;
  version: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: StoredEvent['metadata'];
  recorded_at: Date;
  chain_hash: string;
}

/** An event with its data and metadata already in the canonical JSON text that is hashed. */
export interface PreparedEvent {
  event: NewEvent;
  data: string;
  metadata: string;
}

export function prepareEvent(event: NewEvent): PreparedEvent {
  return { event, data: canonicalJson(event.data), metadata: canonicalJson(event.metadata ?? {}) };
}

/** An already-stored event an append names, as a query's json_agg hands it back (numbers as text). */
export interface RawExisting {
  eventId: string;
  streamId: string;
  version: string;
  position: string;
}

export function toExisting(row: RawExisting): ExistingEventRow {
  return {
    eventId: row.eventId,
    streamId: row.streamId,
    version: BigInt(row.version),
    position: BigInt(row.position),
  };
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    version: BigInt(row.version),
    position: BigInt(row.position),
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at.toISOString(),
    chainHash: row.chain_hash,
  };
}

/**
 * A type-filtered page ($1 after, $2 maxCount or null, $3 the types): the scan of the next events and
 * the events of the types among them, in one statement and so one snapshot. One row per event
 * handed out, each carrying the scan's count and end; a single row without an event when none is.
 */
export const TYPE_FILTERED_PAGE_SQL = `
  with scanned as materialized (
    select position, type as scanned_type from events where events.position > $1 order by events.position limit $2
  ), scan as (
    select count(*)::integer as scanned, max(position)::text as scanned_up_to from scanned
  )
  select scan.scanned, scan.scanned_up_to, matched.*
  from scan left join lateral (
    select ${COLUMNS}, events.position as ordinal
    from scanned join events using (position)
    where scanned.scanned_type = any($3::text[])
  ) as matched on true
  order by matched.ordinal`;

export type TypeFilteredRow = { scanned: number; scanned_up_to: string | null } & (EventRow | { [K in keyof EventRow]: null });

export function typeFilteredPageOf(rows: TypeFilteredRow[], after: bigint | null): TypeFilteredPage {
  const first = rows[0]!;
  if (first.scanned_up_to === null) return { events: [], scanned: 0, scannedUpTo: after };
  const events = first.event_id === null ? [] : rows.map((row) => toStoredEvent(row as EventRow));
  return { events, scanned: first.scanned, scannedUpTo: BigInt(first.scanned_up_to) };
}

export function isUniqueViolation(error: unknown): error is { code: string; constraint?: string } {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
