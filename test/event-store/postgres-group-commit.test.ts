/**
 * Appends waiting while another commits share the next transaction (group commit). Given many
 * concurrent appends, some racing for the same stream, then each call is answered on its own: the
 * winners of a race commit, the losers get WrongExpectedVersionError, an appendMultiple commits all
 * of its writes or none, and nobody else's append is lost because a neighbour in its group failed.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import { NO_STREAM, WrongExpectedVersionError, exactly } from '../../src/application/ports/event-store';
import { createTestSchema, dropSchema, requirePostgres } from '../support/postgres';
import { newEvents } from './contract';

describe('PostgreSQL event store: appends committed in groups', function () {
  requirePostgres(this);
  let store: PostgresEventStore;
  let schema: string;
  beforeEach(async () => {
    const created = await createTestSchema('gc');
    schema = created.schema;
    store = await PostgresEventStore.create({ connectionString: created.url, poolSize: 4 });
  });
  afterEach(async () => {
    await store.close();
    await dropSchema(schema);
  });

  it('Given 60 concurrent calls, 20 racing for one new stream, then one racer wins, the others conflict, and every other call commits', async () => {
    const contested = `race-${randomUUID()}`;
    const calls = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? store.append(contested, newEvents(1), NO_STREAM).then(() => 'won' as const, (e: unknown) => (e instanceof WrongExpectedVersionError ? ('lost' as const) : Promise.reject(e)))
        : store.append(`free-${randomUUID()}`, newEvents(2), NO_STREAM).then(() => 'free' as const),
    );
    const outcomes = await Promise.all(calls);

    expect(outcomes.filter((o) => o === 'won')).to.have.length(1);
    expect(outcomes.filter((o) => o === 'lost')).to.have.length(19);
    expect(outcomes.filter((o) => o === 'free')).to.have.length(40);
    const all = await store.readAll();
    expect(all).to.have.length(1 + 40 * 2);
    const positions = all.map((e) => e.position);
    expect([...positions].sort((a, b) => (a < b ? -1 : 1))).to.deep.equal(positions);
  });

  it('Given an appendMultiple whose second write conflicts, when it shares a group with others, then none of its writes is stored and the others are', async () => {
    const taken = `taken-${randomUUID()}`;
    await store.append(taken, newEvents(1), NO_STREAM);
    const first = `first-${randomUUID()}`;
    const results = await Promise.allSettled([
      store.appendMultiple([
        { streamId: first, events: newEvents(1), expected: NO_STREAM },
        { streamId: taken, events: newEvents(1), expected: exactly(5n) },
      ]),
      ...Array.from({ length: 10 }, () => store.append(`other-${randomUUID()}`, newEvents(1), NO_STREAM)),
    ]);

    expect(results[0]!.status).to.equal('rejected');
    expect((results[0] as PromiseRejectedResult).reason).to.be.instanceOf(WrongExpectedVersionError);
    expect(await store.streamVersion(first)).to.equal(null);
    expect(results.slice(1).every((r) => r.status === 'fulfilled')).to.equal(true);
  });

  it('Given the same append sent twice at once (a client retrying), then both are answered with the one stored result', async () => {
    const stream = `twice-${randomUUID()}`;
    const events = newEvents(2);
    const [a, b] = await Promise.all([store.append(stream, events, NO_STREAM), store.append(stream, events, NO_STREAM)]);

    expect(a).to.deep.equal(b);
    expect((await store.readStream(stream)).map((e) => e.id)).to.deep.equal(events.map((e) => e.id));
  });
});
