/**
 * The one generic command handler: read the stream, fold it, decide, append expecting the version
 * that was read. A concurrency conflict means someone else appended in between, so the whole cycle
 * is run again on fresh state, a bounded number of times. Acquirer calls never happen in here:
 * they are made between two commands, after the intent is recorded.
 */
import { newId } from './new-id';
import {
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type StoredEvent,
  NO_STREAM,
  WrongExpectedVersionError,
  exactly,
} from './ports/event-store';

import type { Decider, DomainEvent, SchemaVersion } from '../domain/decider';

export type { Decider, DomainEvent, SchemaVersion };

export interface HandleResult<S, E> {
  state: S;
  newEvents: E[];
  /** Version of the stream after the command (null: stream still does not exist). */
  version: bigint | null;
  /** Global position of the last appended event, when anything was appended. */
  position: bigint | null;
}

export const MAX_CONFLICT_RETRIES = 5;

/**
 * Turns a stored event back into the domain's `{type, data}`. Old schemas arrive already upcast:
 * the store the application is given reads through the upcasting store (src/application/upcasting.ts).
 */
export function toDomainEvent<E extends DomainEvent>(stored: StoredEvent): E {
  return { type: stored.type, data: stored.data } as unknown as E;
}

export function toNewEvent<E extends DomainEvent>(event: E, schemaVersion: SchemaVersion<E>, metadata: EventMetadata): NewEvent {
  return {
    id: newId(),
    type: event.type,
    schemaVersion: typeof schemaVersion === 'number' ? schemaVersion : schemaVersion(event.type),
    data: event.data as Record<string, unknown>,
    metadata,
  };
}

export async function loadState<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, S, E>, 'evolve' | 'initialState'>,
): Promise<{ state: S; version: bigint | null; events: StoredEvent[] }> {
  const stored = await store.readStream(streamId);
  let state = decider.initialState();
  for (const e of stored) state = decider.evolve(state, toDomainEvent<E>(e));
  return { state, version: stored.length ? stored[stored.length - 1].version : null, events: stored };
}

export async function handleCommand<C, S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, S, E>,
  command: C | ((state: S) => C),
  metadata: EventMetadata = {},
  /** State the caller just got from a previous command on the same stream: saves one read. */
  known?: { state: S; version: bigint | null },
): Promise<HandleResult<S, E>> {
  for (let attempt = 0; ; attempt++) {
    const { state, version } = attempt === 0 && known ? known : await loadState(store, streamId, decider);
    const cmd = typeof command === 'function' ? (command as (s: S) => C)(state) : command;
    const newEvents = decider.decide(cmd, state);
    if (newEvents.length === 0) return { state, newEvents, version, position: null };
    const toAppend = newEvents.map((e) => toNewEvent(e, decider.schemaVersion, metadata));
    try {
      const result = await store.append(streamId, toAppend, version === null ? NO_STREAM : exactly(version));
      const after = newEvents.reduce(decider.evolve, state);
      return { state: after, newEvents, version: result.nextExpectedVersion, position: result.position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < MAX_CONFLICT_RETRIES) continue;
      throw error;
    }
  }
}

/** `handleCommand` bound to one stream type: its store, its decider and how an id names its stream. */
export interface StreamHandler<C, S, E extends DomainEvent> {
  readonly decider: Decider<C, S, E>;
  streamId(id: string): string;
  load(id: string): Promise<{ state: S; version: bigint | null; events: StoredEvent[] }>;
  handle(
    id: string,
    command: C | ((state: S) => C),
    metadata?: EventMetadata,
    known?: { state: S; version: bigint | null },
  ): Promise<HandleResult<S, E>>;
}

/** Binds the handler once per stream type, so use cases speak of ids and commands, not of streams. */
export function commandHandler<C, S, E extends DomainEvent>(
  store: EventStore,
  toStreamId: (id: string) => string,
  decider: Decider<C, S, E>,
): StreamHandler<C, S, E> {
  return {
    decider,
    streamId: toStreamId,
    load: (id) => loadState(store, toStreamId(id), decider),
    handle: (id, command, metadata, known) => handleCommand(store, toStreamId(id), decider, command, metadata, known),
  };
}
