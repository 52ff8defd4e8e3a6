/**
 * A decider: what a stream's commands become (`decide`), what its events mean (`evolve`), where a
 * stream starts, and the schema version each event is written with. Every stream type has one,
 * defined beside its events, so the command side, the read side and the tests share it.
 */
export interface DomainEvent {
  type: string;
  data: object;
}

/** One version for every event type, or the version of each type (types evolve one by one). */
export type SchemaVersion<E extends DomainEvent = DomainEvent> = number | ((type: E['type']) => number);

export interface Decider<C, S, E extends DomainEvent> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
  schemaVersion: SchemaVersion<E>;
}
