/**
 * What every projection module owes, checked for each one listed in projections/index.ts: the
 * compiler asks for every member, and at run time its name is its own, `migrate` creates the tables
 * it declares, `migrate` can run again, and `drop` takes away everything `migrate` made.
 */
import { expect } from 'chai';
import { type Kysely, sql } from 'kysely';
import { allProjections } from '../../projections';
import { createReadModelDb } from '../../projections/database';
import type { ReadModelDatabase } from '../../projections/database-schema';
import type { PaymentsTables } from '../../projections/payments/tables';
import type { ProjectionModule } from '../../projections/projection-module';

async function objectsOf(db: Kysely<ReadModelDatabase>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select type || ' ' || name as name from sqlite_master where name not like 'sqlite_%' order by name`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Checked by the type checker (`npm run typecheck`), never run: each line must fail to compile, or
 * its `@ts-expect-error` is itself an error.
 */
export function modulesTheCompilerRefuses(): ProjectionModule<PaymentsTables>[] {
  const noop = async () => undefined;
  // @ts-expect-error drop is missing: a module must say how its tables go away
  const withoutDrop: ProjectionModule<PaymentsTables> = { name: 'p', tables: ['payments'], migrate: noop, apply: noop };
  // @ts-expect-error merchants is another projection's table
  const foreignTable: ProjectionModule<PaymentsTables> = { name: 'p', tables: ['merchants'], migrate: noop, drop: noop, apply: noop };
  return [withoutDrop, foreignTable];
}

describe('projection modules', function () {
  it('Given the listed modules, then every name and every table belongs to one module only', function () {
    const modules = allProjections();
    expect(new Set(modules.map((m) => m.name)).size).to.equal(modules.length);
    const tables = modules.flatMap((m) => m.tables);
    expect(new Set(tables).size).to.equal(tables.length);
  });

  for (const projection of allProjections()) {
    it(`Given an empty database, when the ${projection.name} module migrates (twice) and then drops, then its declared tables come and go and nothing is left`, async function () {
      const db = createReadModelDb({ kind: 'sqlite', file: ':memory:' });
      try {
        await projection.migrate(db);
        await projection.migrate(db);
        const created = await objectsOf(db);
        for (const table of projection.tables) expect(created, 'declared tables').to.include(`table ${table}`);
        await projection.drop(db);
        expect(await objectsOf(db)).to.deep.equal([]);
      } finally {
        await db.destroy();
      }
    });
  }
});
