/**
 * Given/When/Then for pure deciders:
 *
 *   DeciderSpecification.for({ decide, evolve, initialState })
 *     .given(pastEvents)
 *     .when(command)
 *     .then(expectedEvents);          // or .thenThrows('code'), .thenState({ ...partial })
 *
 * `given` folds the past events with `evolve`; `when` runs `decide` once against that state and
 * checks that deciding left both the state and the command untouched (a decider is pure).
 * `then` compares the decided events exactly; `thenThrows` expects a DomainError with that code;
 * `thenState` folds the decided events onto the given state and compares the listed top-level
 * fields (each one deep-equal; unlisted fields are ignored).
 *
 * The object returned by `when` has a `then` method, so never return it from a test (mocha would
 * treat it as a promise): write test bodies as blocks, `() => { spec...then([...]); }`.
 */
import { expect } from 'chai';
import { isDeepStrictEqual } from 'node:util';
import { DomainError, type DomainErrorCode } from '../../src/domain/errors';

export interface PureDecider<C, S, E> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}

type Decision<E> = { ok: true; events: E[] } | { ok: false; error: unknown };

export class DeciderSpecification<C, S, E> {
  private constructor(private readonly decider: PureDecider<C, S, E>) {}

  static for<C, S, E>(decider: PureDecider<C, S, E>): DeciderSpecification<C, S, E> {
    return new DeciderSpecification(decider);
  }

  given(events: readonly E[] = []): Given<C, S, E> {
    return new Given(this.decider, events);
  }
}

export class Given<C, S, E> {
  constructor(
    private readonly decider: PureDecider<C, S, E>,
    private readonly history: readonly E[],
  ) {}

  /** The state the past events fold to. */
  state(): S {
    return this.history.reduce((state, event) => this.decider.evolve(state, event), this.decider.initialState());
  }

  when(command: C): When<C, S, E> {
    const state = this.state();
    const stateBefore = snapshot(state);
    const commandBefore = snapshot(command);
    let decision: Decision<E>;
    try {
      decision = { ok: true, events: this.decider.decide(command, state) };
    } catch (error) {
      decision = { ok: false, error };
    }
    if (stateBefore !== NOT_CLONEABLE && !isDeepStrictEqual(state, stateBefore)) {
      expect.fail('decide mutated the state it was given');
    }
    if (commandBefore !== NOT_CLONEABLE && !isDeepStrictEqual(command, commandBefore)) {
      expect.fail('decide mutated the command it was given');
    }
    return new When(this.decider, state, decision);
  }
}

export class When<C, S, E> {
  constructor(
    private readonly decider: PureDecider<C, S, E>,
    private readonly givenState: S,
    private readonly decision: Decision<E>,
  ) {}

  /** The decided events; fails the test when the command was refused. */
  events(): E[] {
    if (!this.decision.ok) {
      const error = this.decision.error;
      const what = error instanceof DomainError ? `DomainError(${error.code}): ${error.message}` : String(error);
      expect.fail(`expected the command to be accepted, but it was refused with ${what}`);
    }
    return this.decision.events;
  }

  /** The given state with the decided events folded onto it. */
  state(): S {
    return this.events().reduce((state, event) => this.decider.evolve(state, event), this.givenState);
  }

  then(expected: readonly E[]): Outcome<S, E> {
    if (typeof expected === 'function') {
      throw new Error('A decider specification was returned from a test; write the test body as a block');
    }
    expect(this.events()).to.deep.equal(expected);
    return new Outcome(this.events(), this.state());
  }

  thenNothing(): Outcome<S, E> {
    return this.then([]);
  }

  thenState(expected: Partial<S>): Outcome<S, E> {
    const state = this.state();
    expectSubset(state, expected);
    return new Outcome(this.events(), state);
  }

  thenThrows(code: DomainErrorCode, message?: string | RegExp): void {
    if (this.decision.ok) {
      expect.fail(
        `expected DomainError(${code}), but the command was accepted with ${JSON.stringify(this.decision.events)}`,
      );
    }
    const error = this.decision.error;
    expect(error, 'refusal').to.be.instanceOf(DomainError);
    expect((error as DomainError).code, 'DomainError code').to.equal(code);
    if (typeof message === 'string') expect((error as DomainError).message).to.equal(message);
    else if (message) expect((error as DomainError).message).to.match(message);
  }
}

/** What an accepted command led to; no `then` method, so it is safe to return from a test. */
export class Outcome<S, E> {
  constructor(
    readonly events: E[],
    readonly state: S,
  ) {}

  thenState(expected: Partial<S>): Outcome<S, E> {
    expectSubset(this.state, expected);
    return this;
  }
}

/** Each listed field must deep-equal its counterpart; unlisted fields are not compared. */
function expectSubset(actual: unknown, expected: unknown): void {
  expect(actual).to.be.an('object');
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(expected as object)) picked[key] = (actual as Record<string, unknown>)[key];
  expect(picked).to.deep.equal(expected);
}

const NOT_CLONEABLE = Symbol('not cloneable');

/** A deep copy to check purity against; a value holding functions or the like is not checked. */
function snapshot(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return NOT_CLONEABLE;
  }
}
