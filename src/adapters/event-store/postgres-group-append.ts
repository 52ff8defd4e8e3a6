/**
 * A group of concurrent append calls decided in one pass (PostgresEventStore's batched commit):
 * from every stream head and every already-stored event id the group names, read once under the
 * append lock, each call in order is accepted (its events versioned and chained) or refused, all
 * of its writes or none. Only the accepted events are then inserted, in one statement.
 */
import type { AppendResult, StreamWrite } from '../../application/ports/event-store';
import { eventChainHashOfText } from '../../domain/audit/chain-hash';
import type { PreparedEvent, RawExisting } from './postgres-rows';
import { checkExpectedVersion, checkResult, type ExistingEventRow, isVersionCheck, resolveRetry } from './shared';

export interface GroupCall {
  writes: StreamWrite[];
  prepared: PreparedEvent[][];
}

/** An accepted event with the version and chain hash it is inserted with. */
export interface StagedEvent {
  streamId: string;
  version: bigint;
  event: PreparedEvent;
  hash: string;
}

interface DecidedWrite {
  streamId: string;
  version: bigint;
  /**
   * Set when the write inserts nothing: stored before (answered as the first attempt was), or a
   * version check.
   */
  answered?: AppendResult;
}

export type CallAnswer = { ok: true; writes: DecidedWrite[] } | { ok: false; error: unknown };

export interface StreamHead {
  version: bigint | null;
  hash: string | null;
}

/** Every head and stored event id the group names, in one round trip ($1 streams, $2 event ids). */
export const READ_GROUP_SQL = `select
  (select coalesce(json_agg(json_build_object('stream_id', s.stream_id, 'version', h.version::text, 'chain_hash', h.chain_hash)), '[]'::json)
     from unnest($1::text[]) as s(stream_id)
     left join lateral (select version, chain_hash from events e where e.stream_id = s.stream_id order by version desc limit 1) h on true) as heads,
  (select coalesce(json_agg(json_build_object('eventId', event_id, 'streamId', stream_id, 'version', version::text, 'position', position::text)), '[]'::json)
     from events where event_id = any($2::text[])) as existing`;

export interface GroupRead {
  heads: Array<{ stream_id: string; version: string | null; chain_hash: string | null }>;
  existing: RawExisting[];
}

/**
 * Inserts the staged events ($1, see stagedPayload) and notifies ($2) in one statement. Positions
 * are taken in the order of `ord`: the order the calls were decided in.
 */
export const INSERT_GROUP_SQL = `with inserted as (
  insert into events (stream_id, version, event_id, type, schema_version, data, metadata, chain_hash)
  select e.value->>'stream', (e.value->>'version')::bigint, e.value->>'id', e.value->>'type',
         (e.value->>'schemaVersion')::integer, e.value->'data', e.value->'metadata', e.value->>'chainHash'
  from jsonb_array_elements($1::jsonb) with ordinality as e(value, ord)
  order by e.ord
  returning event_id, position
), notified as (select pg_notify($2, '') as ignored)
select inserted.event_id, inserted.position::text from inserted cross join notified`;

export function headsOf(read: GroupRead): Map<string, StreamHead> {
  return new Map(read.heads.map((h) => [h.stream_id, { version: h.version === null ? null : BigInt(h.version), hash: h.chain_hash }]));
}

/** Decides every call of the group in order against `heads`, which it advances as calls are accepted. */
export function decideGroup(group: GroupCall[], heads: Map<string, StreamHead>, existing: ExistingEventRow[]): { answers: CallAnswer[]; staged: StagedEvent[] } {
  const answers: CallAnswer[] = [];
  const staged: StagedEvent[] = [];
  for (const call of group) {
    const working = new Map(heads);
    const callStaged: StagedEvent[] = [];
    try {
      const writes = call.writes.map((write, i) => decideWrite(write, call.prepared[i]!, working, existing, callStaged));
      // The whole call is accepted: its heads become the group's.
      for (const [id, head] of working) heads.set(id, head);
      staged.push(...callStaged);
      answers.push({ ok: true, writes });
    } catch (error) {
      answers.push({ ok: false, error });
    }
  }
  return { answers, staged };
}

function decideWrite(write: StreamWrite, events: PreparedEvent[], working: Map<string, StreamHead>, existing: ExistingEventRow[], staged: StagedEvent[]): DecidedWrite {
  if (isVersionCheck(write)) {
    // The head is the one read under the lock, advanced by the calls accepted before this one.
    checkExpectedVersion(write.streamId, write.expected, working.get(write.streamId)?.version ?? null);
    return { streamId: write.streamId, version: write.expected.version, answered: checkResult(write.expected.version) };
  }
  const mine = existing.filter((row) => events.some((p) => p.event.id === row.eventId));
  const retry = resolveRetry(write.streamId, events.map((p) => p.event), mine);
  if (retry) return { streamId: write.streamId, version: retry.nextExpectedVersion, answered: retry };
  const head = working.get(write.streamId) ?? { version: null, hash: null };
  checkExpectedVersion(write.streamId, write.expected, head.version);
  let version = head.version ?? -1n;
  let prevHash = head.hash;
  for (const event of events) {
    version += 1n;
    prevHash = eventChainHashOfText(
      { prevHash, streamId: write.streamId, version, type: event.event.type, schemaVersion: event.event.schemaVersion },
      event.data,
      event.metadata,
    );
    staged.push({ streamId: write.streamId, version, event, hash: prevHash });
  }
  working.set(write.streamId, { version, hash: prevHash });
  return { streamId: write.streamId, version };
}

/** The staged events as the JSON array INSERT_GROUP_SQL reads, written around the canonical texts. */
export function stagedPayload(staged: StagedEvent[]): string {
  const items = staged.map(
    (r) =>
      `{"stream":${JSON.stringify(r.streamId)},"version":"${r.version}","id":${JSON.stringify(r.event.event.id)},` +
      `"type":${JSON.stringify(r.event.event.type)},"schemaVersion":${r.event.event.schemaVersion},` +
      `"data":${r.event.data},"metadata":${r.event.metadata},"chainHash":"${r.hash}"}`,
  );
  return `[${items.join(',')}]`;
}

/** Each accepted call's results, from the positions the insert handed back by event id. */
export function resultsOfGroup(answers: CallAnswer[], staged: StagedEvent[], positions: Map<string, bigint>): Array<AppendResult[] | { error: unknown }> {
  const lastPosition = new Map<string, bigint>();
  for (const r of staged) lastPosition.set(`${r.streamId}\u0000${r.version}`, positions.get(r.event.event.id)!);
  return answers.map((answer) =>
    answer.ok
      ? answer.writes.map((w) => w.answered ?? { nextExpectedVersion: w.version, position: lastPosition.get(`${w.streamId}\u0000${w.version}`)! })
      : { error: answer.error },
  );
}
