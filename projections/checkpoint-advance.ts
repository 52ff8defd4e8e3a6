/**
 * A projection's checkpoint moved forward by compare-and-set, in the transaction that writes its
 * rows: it moves only from where the writer last saw it, so a second writer (another projector, a
 * rebuild that swapped fresh tables in) is noticed instead of overwritten. Its text is compiled
 * once per database handle (compiled-once.ts).
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { compiledOnce } from './compiled-once';
import type { ReadModelDatabase } from './database-schema';

/** The statement's two forms: the checkpoint had no position yet, or had one. */
const FROM_NULL = { statement: 'checkpoint from null' };
const FROM_POSITION = { statement: 'checkpoint from a position' };

/** Whether the checkpoint `name` stood at `from` and now stands at `to`. */
export async function advanceCheckpoint(
  trx: Transaction<ReadModelDatabase>,
  name: string,
  from: bigint | null,
  to: bigint,
  now: string,
): Promise<boolean> {
  const query =
    from === null
      ? CompiledQuery.raw(compiledOnce(trx, FROM_NULL, () => compileText(trx, true)), [to.toString(), now, name])
      : CompiledQuery.raw(compiledOnce(trx, FROM_POSITION, () => compileText(trx, false)), [to.toString(), now, name, from.toString()]);
  const result = await trx.executeQuery(query);
  return result.numAffectedRows === 1n;
}

function compileText(db: Kysely<ReadModelDatabase>, fromNull: boolean): string {
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
}
