/**
 * A projection's checkpoint moved forward by compare-and-set, in the transaction that writes its
 * rows: it moves only from where the writer last saw it, so a second writer (another projector, a
 * rebuild that swapped fresh tables in) is noticed instead of overwritten.
 *
 * The statement is compiled once per database handle: built through the query builder for every
 * batch of every projection, it cost the live projector's thread more than running it did.
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { ReadModelDatabase } from './database-schema';

interface Texts {
  /** The checkpoint had no position yet. */
  fromNull: string;
  fromPosition: string;
}

const textsByAdapter = new WeakMap<object, Texts>();

/** Whether the checkpoint `name` stood at `from` and now stands at `to`. */
export async function advanceCheckpoint(
  trx: Transaction<ReadModelDatabase>,
  name: string,
  from: bigint | null,
  to: bigint,
  now: string,
): Promise<boolean> {
  const executor = trx.getExecutor();
  // A plugin may rewrite the statement (a rebuild's redirection): such a handle compiles its own.
  const texts = executor.plugins.length === 0 ? cachedTexts(trx, executor.adapter) : compileTexts(trx);
  const query =
    from === null
      ? CompiledQuery.raw(texts.fromNull, [to.toString(), now, name])
      : CompiledQuery.raw(texts.fromPosition, [to.toString(), now, name, from.toString()]);
  const result = await trx.executeQuery(query);
  return result.numAffectedRows === 1n;
}

function cachedTexts(db: Kysely<ReadModelDatabase>, adapter: object): Texts {
  let texts = textsByAdapter.get(adapter);
  if (!texts) textsByAdapter.set(adapter, (texts = compileTexts(db)));
  return texts;
}

function compileTexts(db: Kysely<ReadModelDatabase>): Texts {
  const compile = (fromNull: boolean): string => {
    const compiled = db
      .updateTable('projection_checkpoints')
      .set({ position: '<to>', updated_at: '<now>' })
      .where('name', '=', '<name>')
      .where((eb) => (fromNull ? eb('position', 'is', null) : eb('position', '=', '<from>')))
      .compile();
    // The values are bound by their place in the text: check the builder put them where they are given.
    const expected = fromNull ? ['<to>', '<now>', '<name>'] : ['<to>', '<now>', '<name>', '<from>'];
    if (compiled.parameters.join('|') !== expected.join('|')) {
      throw new Error(`the checkpoint statement binds ${compiled.parameters.join(', ')}, not ${expected.join(', ')}`);
    }
    return compiled.sql;
  };
  return { fromNull: compile(true), fromPosition: compile(false) };
}
