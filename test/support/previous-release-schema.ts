/**
 * The events tables exactly as the release before chain hashes created them. Kept as text here,
 * never derived from today's code, so upgrade tests start from what is really on disk out there.
 */
export const PREVIOUS_RELEASE_SQLITE_EVENTS = `
  CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    UNIQUE (stream_id, version),
    UNIQUE (event_id)
  )`;

export const PREVIOUS_RELEASE_POSTGRES_EVENTS = `
  create table events (
    position bigint generated always as identity primary key,
    stream_id text not null,
    version bigint not null,
    event_id text not null,
    type text not null,
    schema_version integer not null,
    data jsonb not null,
    metadata jsonb not null,
    recorded_at timestamptz not null default now(),
    constraint events_stream_version_unique unique (stream_id, version),
    constraint events_event_id_unique unique (event_id)
  )`;
